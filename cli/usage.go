package cli

import (
	"flag"
	"strconv"
	"strings"
)

// coreCommands are the commands memscope help lists first: what a
// newcomer runs (the rest are listed after them, under "more").
var coreCommands = []string{"stat", "lint", "prune", "prompt", "replay", "search", "secrets"}

// withFlags is usage with every flag of fs it does not name appended as
// [--name VALUE], so a usage line lists every flag --help lists.
func withFlags(usage string, fs *flag.FlagSet) string {
	fs.VisitAll(func(f *flag.Flag) {
		if namesFlag(usage, f.Name) {
			return
		}
		s := "--" + f.Name
		if name, _ := flagPlaceholder(f); name != "" {
			s += " " + name
		}
		usage += " [" + s + "]"
	})
	return usage
}

// namesFlag reports whether usage names --name (followed by a space, a
// bracket, a bar, an equals sign or the end).
func namesFlag(usage, name string) bool {
	for rest := usage; ; {
		i := strings.Index(rest, "--"+name)
		if i < 0 {
			return false
		}
		rest = rest[i+2+len(name):]
		if rest == "" || strings.ContainsAny(rest[:1], " ]|=") {
			return true
		}
	}
}

// helpWidth is the width memscope help wraps to: $COLUMNS when it says
// (a shell exports it for an interactive terminal), else 80; never under
// 40.
func helpWidth(e *env) int {
	if n, err := strconv.Atoi(e.getenv("COLUMNS")); err == nil && n > 0 {
		return max(n, 40)
	}
	return 80
}

// wrapIndented wraps s to width, the first line indented by indent and
// the others by indent+more.
func wrapIndented(s string, width int, indent, more string) []string {
	lines := wrapWords(s, max(width-len(indent)-len(more), 20))
	for i := range lines {
		if i > 0 {
			lines[i] = more + lines[i]
		}
		lines[i] = indent + lines[i]
	}
	return lines
}
