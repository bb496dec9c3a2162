package config

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/config/theme"
	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
)

// DefaultYAML is the commented default file (memscope config init):
// every setting with its default value, built from the same defaults the
// code uses, so it cannot drift from them.
func DefaultYAML() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# memscope settings (memscope config init wrote this file; memscope config show\n")
	w("# prints what is in effect and where each value comes from).\n")
	w("# Every setting is optional: delete a line to keep memscope's default.\n\n")
	w("# The Claude home when neither --home nor $CLAUDE_CONFIG_DIR says (\"\" is ~/.claude).\n")
	w("home: \"\"\n\n")
	w("# Where the panes' exports (x, X) are written (\"\" is the current folder).\n")
	w("export_dir: \"\"\n\n")
	w("# Mouse reporting in the terminal app (wheel scrolling, clicks).\n")
	w("mouse: true\n\n")
	w("# Key bindings by action, one key or a list (bubbletea's names: x, D, ctrl+x,\n")
	w("# shift+tab, enter, esc, space, up, pgdown). Two actions may share a key only\n")
	w("# where the defaults already let them (they are never active together).\n")
	w("keys:\n")
	km := keymap.Default()
	for _, name := range keymap.Names() {
		bd, _ := km.Binding(name)
		var ks []string
		for _, k := range bd.Keys() {
			ks = append(ks, yamlString(k))
		}
		w("  %s: [%s]%s# %s\n", name, strings.Join(ks, ", "), pad(len(name)+len(strings.Join(ks, ", ")), 34), bd.Help().Desc)
	}
	w("\n# Colours by role, for light and dark terminals: #RRGGBB, #RGB or an ANSI\n")
	w("# number 0-255. NO_COLOR in the environment still turns colour off.\n")
	w("theme:\n")
	roles, names := theme.Roles(), theme.RoleNames()
	for i, variant := range []string{"light", "dark"} {
		w("  %s:\n", variant)
		for _, r := range names {
			w("    %s: %q\n", r, roles[r][i])
		}
	}
	w("\n# When a memory turns aging and stale, in days since it was last written, by type.\n")
	w("staleness:\n")
	th := memindex.DefaultStaleness()
	for _, t := range StalenessTypes {
		l := th[model.MemoryType(t)]
		w("  %s: {aging_days: %d, stale_days: %d}\n", t, l.AgingDays, l.StaleDays)
	}
	w("\n# The Live pane colours a session's context fill from these percentages of its\n")
	w("# window; 0 keeps the client's own levels (warning, then autocompact).\n")
	w("live:\n  warn_percent: 0\n  alert_percent: 0\n")
	w("\n# The memory-write gate (memscope hook pre-tool-use, installed by memscope hooks\n")
	w("# install): what it answers when a rule fires on a Write/Edit of memory, CLAUDE.md\n")
	w("# or a rule file. deny: the model reads the reason and the file is not written;\n")
	w("# ask: you decide in the client's permission prompt; allow: recorded only.\n")
	w("gate:\n")
	gp := gate.DefaultPolicy()
	for _, r := range gate.Rules() {
		w("  %s: %s%s# %s\n", r, gp[r], pad(len(r)+len(gp[r]), 28), gate.RuleHelp(r))
	}
	return b.String()
}

// yamlString quotes a key when YAML would read it as something else.
func yamlString(k string) string {
	if strings.ContainsAny(k, "[]{},:#&*!|>'\"%@`?") || k == "" || strings.TrimSpace(k) != k {
		return fmt.Sprintf("%q", k)
	}
	switch strings.ToLower(k) {
	case "y", "n", "yes", "no", "true", "false", "on", "off", "null", "~":
		return fmt.Sprintf("%q", k)
	}
	if len(k) > 0 && k[0] >= '0' && k[0] <= '9' {
		return fmt.Sprintf("%q", k)
	}
	return k
}

func pad(n, to int) string {
	if n >= to {
		return "  "
	}
	return strings.Repeat(" ", to-n)
}
