package app

import "runtime/debug"

// Build information, set by main from its ldflags (goreleaser).
var (
	BuildVersion = ""
	BuildCommit  = ""
	BuildDate    = ""
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
