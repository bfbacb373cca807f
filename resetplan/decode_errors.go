package resetplan

// The decoders' errors in operator language: what cleanErr, notAMapping
// and errLine make of yaml.v3's and encoding/json's messages for a
// DecodeError.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

var (
	yamlLineRE    = regexp.MustCompile(`line (\d+)`)
	yamlUnknownRE = regexp.MustCompile(`field (\S+) not found in type resetplan\.wire(\w+)`)
	yamlTypeRE    = regexp.MustCompile(`into (\*?)(\[\])?resetplan\.wire(\w+)`)
	wireFieldRE   = regexp.MustCompile(`wire(Plan|Cluster|Strategy|Annotations|Connector|ConnectorOffset|Group|Partition)\.`)
	// yamlCannotRE is yaml.v3's type error: the node's tag, its value
	// (quoted, cut at 7 characters), the Go type.
	yamlCannotRE = regexp.MustCompile("cannot unmarshal !!(\\w+) (`[^`]*`)? ?into (\\S+)")
	// jsonCannotRE is encoding/json's type error after the rewrites
	// above: the JSON kind, its value (numbers only), the field path, the
	// Go type.
	jsonCannotRE = regexp.MustCompile(`cannot unmarshal (\w+)( \S+)? into field (\S+) of type (\S+)`)
	// yamlLinePrefixRE only strips a leading "line N: ": with several
	// errors the later ones keep theirs.
	yamlLinePrefixRE = regexp.MustCompile(`^line \d+: `)
)

// cleanErr turns decoder messages into operator language: no Go type
// names, no "yaml: unmarshal errors:" preamble.
func cleanErr(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.ReplaceAll(msg, "\n  ", "; ")
	msg = yamlCannotRE.ReplaceAllStringFunc(msg, func(s string) string {
		m := yamlCannotRE.FindStringSubmatch(s)
		return fmt.Sprintf("expected %s, got %s%s", yamlWant(m[3]), yamlGot[m[1]], strings.TrimSuffix(" "+m[2], " "))
	})
	msg = yamlUnknownRE.ReplaceAllStringFunc(msg, func(s string) string {
		m := yamlUnknownRE.FindStringSubmatch(s)
		return fmt.Sprintf("unknown field %q in %s", m[1], wireName(m[2]))
	})
	msg = yamlTypeRE.ReplaceAllStringFunc(msg, func(s string) string {
		m := yamlTypeRE.FindStringSubmatch(s)
		return "into " + wireName(m[3])
	})
	if strings.HasPrefix(msg, "json: unknown field ") {
		msg = "unknown field " + strings.TrimPrefix(msg, "json: unknown field ")
	}
	msg = strings.TrimPrefix(msg, "json: ")
	msg = strings.ReplaceAll(msg, "Go struct field ", "field ")
	msg = wireFieldRE.ReplaceAllString(msg, "")
	msg = jsonCannotRE.ReplaceAllStringFunc(msg, func(s string) string {
		m := jsonCannotRE.FindStringSubmatch(s)
		got := "a " + m[1]
		if m[2] != "" {
			got = "the " + m[1] + m[2]
		}
		return fmt.Sprintf("%s: expected %s, got %s", m[3], yamlWant(m[4]), got)
	})
	// DecodeError prints the line itself.
	return yamlLinePrefixRE.ReplaceAllString(msg, "")
}

// yamlGot names a YAML tag as found.
var yamlGot = map[string]string{"str": "the string", "int": "the integer", "float": "the number", "bool": "the boolean",
	"seq": "a list", "map": "a mapping", "null": "null", "timestamp": "the time", "binary": "binary data"}

// yamlWant names what the plan wants where yaml.v3 names a Go type.
func yamlWant(goType string) string {
	switch {
	case goType == "int64":
		return "a whole number from -9223372036854775808 to 9223372036854775807"
	case goType == "int32":
		return "a partition number (a whole number from 0 to 2147483647)"
	case goType == "string" || goType == "*string":
		return "a string"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	}
	return "a mapping"
}

// notAMapping says what the document is when it is not a mapping ("a
// string `foo`"), "" when it is one or cannot be read at all.
func notAMapping(data []byte, isJSON bool) string {
	var v any
	var err error
	if isJSON {
		err = json.Unmarshal(data, &v)
	} else {
		err = yaml.Unmarshal(data, &v)
	}
	if err != nil {
		return ""
	}
	switch v := v.(type) {
	case map[string]any:
		return ""
	case string:
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("the text %q", v)
	case []any:
		return "a list"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("the value %v", v)
}

func wireName(t string) string {
	switch t {
	case "Plan":
		return "the plan"
	case "Group":
		return "a group entry"
	case "Partition":
		return "a partition entry"
	}
	return strings.ToLower(t)
}

// errLine finds the line of a decode error: yaml.v3 names it in the text,
// encoding/json gives a byte offset.
func errLine(err error, data []byte) int {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
	case errors.As(err, &te):
		return 1 + bytes.Count(data[:min(int(te.Offset), len(data))], []byte("\n"))
	}
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}
