package commands_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/sandbox"
)

// One is singular: "1 partition written", "1 active member", "1 member".
func TestMessagesCountInTheSingular(t *testing.T) {
	sb, err := sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	on := func(args ...string) []string { return append(args, "--bootstrap-server", sb.Addr()) }
	dir := t.TempDir()

	// billing: one partition, no member.
	p := filepath.Join(dir, "billing.yaml")
	kcg(t, on("plan", "billing", "--topic", "payments", "--to-earliest", "--out", p)...).MustCode(t, 0)
	r := kcg(t, on("apply", p)...).MustCode(t, 0)
	if !strings.Contains(r.Stderr, "applied "+p+": 1 partition written and verified, and still so ") { // --settle watched
		t.Fatalf("apply: %q", r.Stderr)
	}

	// A CSV line of one field.
	csv := filepath.Join(dir, "one.csv")
	if err := os.WriteFile(csv, []byte("payments\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = kcg(t, on("plan", "billing", "--from-file", csv, "--out", filepath.Join(dir, "o.yaml"))...).MustCode(t, 65)
	if !strings.Contains(r.Stderr, "CSV line 1: 1 field, want ") {
		t.Fatalf("plan --from-file: %q", r.Stderr)
	}

	// shipping: one live member.
	p = filepath.Join(dir, "shipping.yaml")
	kcg(t, on("plan", "shipping", "--topic", "orders", "--to-earliest", "--out", p)...).MustCode(t, 0)
	r = kcg(t, on("apply", p)...).MustCode(t, 3)
	if !strings.Contains(r.Stderr, "group shipping has 1 active member (state Stable): stop its consumers first") {
		t.Fatalf("apply: %q", r.Stderr)
	}
	r = kcg(t, on("diff", p)...).MustCode(t, 2)
	if got := rows(r.Stdout, "active"); len(got) != 1 || strings.Join(got[0], " ") != "active shipping - - 1 member, state Stable" {
		t.Fatalf("diff rows %q\n%s%s", got, r.Stdout, r.Stderr)
	}
}
