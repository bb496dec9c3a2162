package gate

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memscope/memscope/model"
)

// Matcher is the tools the installed gate is called for.
const Matcher = "Write|Edit|MultiEdit"

// HookTimeout is the client's timeout for the installed gate, seconds.
const HookTimeout = 10

// Hook is one hook memscope puts in a settings file.
type Hook struct {
	// Name is what the hook is for ("gate", "vault"); several hooks can
	// share a name.
	Name string `json:"name"`
	// Event is the client's hook event; Matcher its matcher ("" none).
	Event   string `json:"event"`
	Matcher string `json:"matcher,omitempty"`
	// Sub is the memscope subcommand the hook runs; no other program has
	// it, so a hook running it is memscope's whatever the binary is called.
	Sub string `json:"sub"`
	// Timeout is the client's timeout for it, seconds.
	Timeout int `json:"timeout"`
}

// VaultHookTimeout is the client's timeout for the vault's hooks, seconds
// (the sync bounds itself at 20 s and never fails the client).
const VaultHookTimeout = 30

// Hooks is every hook memscope installs: the memory-write gate, and the
// vault's sync of the session that ends or is about to be compacted.
var Hooks = []Hook{
	{Name: "gate", Event: "PreToolUse", Matcher: Matcher, Sub: "hook pre-tool-use", Timeout: HookTimeout},
	{Name: "vault", Event: "SessionEnd", Sub: "vault sync --hook", Timeout: VaultHookTimeout},
	{Name: "vault", Event: "PreCompact", Sub: "vault sync --hook", Timeout: VaultHookTimeout},
}

// HookNames is the names in Hooks, in order, once each.
func HookNames() []string {
	var names []string
	for _, h := range Hooks {
		if !slices.Contains(names, h.Name) {
			names = append(names, h.Name)
		}
	}
	return names
}

// Command is the settings command that runs h with the memscope at bin
// (or the hook binary at bin: it runs Hooks' command lines alike).
func (h Hook) Command(bin string) string { return shellQuote(bin) + " " + h.Sub }

// HookBinaryName is the hook binary (cmd/memscope-hook): it runs Hooks'
// command lines as memscope does, without the terminal app, so the client
// pays less to start it on every tool call.
const HookBinaryName = "memscope-hook"

// PathCommand is the command that runs h with what PATH has, as the
// plugin's hooks file does: the hook binary when PATH has it, else
// memscope. The client runs a hook's command in a shell; `exec` keeps
// that shell from waiting beside the hook.
func (h Hook) PathCommand() string {
	return "command -v " + HookBinaryName + " >/dev/null 2>&1 && exec " + HookBinaryName + " " + h.Sub + " || exec memscope " + h.Sub
}

// HookCommand is the settings command that runs the gate with the
// memscope at bin.
func HookCommand(bin string) string { return Hooks[0].Command(bin) }

// StatuslineCommand is the status line command of the memscope at bin.
func StatuslineCommand(bin string) string { return shellQuote(bin) + " statusline" }

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ownCommand reports whether a settings command is memscope's (sub:
// "hook pre-tool-use" or "statusline"), and the binary it names.
func ownCommand(cmd, sub string) (string, bool) {
	return ownCommandOf(cmd, sub, "")
}

// ownCommandOf is ownCommand that also knows the memscope at self
// (whatever its name) as memscope.
func ownCommandOf(cmd, sub, self string) (string, bool) {
	cmd = strings.TrimSpace(cmd)
	if !strings.HasSuffix(cmd, " "+sub) {
		return "", false
	}
	bin := strings.TrimSpace(strings.TrimSuffix(cmd, " "+sub))
	if len(bin) >= 2 && bin[0] == '\'' && bin[len(bin)-1] == '\'' {
		bin = strings.ReplaceAll(bin[1:len(bin)-1], `'\''`, "'")
	}
	if isHookSub(sub) {
		// No other program has a hook's subcommand: whatever the binary
		// is called (a renamed or test build), it is memscope's.
		return bin, bin != ""
	}
	return bin, strings.Contains(filepath.Base(bin), "memscope") || self != "" && bin == self
}

// isHookSub reports whether sub is one of Hooks' subcommands.
func isHookSub(sub string) bool {
	return slices.ContainsFunc(Hooks, func(h Hook) bool { return h.Sub == sub })
}

// InstalledHook is one of Hooks found in a settings file.
type InstalledHook struct {
	Hook
	// Binary is the memscope it runs; Found the matcher it has.
	Binary string `json:"binary"`
	Found  string `json:"foundMatcher,omitempty"`
	// HookBinary says Binary is the hook binary (HookBinaryName).
	HookBinary bool `json:"hookBinary"`
}

