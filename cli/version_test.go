package cli

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

// --version tells a `go install module@tag` build, a clone build (the
// pseudo-version, commit, its date, uncommitted changes) and a build
// with no information apart, and -ldflags' version wins.
func TestVersionFromBuildInfo(t *testing.T) {
	clone := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/memscope/memscope", Version: "v0.0.0-20261124145804-33b6178ad7ca"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "33b6178ad7cadc6f91a0c40243764386f6c17ba7"},
			{Key: "vcs.time", Value: "2026-11-24T14:58:04Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	tagged := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.4.0"}}
	devel := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}
	cases := []struct {
		name  string
		given string
		bi    *debug.BuildInfo
		want  []string
		not   []string
	}{
		{"clone", "", clone, []string{
			"memscope v0.0.0-20261124145804-33b6178ad7ca\n",
			"commit 33b6178ad7cadc6f91a0c40243764386f6c17ba7 (committed 2026-11-24T14:58:04Z, with uncommitted changes)\n",
			"built with go1.26.8\n",
		}, nil},
		{"go install @tag", "", tagged, []string{"memscope v0.4.0\n", "built with go1.26.8\n"}, []string{"commit"}},
		{"no vcs", "", devel, []string{"memscope devel\n"}, []string{"commit", "(devel)"}},
		{"ldflags", "1.2.3", clone, []string{"memscope 1.2.3\n", "commit 33b6178"}, nil},
		{"no build info", "", nil, []string{"memscope devel\n"}, []string{"built with"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := readBuildInfo(func() (*debug.BuildInfo, bool) { return c.bi, c.bi != nil })
			var out bytes.Buffer
			printVersion(&out, versionOf(c.given, b), b)
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("--version lacks %q:\n%s", w, out.String())
				}
			}
			for _, n := range c.not {
				if strings.Contains(out.String(), n) {
					t.Errorf("--version has %q:\n%s", n, out.String())
				}
			}
		})
	}
}
