package output

import (
	"fmt"
	"io"
	"strings"
)

// KindVersion is the kind of `kcg version -o json|yaml`.
const KindVersion = "Version"

// unknownBuild is what the build information holds for a value neither
// the linker nor the toolchain recorded (app.Unknown).
const unknownBuild = "unknown"

// VersionInfo is the document of `kcg version -o json|yaml`: which kcg
// this is and how it was built.
type VersionInfo struct {
	APIVersion string `json:"apiVersion" yaml:"apiVersion"`
	Kind       string `json:"kind" yaml:"kind"`
	// Version is the release version, the module version of `go install`,
	// or "dev".
	Version string `json:"version" yaml:"version"`
	// Commit and Date are the source commit and its time (a release: the
	// build time), "unknown" when not recorded.
	Commit string `json:"commit" yaml:"commit"`
	Date   string `json:"date" yaml:"date"`
	// GoVersion is the toolchain that built kcg (runtime.Version()).
	GoVersion string `json:"goVersion" yaml:"goVersion"`
	// Platform is GOOS/GOARCH.
	Platform string `json:"platform" yaml:"platform"`
}

// NewVersionInfo returns the version document.
func NewVersionInfo(version, commit, date, goVersion, platform string) VersionInfo {
	return VersionInfo{APIVersion: APIVersion, Kind: KindVersion, Version: version, Commit: commit, Date: date, GoVersion: goVersion, Platform: platform}
}

// Line is the one line of `kcg version`, `kcg --version` and `kcg -v`:
// "kcg VERSION (commit C, built D)", with each part in parentheses only
// when it is known, and no parentheses when neither is.
func (v VersionInfo) Line() string {
	var build []string
	if known(v.Commit) {
		build = append(build, "commit "+v.Commit)
	}
	if known(v.Date) {
		build = append(build, "built "+v.Date)
	}
	line := "kcg " + v.Version
	if len(build) > 0 {
		line += " (" + strings.Join(build, ", ") + ")"
	}
	return line
}

func known(s string) bool { return s != "" && s != unknownBuild }

// WriteTable writes Line.
func (v VersionInfo) WriteTable(w io.Writer) error {
	_, err := fmt.Fprintln(w, v.Line())
	return err
}