// IsHookBinary reports whether bin is the hook binary (by its name).
func IsHookBinary(bin string) bool { return filepath.Base(bin) == HookBinaryName }

// Installed is memscope's part of a settings file.
type Installed struct {
	// Gate is set when a PreToolUse hook runs memscope's gate; Binary is
	// the memscope it runs and Matcher its matcher.
	Gate    bool   `json:"gate"`
	Binary  string `json:"binary,omitempty"`
	Matcher string `json:"matcher,omitempty"`
	// Vault is set when every vault hook (SessionEnd, PreCompact) is there.
	Vault bool `json:"vault"`
	// Hooks is each of memscope's hooks found, in Hooks' order.
	Hooks []InstalledHook `json:"hooks,omitempty"`
	// Statusline is set when the status line is memscope's; StatuslineBinary
	// the memscope it runs.
	Statusline       bool   `json:"statusline"`
	StatuslineBinary string `json:"statuslineBinary,omitempty"`
	// OtherStatusline is set when the status line is someone else's.
	OtherStatusline bool `json:"otherStatusline,omitempty"`
}

// readSettings parses a settings file's text ("" or missing: an empty
// object).
func readSettings(path string, data []byte) (*node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &node{kind: kindObj}, nil
	}
	n, err := parseTree(data)
	if err != nil {
		return nil, &SettingsError{Path: path, Line: syntaxLine(data, err, model.LineAt), Reason: "not valid JSON: " + err.Error()}
	}
	if n.kind != kindObj {
		return nil, &SettingsError{Path: path, Line: 1, Reason: "not a JSON object"}
	}
	return n, nil
}

// Status says what of memscope a settings file holds.
func Status(path string, data []byte, self string) (Installed, error) {
	root, err := readSettings(path, data)
	if err != nil {
		return Installed{}, err
	}
	var in Installed
	in.Vault = true
	for _, hk := range Hooks {
		var found *InstalledHook
		walkOwnHooks(root, hk, func(g, h *node) bool {
			if found == nil {
				bin, _ := ownCommand(h.get("command").str(), hk.Sub)
				found = &InstalledHook{Hook: hk, Binary: bin, Found: g.get("matcher").str(), HookBinary: IsHookBinary(bin)}
			}
			return false
		})
		switch {
		case found != nil:
			in.Hooks = append(in.Hooks, *found)
			if hk.Name == "gate" {
				in.Gate, in.Binary, in.Matcher = true, found.Binary, found.Found
			}
		case hk.Name == "vault":
			in.Vault = false
		}
	}
	if sl := root.get("statusLine"); sl != nil {
		if bin, ok := ownCommandOf(sl.get("command").str(), "statusline", self); ok {
			in.Statusline, in.StatuslineBinary = true, bin
		} else {
			in.OtherStatusline = true
		}
	}
	return in, nil
}

// walkOwnHooks calls f with each of hk's event's matcher groups and hooks
// that run hk's subcommand; f returns whether to remove the hook. A group
// left empty by a removal goes with it. It reports whether anything went.
func walkOwnHooks(root *node, hk Hook, f func(group, hook *node) bool) (removed bool) {
	ev := root.get("hooks").get(hk.Event)
	if ev == nil || ev.kind != kindArr {
		return false
	}
	var groups []*node
	for _, g := range ev.vals {
		hs := g.get("hooks")
		if hs == nil || hs.kind != kindArr {
			groups = append(groups, g)
			continue
		}
		var keep []*node
		for _, h := range hs.vals {
			if _, own := ownCommand(h.get("command").str(), hk.Sub); own && f(g, h) {
				removed = true
				continue
			}
			keep = append(keep, h)
		}
		if len(keep) == 0 && len(hs.vals) > 0 {
			// A group that held only memscope's hook goes with it.
			continue
		}
		hs.vals = keep
		groups = append(groups, g)
	}
	ev.vals = groups
	return removed
}

// InstallOptions say what Install adds.
type InstallOptions struct {
	// Binary is the memscope the settings will run (absolute).
	Binary string
	// HookBinary, when set, is the hook binary (HookBinaryName, beside
	// Binary) that runs the hooks instead; the status line stays Binary's.
	HookBinary string
	// OnPath runs what PATH has instead of Binary: the hooks' PathCommand
	// and `memscope statusline` (the plugin's files).
	OnPath bool
	// Only names the hooks to add (Hook.Name); empty: all of Hooks.
	Only []string
	// Statusline adds memscope's status line too (never over another).
	Statusline bool
}

