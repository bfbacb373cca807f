package commands_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/clitest"
)

// Bad input through the whole command line: exit 65 (bad data) or 64
// (bad flag value) with exactly one line on stderr, "kcg: ...", and
// nothing on stdout; none of these reaches a network (the bootstrap
// server is a closed port). docs/reliability.md, "Hostile input".

// sparseFile writes head and extends the file to size with NUL bytes,
// without using the disk space (or the test's memory) for them.
func sparseFile(t *testing.T, dir, name, head string, size int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(head), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeInput(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// wantOneLineError checks the refusal: the code, one line on stderr
// holding want, nothing on stdout.
func wantOneLineError(t *testing.T, r clitest.Result, code int, want string) {
	t.Helper()
	if r.Code != code || r.Stdout != "" || !strings.HasPrefix(r.Stderr, "kcg: ") ||
		strings.Count(r.Stderr, "\n") != 1 || !strings.HasSuffix(r.Stderr, "\n") || !strings.Contains(r.Stderr, want) {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d and one line on stderr containing %q", r.Code, r.Stdout, r.Stderr, code, want)
	}
}

const closedPort = "127.0.0.1:1"

func TestBadInputOneLine(t *testing.T) {
	dir := t.TempDir()
	laughs := "a0: &a0 [lol]\n"
	for i := 1; i <= 9; i++ {
		laughs += "a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat("*a"+string(rune('0'+i-1))+",", 9) + "*a" + string(rune('0'+i-1)) + "]\n"
	}
	laughs += "apiVersion: *a9\n"
	plan := "apiVersion: kcg/v1\nkind: OffsetResetPlan\ncreatedAt: \"2026-11-29T07:10:00Z\"\ncreatedBy: x\n" +
		"cluster: {id: c, bootstrap: \"b:9092\"}\nstrategy: {type: to-offset, offset: 1}\ngroups: []\n"
	files := map[string]string{
		"big.yaml":       sparseFile(t, dir, "big.yaml", plan+"# ", 100<<20),
		"big.csv":        sparseFile(t, dir, "big.csv", "g,t,0,1\n", 100<<20),
		"rows.csv":       writeInput(t, dir, "rows.csv", strings.Repeat("g,t,0,1\n", 1_000_001)),
		"big.properties": sparseFile(t, dir, "big.properties", "sasl.jaas.config=", 100<<20),
		"laughs.yaml":    writeInput(t, dir, "laughs.yaml", laughs),
		"deep.yaml":      writeInput(t, dir, "deep.yaml", "apiVersion: "+strings.Repeat("[", 100_000)),
		"deep.json":      writeInput(t, dir, "deep.json", `{"apiVersion":`+strings.Repeat("[", 100_000)),
		"export.csv":     writeInput(t, dir, "export.csv", "billing,payments,0,5\n"),
		"dup.json":       writeInput(t, dir, "dup.json", `{"apiVersion":"kcg/v1","kind":"OffsetResetPlan","kind":"OffsetResetPlan"}`),
		"binary":         writeInput(t, dir, "binary", "\x00\xff\xfe{\x01"),
		"v2.yaml":        writeInput(t, dir, "v2.yaml", strings.Replace(plan, "kcg/v1", "kcg/v2", 1)),
		"multi.yaml":     writeInput(t, dir, "multi.yaml", "apiVersion: kcg/v1\nkind: OffsetResetPlan\nx: \"a\n  b\"\ny: [\n"),
		"bad.csv":        writeInput(t, dir, "bad.csv", "g,t,x,1\n"),
		"badesc.props":   writeInput(t, dir, "badesc.props", "bootstrap.servers=h:1\nsasl.jaas.config=\\u00zz\n"),
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"100 MB plan", []string{"show", files["big.yaml"]}, 65, "larger than 64 MiB, kcg's limit for a plan file"},
		{"100 MB plan to apply", []string{"apply", files["big.yaml"], "-b", closedPort}, 65, "64 MiB"},
		{"100 MB plan to diff", []string{"diff", files["big.yaml"], files["big.yaml"]}, 65, "64 MiB"},
		{"billion laughs", []string{"show", files["laughs.yaml"]}, 65, "excessive aliasing"},
		{"deep YAML", []string{"show", files["deep.yaml"]}, 65, "max depth"},
		{"deep JSON", []string{"show", files["deep.json"]}, 65, "max depth"},
		{"CSV as a plan", []string{"show", files["export.csv"]}, 65, "CSV export"},
		{"duplicate JSON key", []string{"show", files["dup.json"]}, 65, "appears twice"},
		{"binary", []string{"show", files["binary"]}, 65, "plan"},
		{"newer version", []string{"show", files["v2.yaml"]}, 65, "kcg/v2"},
		{"multi-line YAML error", []string{"show", files["multi.yaml"]}, 65, "plan (yaml)"},
		{"100 MB --from-file", []string{"plan", "g", "--all-topics", "--from-file", files["big.csv"], "-b", closedPort}, 65, "larger than 16 MiB, kcg's limit for a --from-file"},
		{"--from-file rows", []string{"plan", "g", "--all-topics", "--from-file", files["rows.csv"], "-b", closedPort}, 65, "more than 1000000 rows"},
		{"bad --from-file", []string{"plan", "g", "--all-topics", "--from-file", files["bad.csv"], "-b", closedPort}, 65, "not a number"},
		{"100 MB --command-config", []string{"describe", "g", "-b", closedPort, "--command-config", files["big.properties"]}, 65, "1 MiB"},
		{"malformed --command-config", []string{"describe", "g", "--command-config", files["badesc.props"]}, 65, `\uxxxx`},
		{"bad --topic", []string{"plan", "g", "--topic", "t:x", "--to-earliest", "-b", closedPort}, 64, "not a number"},
		{"bad --to-datetime", []string{"plan", "g", "--topic", "t", "--to-datetime", "yesterday", "-b", closedPort}, 64, "--to-datetime"},
		{"--to-datetime past 9999 in UTC", []string{"plan", "g", "--topic", "t", "--to-datetime", "9999-12-31T23:00:00-05:00", "-b", closedPort}, 64, "0000 to 9999"},
		{"bad --by-duration", []string{"plan", "g", "--topic", "t", "--by-duration", "P1W", "-b", closedPort}, 64, "--by-duration"},
		{"bad --shift-by", []string{"plan", "g", "--topic", "t", "--shift-by", "x", "-b", closedPort}, 64, "shift-by"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args[0] == "plan" {
				args = append(args, "--out", filepath.Join(dir, "out.yaml"))
			}
			wantOneLineError(t, kcg(t, args...), tt.code, tt.want)
			if _, err := os.Stat(filepath.Join(dir, "out.yaml")); err == nil {
				t.Fatal("a refused plan wrote its --out file")
			}
		})
	}
}
