package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// buildInfo is what the Go toolchain recorded in the binary: the module
// version (a tag for `go install module@version`, a pseudo-version or
// "(devel)" for a build from a clone), the commit and its time, whether
// the tree had uncommitted changes, and the Go version.
type buildInfo struct {
	version   string
	commit    string
	time      string
	modified  bool
	goVersion string
}

// readBuildInfo reads what read (debug.ReadBuildInfo) returns.
func readBuildInfo(read func() (*debug.BuildInfo, bool)) buildInfo {
	var b buildInfo
	if read == nil {
		return b
	}
	bi, ok := read()
	if !ok || bi == nil {
		return b
	}
	b.version, b.goVersion = bi.Main.Version, bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.commit = s.Value
		case "vcs.time":
			b.time = s.Value
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	return b
}

// versionOf is the version memscope calls itself: the one the build was
// given (-ldflags "-X main.version=…"), else the module version from the
// build info, else "devel".
func versionOf(given string, b buildInfo) string {
	switch {
	case given != "":
		return given
	case b.version != "" && b.version != "(devel)":
		return b.version
	}
	return "devel"
}

// printVersion prints --version: the version, then the commit, its date
// and whether the tree was modified, and the Go version, when the build
// recorded them.
func printVersion(w io.Writer, version string, b buildInfo) {
	fmt.Fprintf(w, "memscope %s\n", version)
	if b.commit != "" {
		var notes []string
		if b.time != "" {
			notes = append(notes, "committed "+b.time)
		}
		if b.modified {
			notes = append(notes, "with uncommitted changes")
		}
		line := "commit " + b.commit
		if len(notes) > 0 {
			line += " (" + strings.Join(notes, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	}
	if b.goVersion != "" {
		fmt.Fprintf(w, "built with %s\n", b.goVersion)
	}
}