// Install adds memscope's hooks (and status line) to a settings file's
// text, keeping every other key and hook; an entry already there is
// updated in place, never added twice. changed is false when the file
// already says exactly this. skipped says what was left alone.
func Install(path string, data []byte, o InstallOptions) (out []byte, changed bool, skipped string, err error) {
	root, err := readSettings(path, data)
	if err != nil {
		return nil, false, "", err
	}
	for _, hk := range Hooks {
		if len(o.Only) > 0 && !slices.Contains(o.Only, hk.Name) {
			continue
		}
		if err := installHook(path, root, hk, o.hookCommand(hk)); err != nil {
			return nil, false, "", err
		}
	}
	if o.Statusline {
		sl := root.get("statusLine")
		bin := o.Binary
		if o.OnPath {
			bin = "memscope"
		}
		if _, own := ownCommandOf(sl.get("command").str(), "statusline", bin); sl == nil || own {
			n := &node{kind: kindObj}
			n.set("type", leaf("command"))
			n.set("command", leaf(StatuslineCommand(bin)))
			root.set("statusLine", n)
		} else {
			skipped = "the status line is another command's (" + sl.get("command").str() + "): left as it is"
		}
	}
	out = root.bytes(len(data) == 0 || bytes.HasSuffix(data, []byte("\n")))
	return out, !bytes.Equal(out, data), skipped, nil
}

// hookCommand is the command that runs hk.
func (o InstallOptions) hookCommand(hk Hook) string {
	switch {
	case o.OnPath:
		return hk.PathCommand()
	case o.HookBinary != "":
		return hk.Command(o.HookBinary)
	}
	return hk.Command(o.Binary)
}

// installHook puts hk running cmd under its event: the first entry
// already there is updated in place, any other copy goes.
func installHook(path string, root *node, hk Hook, cmd string) error {
	found := false
	walkOwnHooks(root, hk, func(g, h *node) bool {
		if found {
			return true // a second copy goes
		}
		if hk.Matcher != "" && g.get("matcher").str() != hk.Matcher {
			if len(g.get("hooks").vals) > 1 {
				// The group holds the user's hooks too: their matcher
				// stays theirs, and memscope's hook moves to a group of
				// its own (added below).
				return true
			}
			g.set("matcher", leaf(hk.Matcher))
		}
		found = true
		h.set("command", leaf(cmd))
		return false
	})
	if found {
		return nil
	}
	hooks := root.get("hooks")
	if hooks == nil || hooks.kind != kindObj {
		if hooks != nil {
			return &SettingsError{Path: path, Reason: `"hooks" is not an object`}
		}
		hooks = &node{kind: kindObj}
		root.set("hooks", hooks)
	}
	ev := hooks.get(hk.Event)
	if ev == nil {
		ev = &node{kind: kindArr}
		hooks.set(hk.Event, ev)
	}
	if ev.kind != kindArr {
		return &SettingsError{Path: path, Reason: `"hooks.` + hk.Event + `" is not a list`}
	}
	h := &node{kind: kindObj}
	h.set("type", leaf("command"))
	h.set("command", leaf(cmd))
	h.set("timeout", leaf(hk.Timeout))
	g := &node{kind: kindObj}
	if hk.Matcher != "" {
		g.set("matcher", leaf(hk.Matcher))
	}
	g.set("hooks", &node{kind: kindArr, vals: []*node{h}})
	ev.vals = append(ev.vals, g)
	return nil
}

// Uninstall removes every one of memscope's hooks and its status line
// from a settings file's text, and the hooks keys that held only them;
// self is the memscope running (its status line is memscope's whatever
// its name).
func Uninstall(path string, data []byte, self string) (out []byte, changed bool, err error) {
	root, err := readSettings(path, data)
	if err != nil {
		return nil, false, err
	}
	removed := false
	hooks := root.get("hooks")
	for _, hk := range Hooks {
		if !walkOwnHooks(root, hk, func(_, _ *node) bool { return true }) {
			continue
		}
		removed = true
		if ev := hooks.get(hk.Event); ev != nil && len(ev.vals) == 0 {
			hooks.del(hk.Event)
		}
	}
	if removed && hooks.kind == kindObj && len(hooks.keys) == 0 {
		root.del("hooks")
	}
	if sl := root.get("statusLine"); sl != nil {
		if _, own := ownCommandOf(sl.get("command").str(), "statusline", self); own {
			root.del("statusLine")
			removed = true
		}
	}
	if !removed {
		return data, false, nil
	}
	out = root.bytes(len(data) == 0 || bytes.HasSuffix(data, []byte("\n")))
	return out, !bytes.Equal(out, data), nil
}
