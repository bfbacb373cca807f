package app

import "runtime/debug"

// Build information, set at link time by the release build (goreleaser.yaml:
// -X github.com/kcg-dev/kcg/app.BuildVersion=… and likewise Commit
// and Date). "" means unknown.
var (
	BuildVersion = ""
	// Commit is the full commit hash the release was built from.
	Commit = ""
	// Date is when the release was built (RFC 3339, UTC).
	Date = ""
)

// Version is kcg's version: the release version set at link time, else the
// module version from the build info (go install), else "dev".
func Version() string {
	if BuildVersion != "" {
		return BuildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// CreatedBy is what kcg records as the author of plans and commits.
func CreatedBy() string { return "kcg " + Version() }

// Unknown is what BuildCommit and BuildDate return when neither the
// linker nor the toolchain recorded a value (go test, go build
// -buildvcs=false, a build outside a git checkout).
const Unknown = "unknown"

// BuildCommit is the source commit for kcg version: Commit when set at
// link time, else the vcs.revision the Go toolchain stamped (go build in a
// git checkout), else Unknown.
func BuildCommit() string { return linkedOr(Commit, "vcs.revision") }

// BuildDate is when the commit was made, RFC 3339: Date when set at link
// time (goreleaser's build date), else the toolchain's vcs.time, else
// Unknown.
func BuildDate() string { return linkedOr(Date, "vcs.time") }

func linkedOr(linked, setting string) string {
	if linked != "" {
		return linked
	}
	bi, _ := debug.ReadBuildInfo()
	return buildSetting(bi, setting)
}

// buildSetting is the value of key in bi's settings, Unknown when bi is
// nil or has none.
func buildSetting(bi *debug.BuildInfo, key string) string {
	if bi != nil {
		for _, s := range bi.Settings {
			if s.Key == key && s.Value != "" {
				return s.Value
			}
		}
	}
	return Unknown
}
