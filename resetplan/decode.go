package resetplan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// The wire types mirror the file for strict decoding: pointers tell an
// absent key from a zero value, so required fields can be enforced.
type wirePlan struct {
	APIVersion  string           `json:"apiVersion" yaml:"apiVersion"`
	Kind        string           `json:"kind" yaml:"kind"`
	CreatedAt   *string          `json:"createdAt" yaml:"createdAt"`
	CreatedBy   string           `json:"createdBy" yaml:"createdBy"`
	Cluster     *wireCluster     `json:"cluster" yaml:"cluster"`
	Strategy    *wireStrategy    `json:"strategy" yaml:"strategy"`
	Annotations *wireAnnotations `json:"annotations" yaml:"annotations"`
	Groups      *[]wireGroup     `json:"groups" yaml:"groups"`
}

type wireCluster struct {
	ID        string `json:"id" yaml:"id"`
	Bootstrap string `json:"bootstrap" yaml:"bootstrap"`
}

type wireStrategy struct {
	Type         string  `json:"type" yaml:"type"`
	Offset       *int64  `json:"offset" yaml:"offset"`
	ShiftBy      *int64  `json:"shiftBy" yaml:"shiftBy"`
	Datetime     *string `json:"datetime" yaml:"datetime"`
	Duration     *string `json:"duration" yaml:"duration"`
	ResolvedTime *string `json:"resolvedTime" yaml:"resolvedTime"`
	File         *string `json:"file" yaml:"file"`
	RollbackOf   *string `json:"rollbackOf" yaml:"rollbackOf"`
	Group        *string `json:"group" yaml:"group"`
}

type wireAnnotations struct {
	Ticket *string `json:"ticket" yaml:"ticket"`
	Note   *string `json:"note" yaml:"note"`
}

type wireGroup struct {
	Group       *string `json:"group" yaml:"group"`
	Type        string  `json:"type" yaml:"type"`
	StateAtPlan string  `json:"stateAtPlan" yaml:"stateAtPlan"`
	// New is derived from StateAtPlan (Plan.IsNew); read only to check
	// that it agrees.
	New        *bool           `json:"new" yaml:"new"`
	Partitions []wirePartition `json:"partitions" yaml:"partitions"`
}

type wirePartition struct {
	Topic     *string `json:"topic" yaml:"topic"`
	Partition *int32  `json:"partition" yaml:"partition"`
	Current   *int64  `json:"current" yaml:"current"`
	Target    *int64  `json:"target" yaml:"target"`
	LogStart  *int64  `json:"logStart" yaml:"logStart"`
	LogEnd    *int64  `json:"logEnd" yaml:"logEnd"`
	Reason    string  `json:"reason" yaml:"reason"`
}

// Decode reads a plan file, YAML or JSON (JSON when the first non-blank
// character is '{'), strictly: unknown fields, duplicate keys, a second
// document and missing required fields are refused; kind must be
// OffsetResetPlan; an apiVersion other than kcg/v1 is refused with
// ErrUnsupportedVersion (a future kcg/v2 may change what fields mean, so
// guessing is unsafe). A Java CSV export is recognised and named
// (ErrLooksLikeCSV). Every error is a *DecodeError (ErrBadInput), or a
// *TooLargeError (also ErrBadInput) for data over MaxPlanBytes.
//
// The plan comes back sorted (groups, then partitions), which is also the
// order of its digest: reordering a file does not change what it is.
//
// data larger than MaxPlanBytes is refused before it is parsed, and data
// larger than MaxOtherPlanBytes unless it is in kcg's own YAML layout (the
// fast path). yaml.v3
// refuses nesting deeper than 10,000 levels and aliases that expand far
// beyond the document ("billion laughs"); encoding/json refuses nesting
// deeper than 10,000 levels.
func Decode(data []byte) (*Plan, error) { return decode(data, true) }

