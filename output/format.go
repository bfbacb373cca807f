package output

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// Format is a value of the -o/--output flag: how a command prints its
// result.
type Format string

// The output formats. FormatTable is for people; FormatJSON and FormatYAML
// carry the same document for scripts; FormatMarkdown is the document for
// a change ticket or a pull request (plans, diffs, apply reports,
// describe), GitHub-flavoured Markdown.
const (
	FormatTable    Format = "table"
	FormatJSON     Format = "json"
	FormatYAML     Format = "yaml"
	FormatMarkdown Format = "markdown"
	// FormatPrometheus is the Prometheus text exposition format
	// (describe only; prometheus.go).
	FormatPrometheus Format = "prometheus"
	// FormatNone prints nothing on stdout (watch only: an exporter with
	// --metrics-listen, or a check with --exit-on-breach).
	FormatNone Format = "none"
)

// Formats lists the -o values in the order help texts show them; each
// command accepts those of its own -o flag.
func Formats() []Format {
	return []Format{FormatTable, FormatJSON, FormatYAML, FormatMarkdown, FormatPrometheus, FormatNone}
}

// ParseFormat parses an -o value. Anything but the exact names (lower
// case, as kubectl and gh accept them) is an error that lists the allowed
// values.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if s == string(f) {
			return f, nil
		}
	}
	names := make([]string, 0, len(Formats()))
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown output format %q: allowed values are %s", s, strings.Join(names, ", "))
}

// String returns the flag value.
func (f Format) String() string { return string(f) }

// normalizer is implemented by the documents: it returns a copy whose
// non-nullable lists are non-nil, so JSON shows [] where YAML does.
type normalizer interface{ normalized() any }

func prepare(doc any) any {
	if n, ok := doc.(normalizer); ok {
		return n.normalized()
	}
	return doc
}

// writeJSON writes doc as JSON: two-space indent, no HTML escaping (a
// group id "a<b" stays readable), one trailing newline. It encodes into a
// buffer first, so an encoding failure writes nothing. A describe document
// (GroupDescriptionList, DescribeView) is written group by group instead,
// to the same bytes (see writeGroupsJSON); its encoding cannot fail, so
// only a failing w can leave it written in part.
func writeJSON(w io.Writer, doc any) error {
	if g, ok := doc.(groupLister); ok {
		return writeGroupsJSON(w, g.groupList())
	}
	out, err := newJSONIndenter().encode(prepare(doc), "")
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// writeYAML writes doc as YAML with two-space indent: the same fields, in
// the same order and with the same nulls as writeJSON. A describe
// document is written group by group, to the same bytes (see
// writeGroupsYAML).
func writeYAML(w io.Writer, doc any) error {
	if g, ok := doc.(groupLister); ok {
		return writeGroupsYAML(w, g.groupList())
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(prepare(doc)); err != nil {
		return fmt.Errorf("encoding YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encoding YAML: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// writeDocument writes doc in a machine format (json or yaml). Tables are
// views of a document (see Write and Document.WriteTable), so FormatTable
// is an error here.
func writeDocument(w io.Writer, f Format, doc any) error {
	if e, ok := doc.(selfEncoder); ok {
		return e.encode(w, f)
	}
	switch f {
	case FormatJSON:
		return writeJSON(w, doc)
	case FormatYAML:
		return writeYAML(w, doc)
	}
	return fmt.Errorf("WriteDocument: format %q is not a document format", f)
}
