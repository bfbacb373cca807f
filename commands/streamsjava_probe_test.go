package commands_test

import "testing"

func TestStreamsJavaProbe(t *testing.T) {
	f := newStreamsFixture(t)
	run := func(args ...string) {
		out, stderr, code := f.e.JavaRun(t, streamsGroupCommandClass, "", append([]string{"--bootstrap-server", f.e.Bootstrap}, args...)...)
		t.Logf("=== %v exit %d\n--stdout--\n%s--stderr--\n%s", args, code, out, stderr)
	}
	run("--list")
	run("--list", "--state")
	run("--describe", "--group", f.group)
	run("--describe", "--group", f.group, "--offsets", "--verbose")
	run("--describe", "--group", f.group, "--members")
	run("--describe", "--group", f.group, "--members", "--verbose")
	run("--describe", "--group", f.group, "--state")
	run("--describe", "--group", f.group, "--state", "--verbose")
	run("--reset-offsets", "--group", f.group, "--all-input-topics", "--to-earliest", "--execute")
	run("--delete", "--group", f.group)
	run("--describe", "--group", "nosuch")
	f.stop(t)
	run("--describe", "--group", f.group)
	run("--describe", "--group", f.group, "--state")
	run("--reset-offsets", "--group", f.group, "--input-topic", f.input, "--to-earliest", "--execute")
	run("--delete-offsets", "--group", f.group, "--input-topic", f.input)
	run("--delete", "--group", f.group)
	run("--delete", "--group", "nosuch")
}