// decode is Decode; fast allows fastWire, which reads the canonical YAML
// layout without yaml.v3 and leaves every other input to the path below
// (decode(data, false) is that path alone, for the tests).
func decode(data []byte, fast bool) (*Plan, error) {
	if len(data) > MaxPlanBytes {
		return nil, tooLarge(MaxPlanBytes, "plan file")
	}
	if fast {
		if w, ok := fastWire(data); ok {
			if err := checkHeader(w.APIVersion, w.Kind); err != nil {
				err.Format = "yaml"
				return nil, err
			}
			p, derr := fromWire(w)
			if derr != nil {
				derr.Format = "yaml"
				return nil, derr
			}
			return p, nil
		}
	}
	if len(data) > MaxOtherPlanBytes {
		return nil, tooLarge(MaxOtherPlanBytes, otherLayout)
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 {
		return nil, &DecodeError{Msg: "the file is empty"}
	}
	isJSON := trimmed[0] == '{'
	if !isJSON && !looksLikePlan(data) && looksLikeCSV(data) {
		return nil, &DecodeError{Format: "csv", Err: ErrLooksLikeCSV,
			Msg: "this looks like a kafka-consumer-groups CSV export, not a kcg plan; use --from-file to turn it into a plan (kcg plan GROUP --from-file FILE --out PLAN)"}
	}
	format := "yaml"
	if isJSON {
		format = "json"
	}
	// Read apiVersion and kind first, leniently: a future version's
	// unknown fields must produce the version error, not an unknown-field
	// one.
	var head struct {
		APIVersion any `json:"apiVersion" yaml:"apiVersion"`
		Kind       any `json:"kind" yaml:"kind"`
	}
	var err error
	if isJSON {
		// Only the first value: trailing data is reported below, clearly.
		err = json.NewDecoder(bytes.NewReader(trimmed)).Decode(&head)
	} else {
		err = yaml.Unmarshal(data, &head)
	}
	if err != nil {
		msg := cleanErr(err)
		if what := notAMapping(data, isJSON); what != "" {
			msg = "the file holds " + what + ", not a mapping with apiVersion: kcg/v1 and kind: OffsetResetPlan"
		}
		return nil, &DecodeError{Format: format, Line: errLine(err, data), Msg: "not a kcg plan file: " + msg, Err: err}
	}
	apiVersion, _ := head.APIVersion.(string)
	kind, _ := head.Kind.(string)
	if err := checkHeader(apiVersion, kind); err != nil {
		err.Format = format
		return nil, err
	}

	var w wirePlan
	if isJSON {
		if err := checkJSONDuplicates(trimmed); err != nil {
			return nil, &DecodeError{Format: format, Msg: err.Error()}
		}
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&w); err != nil {
			return nil, &DecodeError{Format: format, Line: errLine(err, trimmed), Msg: cleanErr(err), Err: err}
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, &DecodeError{Format: format, Msg: "unexpected data after the plan object"}
		}
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&w); err != nil {
			return nil, &DecodeError{Format: format, Line: errLine(err, data), Msg: cleanErr(err), Err: err}
		}
		var extra yaml.Node
		if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
			return nil, &DecodeError{Format: format, Msg: "more than one YAML document; a plan file holds exactly one"}
		}
	}
	p, derr := fromWire(&w)
	if derr != nil {
		derr.Format = format
		return nil, derr
	}
	return p, nil
}

var apiVersionRE = regexp.MustCompile(`^kcg/v([0-9]+)$`)

func checkHeader(apiVersion, kind string) *DecodeError {
	if apiVersion == "" && kind == "" {
		return &DecodeError{Msg: "not a kcg plan file: it has no apiVersion and kind (want apiVersion: kcg/v1, kind: OffsetResetPlan)"}
	}
	if kind != Kind {
		return &DecodeError{Msg: fmt.Sprintf("kind is %q; kcg plan files have kind %s", kind, Kind)}
	}
	m := apiVersionRE.FindStringSubmatch(apiVersion)
	if m == nil {
		return &DecodeError{Err: ErrUnsupportedVersion,
			Msg: fmt.Sprintf("apiVersion %q is not a kcg plan version (want %s)", apiVersion, APIVersion)}
	}
	if n, _ := strconv.Atoi(m[1]); n != 1 {
		hint := "re-create the plan with this kcg"
		if n > 1 {
			hint = "it was written by a newer kcg; use that version, or re-create the plan with this one"
		}
		return &DecodeError{Err: ErrUnsupportedVersion,
			Msg: fmt.Sprintf("plan apiVersion %s is not supported: this kcg reads %s; %s", apiVersion, APIVersion, hint)}
	}
	return nil
}

// looksLikePlan reports whether data starts like a plan document (used by
// --from-file to tell a plan from a CSV): JSON, a YAML document marker, or
// an apiVersion/kind key on the first line that is not a comment.
func looksLikePlan(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// Line by line without splitting the whole file: a file of millions
	// of blank lines must not cost a string per line.
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		l := strings.TrimSpace(string(line))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		return strings.HasPrefix(l, "{") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "%YAML") ||
			planKeyRE.MatchString(l)
	}
	return false
}

var planKeyRE = regexp.MustCompile(`^["']?(apiVersion|kind)["']?\s*:`)

