package app

import "runtime/debug"

// Build information, set at link time by the release build (goreleaser.yaml:
// -X github.com/kcg-dev/kcg/internal/app.BuildVersion=… and likewise Commit
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
