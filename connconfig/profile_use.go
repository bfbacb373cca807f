package connconfig

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// UseProfile makes name the current: profile of the config file at path.
// Only the current: line changes (its trailing comment is kept; without
// one, a line is appended), so the operator's layout and comments stay.
// The new file replaces the old one atomically (a temporary file in the
// same directory, renamed over it), keeping its mode; a symbolic link is
// followed and its target rewritten. An unknown name is an
// *UnknownProfileError and nothing is written.
func UseProfile(path, name string) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err // fs.ErrNotExist for a missing file
	}
	st, err := os.Stat(target)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(target)
	if err != nil {
		return &ConfigError{Kind: ConfigErrorData, Key: "config file " + path, Msg: "cannot be read", Err: err}
	}
	f, err := ParseProfileFile(path, data)
	if err != nil {
		return err
	}
	if _, ok := f.Lookup(name); !ok {
		return &UnknownProfileError{Name: name, From: "profile use", Path: path, Known: f.Names()}
	}
	out, err := rewriteCurrent(path, data, name)
	if err != nil {
		return err
	}
	return replaceFile(target, out, st.Mode().Perm())
}

// rewriteCurrent returns data with its top-level current: set to name.
func rewriteCurrent(path string, data []byte, name string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, profileErr(path, 0, "is not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var key, val *yaml.Node
	if len(doc.Content) > 0 {
		root := doc.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "current" {
				key, val = root.Content[i], root.Content[i+1]
			}
		}
		if key == nil && root.Style&yaml.FlowStyle != 0 {
			return nil, profileErr(path, root.Line, "is written in flow style ({...}); add a current: line by hand once, then kcg profile use can change it")
		}
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if key == nil {
		out := append([]byte{}, data...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		return append(out, []byte("current: "+name+"\n")...), nil
	}
	if key.Column != 1 || val.Line != key.Line || val.Kind != yaml.ScalarNode || val.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return nil, profileErr(path, key.Line, "current: must be a one-line value at the start of its line for kcg profile use to rewrite it")
	}
	i := key.Line - 1
	line, ok := replaceValue(lines[i], name)
	if !ok {
		return nil, profileErr(path, key.Line, "current: must be a one-line value at the start of its line for kcg profile use to rewrite it")
	}
	lines[i] = line
	return bytes.Join(lines, nil), nil
}

// replaceValue returns the line "current: OLD  # comment" with OLD (the
// value as written, with its quotes) replaced by name, and every other
// byte kept: the spacing before and after the value, the comment and the
// line ending. ok is false when the value cannot be found on the line (a
// quoted value that does not end on it).
func replaceValue(line []byte, name string) (out []byte, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon < 0 {
		return nil, false
	}
	start := colon + 1
	for start < len(line) && (line[start] == ' ' || line[start] == '\t') {
		start++
	}
	end, ok := valueEnd(line, start)
	if !ok {
		return nil, false
	}
	if end == start {
		return nil, false // no value (ParseProfileFile refuses it before)
	}
	out = append(out, line[:start]...)
	out = append(out, name...)
	return append(out, line[end:]...), true
}

// valueEnd returns where the YAML scalar that starts at line[start] ends
// on the line: after its closing quote, or a plain scalar's last
// non-blank byte. ok is false when a quoted scalar does not end on it.
func valueEnd(line []byte, start int) (end int, ok bool) {
	switch {
	case start < len(line) && line[start] == '"':
		return doubleQuotedEnd(line, start)
	case start < len(line) && line[start] == '\'':
		return singleQuotedEnd(line, start)
	default:
		return plainScalarEnd(line, start), true
	}
}

// doubleQuotedEnd: a "..." scalar, whose backslash escapes the next byte.
func doubleQuotedEnd(line []byte, start int) (int, bool) {
	end := start + 1
	for end < len(line) && line[end] != '"' && line[end] != '\n' {
		if line[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(line) || line[end] != '"' {
		return 0, false
	}
	return end + 1, true
}

// singleQuotedEnd: a single-quoted scalar, in which two quotes in a row
// are one quote inside.
func singleQuotedEnd(line []byte, start int) (int, bool) {
	end := start + 1
	for {
		for end < len(line) && line[end] != '\'' && line[end] != '\n' {
			end++
		}
		if end >= len(line) || line[end] != '\'' {
			return 0, false
		}
		end++
		if end < len(line) && line[end] == '\'' { // '' is a quote inside
			end++
			continue
		}
		return end, true
	}
}

// plainScalarEnd: a plain scalar ends at a comment (a # after a blank) or
// the line's end, its trailing blanks not part of it.
func plainScalarEnd(line []byte, start int) int {
	end := start
	for end < len(line) && line[end] != '\n' && line[end] != '\r' {
		if line[end] == '#' && (end == start || line[end-1] == ' ' || line[end-1] == '\t') {
			break
		}
		end++
	}
	for end > start && (line[end-1] == ' ' || line[end-1] == '\t') {
		end--
	}
	return end
}

// replaceFile writes data to a temporary file next to target and renames
// it over target: a reader sees the old file or the new one, never half.
func replaceFile(target string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write the config file %s: %w", target, unwrapPath(err))
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("cannot write the config file %s: %w", target, unwrapPath(err))
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("cannot write the config file %s: %w", target, unwrapPath(err))
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("cannot write the config file %s: %w", target, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write the config file %s: %w", target, unwrapPath(err))
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("cannot write the config file %s: %w", target, unwrapPath(err))
	}
	ok = true
	return nil
}

// unwrapPath drops a *PathError's temporary file name: the operator knows
// the config file, not kcg's temporary one.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}