// fromWire converts and validates a decoded file.
func fromWire(w *wirePlan) (*Plan, *DecodeError) {
	bad := func(format string, a ...any) (*Plan, *DecodeError) {
		return nil, &DecodeError{Msg: fmt.Sprintf(format, a...)}
	}
	p := &Plan{APIVersion: w.APIVersion, Kind: w.Kind, CreatedBy: w.CreatedBy}
	if w.CreatedAt == nil {
		return bad("createdAt is missing")
	}
	t, err := parseTime("createdAt", *w.CreatedAt)
	if err != nil {
		return nil, err
	}
	p.CreatedAt = t
	if w.Cluster == nil {
		return bad("cluster is missing")
	}
	p.Cluster = Cluster{ID: w.Cluster.ID, Bootstrap: w.Cluster.Bootstrap}
	if w.Strategy == nil {
		return bad("strategy is missing")
	}
	st, derr := strategyFromWire(w.Strategy)
	if derr != nil {
		return nil, derr
	}
	p.Strategy = st
	if a := w.Annotations; a != nil {
		an := &Annotations{}
		if a.Ticket != nil {
			an.Ticket = *a.Ticket
		}
		if a.Note != nil {
			an.Note = *a.Note
		}
		if !an.IsZero() {
			p.Annotations = an
		}
	}
	if w.Groups == nil {
		return bad("groups is missing")
	}
	rollback := st.Type == StrategyRollback
	seenGroup := map[string]bool{}
	for gi, wg := range *w.Groups {
		if wg.Group == nil {
			return bad("groups[%d]: group is missing", gi)
		}
		name := *wg.Group
		if seenGroup[name] {
			return bad("group %q appears twice", name)
		}
		seenGroup[name] = true
		g := Group{Group: name, Type: wg.Type, StateAtPlan: wg.StateAtPlan, Partitions: make([]Partition, 0, len(wg.Partitions))}
		if wg.New != nil && *wg.New != p.IsNew(g) {
			// new is derived; a file that says otherwise was edited by
			// hand and a reviewer may have trusted the wrong one.
			if *wg.New {
				return bad("group %q: new: true, but stateAtPlan is %s: a new group is planned as Dead (and never in a rollback plan)", name, wg.StateAtPlan)
			}
			return bad("group %q: new: false, but stateAtPlan Dead means the group did not exist at plan time", name)
		}
		// Partitions in strictly increasing order (every file kcg writes)
		// cannot repeat one: the set of those seen is built only once the
		// order breaks.
		var seenTP map[TopicPartition]bool
		for pi, wp := range wg.Partitions {
			// where is only formatted for an error: two Sprintfs per
			// partition were a tenth of decoding a large plan.
			where := func() string { return fmt.Sprintf("group %q partitions[%d]", name, pi) }
			switch {
			case wp.Topic == nil:
				return bad("%s: topic is missing", where())
			case wp.Partition == nil:
				return bad("%s: partition is missing", where())
			}
			pt := Partition{Topic: *wp.Topic, Partition: *wp.Partition, Current: wp.Current, Target: wp.Target, Reason: Reason(wp.Reason)}
			where = func() string { return fmt.Sprintf("group %q partition %s", name, pt.TP().KafkaName()) }
			if seenTP == nil && pi > 0 && comparePartitions(g.Partitions[pi-1], pt) >= 0 {
				seenTP = make(map[TopicPartition]bool, len(wg.Partitions))
				for _, q := range g.Partitions {
					seenTP[q.TP()] = true
				}
			}
			switch {
			case pt.Partition < 0:
				return bad("%s: partition number is negative", where())
			case seenTP[pt.TP()]:
				return bad("%s appears twice", where())
			case wp.LogStart == nil || wp.LogEnd == nil:
				return bad("%s: logStart and logEnd are required", where())
			case wp.Reason == "":
				return bad("%s: reason is missing", where())
			case !reasons[pt.Reason]:
				return bad("%s: unknown reason %q", where(), wp.Reason)
			case (pt.Reason == ReasonRestore || pt.Reason == ReasonDeleteOffset) && !rollback:
				return bad("%s: reason %s is only valid in a rollback plan", where(), pt.Reason)
			case pt.Reason == ReasonCopiedFromGroup && p.Strategy.Type != StrategyToGroup:
				return bad("%s: reason %s is only valid in a to-group plan", where(), pt.Reason)
			case pt.Reason == ReasonDeleteOffset && pt.Target != nil:
				return bad("%s: reason delete-offset needs target: null", where())
			case pt.Target == nil && pt.Reason != ReasonDeleteOffset:
				return bad("%s: target is missing (null is only valid with reason delete-offset in a rollback plan)", where())
			}
			if seenTP != nil {
				seenTP[pt.TP()] = true
			}
			pt.LogStart, pt.LogEnd = *wp.LogStart, *wp.LogEnd
			g.Partitions = append(g.Partitions, pt)
		}
		p.Groups = append(p.Groups, g)
	}
	if p.Groups == nil {
		p.Groups = []Group{}
	}
	p.normalize()
	return p, nil
}

