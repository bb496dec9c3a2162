package cli

import (
	"flag"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// memscope help groups the commands (core first), wraps to the terminal's
// width, and each command's usage names every flag its --help lists.
func TestHelpGroupsWrapsAndNamesEveryFlag(t *testing.T) {
	e, out, _ := testEnv(t)
	e.getenv = func(k string) string {
		if k == "COLUMNS" {
			return "70"
		}
		return ""
	}
	if code := run(e, []string{"help"}); code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	text := out.String()
	for i, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > 70 && !strings.Contains(l, "  --") {
			t.Errorf("line %d is %d wide at 70 columns: %q", i+1, n, l)
		}
	}
	core, more := strings.Index(text, "\ncore commands:\n"), strings.Index(text, "\nmore commands:\n")
	if core < 0 || more < core {
		t.Fatalf("no core and more groups, in that order:\n%s", text)
	}
	// usages: each command's usage as printed, its wrapped lines joined.
	usages := map[string]string{}
	lines := strings.Split(text[core:], "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "  memscope ") {
			continue
		}
		u := strings.TrimSpace(l)
		for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "    ") && !strings.HasPrefix(lines[i+1], "      ") {
			i++
			u += " " + strings.TrimSpace(lines[i])
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(u, "memscope "), " ")
		usages[name] = u
		group := "more"
		if strings.Index(text, l) < more {
			group = "core"
		}
		if want := map[bool]string{true: "core", false: "more"}[slices.Contains(coreCommands, name)]; group != want && name != "help" {
			t.Errorf("%s is listed under %s, want %s", name, group, want)
		}
	}
	for _, c := range commands {
		u, ok := usages[c.name]
		if !ok {
			t.Errorf("help does not list %s", c.name)
			continue
		}
		commandFlags(e, c).VisitAll(func(f *flag.Flag) {
			if !namesFlag(u, f.Name) {
				t.Errorf("%s: the usage help prints, %q, does not name --%s", c.name, u, f.Name)
			}
		})
	}
}
