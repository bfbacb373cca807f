package app

import (
	"runtime/debug"
	"testing"
)

// A value set at link time wins; without one the toolchain's vcs stamp is
// used; without that, Unknown.
func TestBuildCommitAndDate(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.time", Value: "2026-11-30T10:00:00Z"},
	}}
	if got := buildSetting(bi, "vcs.revision"); got != "0123abc" {
		t.Errorf("revision %q", got)
	}
	if got := buildSetting(bi, "vcs.time"); got != "2026-11-30T10:00:00Z" {
		t.Errorf("time %q", got)
	}
	if got := buildSetting(&debug.BuildInfo{}, "vcs.revision"); got != Unknown {
		t.Errorf("no stamp: %q", got)
	}
	if got := buildSetting(nil, "vcs.time"); got != Unknown {
		t.Errorf("no build info: %q", got)
	}
	// go test stamps no vcs information.
	if got := BuildCommit(); got != Unknown {
		t.Errorf("BuildCommit in a test binary: %q", got)
	}
	saved := Commit
	t.Cleanup(func() { Commit = saved })
	Commit = "feedbeef"
	if got := BuildCommit(); got != "feedbeef" {
		t.Errorf("linked commit: %q", got)
	}
}