func strategyFromWire(w *wireStrategy) (Strategy, *DecodeError) {
	t := StrategyType(w.Type)
	if w.Type == "" {
		return Strategy{}, &DecodeError{Msg: "strategy.type is missing"}
	}
	if !knownStrategy(t) {
		return Strategy{}, &DecodeError{Msg: fmt.Sprintf("strategy.type %q is not a known strategy", w.Type)}
	}
	// Exactly the parameter the type takes: a stray one would show the
	// reviewer something that did not produce the targets.
	want := map[StrategyType]string{
		StrategyToOffset: "offset", StrategyShiftBy: "shiftBy", StrategyToDatetime: "datetime",
		StrategyByDuration: "duration", StrategyFromFile: "file", StrategyRollback: "rollbackOf",
		StrategyToGroup: "group",
	}[t]
	present := map[string]bool{
		"offset": w.Offset != nil, "shiftBy": w.ShiftBy != nil, "datetime": w.Datetime != nil,
		"duration": w.Duration != nil, "resolvedTime": w.ResolvedTime != nil, "file": w.File != nil,
		"rollbackOf": w.RollbackOf != nil, "group": w.Group != nil,
	}
	for _, k := range []string{"offset", "shiftBy", "datetime", "duration", "resolvedTime", "file", "rollbackOf", "group"} {
		allowed := k == want || (k == "resolvedTime" && t == StrategyByDuration)
		if present[k] && !allowed {
			return Strategy{}, &DecodeError{Msg: fmt.Sprintf("strategy %s does not take %s", t, k)}
		}
		if !present[k] && allowed {
			return Strategy{}, &DecodeError{Msg: fmt.Sprintf("strategy %s needs %s", t, k)}
		}
	}
	s := Strategy{Type: t, Offset: w.Offset, ShiftBy: w.ShiftBy}
	var derr *DecodeError
	if w.Datetime != nil {
		if s.Datetime, derr = parseTime("strategy.datetime", *w.Datetime); derr != nil {
			return s, derr
		}
	}
	if w.ResolvedTime != nil {
		if s.ResolvedTime, derr = parseTime("strategy.resolvedTime", *w.ResolvedTime); derr != nil {
			return s, derr
		}
	}
	if w.Duration != nil {
		if _, err := ParseDuration(*w.Duration); err != nil {
			return s, &DecodeError{Msg: fmt.Sprintf("strategy.duration %q is not an ISO-8601 duration", *w.Duration)}
		}
		s.Duration = *w.Duration
	}
	// An empty file or rollbackOf is refused like a missing one: the
	// encoder omits empty values, so a plan holding one would not read
	// back (found by FuzzDecode: file: "" decoded, its encoding did not).
	if w.File != nil {
		if *w.File == "" {
			return s, &DecodeError{Msg: fmt.Sprintf("strategy %s: file is empty", t)}
		}
		s.File = *w.File
	}
	if w.RollbackOf != nil {
		if *w.RollbackOf == "" {
			return s, &DecodeError{Msg: fmt.Sprintf("strategy %s: rollbackOf is empty", t)}
		}
		s.RollbackOf = *w.RollbackOf
	}
	if w.Group != nil {
		if *w.Group == "" {
			return s, &DecodeError{Msg: "strategy.group is empty"}
		}
		s.Group = *w.Group
	}
	return s, nil
}

func parseTime(field, v string) (time.Time, *DecodeError) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, &DecodeError{Msg: fmt.Sprintf("%s %q is not an RFC 3339 time (e.g. 2026-11-29T07:10:00Z)", field, v)}
	}
	return t.UTC(), nil
}

var (
	yamlLineRE    = regexp.MustCompile(`line (\d+)`)
	yamlUnknownRE = regexp.MustCompile(`field (\S+) not found in type resetplan\.wire(\w+)`)
	yamlTypeRE    = regexp.MustCompile(`into (\*?)(\[\])?resetplan\.wire(\w+)`)
	wireFieldRE   = regexp.MustCompile(`wire(Plan|Cluster|Strategy|Annotations|Group|Partition)\.`)
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

// checkJSONDuplicates refuses an object with a repeated key: encoding/json
// would silently keep the last, so a reviewer reading the first value
// would approve something else than what runs.
func checkJSONDuplicates(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj  bool
		keys map[string]bool
		// wantKey is true when the next token in an object is a key.
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // syntax errors are reported by the real decode
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if top != nil && top.obj {
					top.wantKey = true
				}
				stack = append(stack, &frame{obj: d == '{', keys: map[string]bool{}, wantKey: d == '{'})
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if top != nil && top.obj {
			if top.wantKey {
				k := tok.(string)
				if top.keys[k] {
					return fmt.Errorf("key %q appears twice in one object", k)
				}
				top.keys[k] = true
				top.wantKey = false
			} else {
				top.wantKey = true
			}
		}
	}
}
