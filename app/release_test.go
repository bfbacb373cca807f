package app_test

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/app"
	"gopkg.in/yaml.v3"
)

// The release build (goreleaser.yaml) links the version, commit and date
// into this package's variables by their import path: a renamed variable
// or package would make every release print "dev" and no commit, with no
// build error. .ci/release-check runs the real build; this is the quick
// check go test ./... makes.
func TestReleaseLdflagsNameTheseVariables(t *testing.T) {
	b, err := os.ReadFile("../goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			ID      string   `yaml:"id"`
			Env     []string `yaml:"env"`
			Flags   []string `yaml:"flags"`
			Ldflags []string `yaml:"ldflags"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf("goreleaser.yaml: %d builds, want the one kcg build", len(cfg.Builds))
	}
	build := cfg.Builds[0]
	pkg := reflect.TypeOf(app.IO{}).PkgPath()
	ldflags := strings.Join(build.Ldflags, " ")
	// Referenced here so that renaming one fails to compile this test.
	_, _, _ = app.BuildVersion, app.Commit, app.Date
	for _, v := range []string{"BuildVersion={{.Version}}", "Commit={{.Commit}}", "Date={{.Date}}"} {
		if !strings.Contains(ldflags, "-X "+pkg+"."+v) {
			t.Errorf("goreleaser.yaml ldflags lack -X %s.%s: %q", pkg, v, ldflags)
		}
	}
	if !slices.Contains(build.Env, "CGO_ENABLED=0") || !slices.Contains(build.Flags, "-trimpath") {
		t.Errorf("goreleaser.yaml: the build is not static and trimmed: env %q, flags %q", build.Env, build.Flags)
	}
	slices.Sort(build.Goos)
	slices.Sort(build.Goarch)
	if !slices.Equal(build.Goos, []string{"darwin", "linux", "windows"}) || !slices.Equal(build.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("goreleaser.yaml builds %q × %q, want darwin, linux, windows × amd64, arm64", build.Goos, build.Goarch)
	}
}
