package gate

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/model"
)

// Matcher is the tools the installed hook is called for.
const Matcher = "Write|Edit|MultiEdit"

// HookTimeout is the client's timeout for the installed hook, seconds.
const HookTimeout = 10

// HookCommand is the settings command that runs the gate with the
// memscope at bin.
func HookCommand(bin string) string { return shellQuote(bin) + " hook pre-tool-use" }

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
	if sub == "hook pre-tool-use" {
		// No other program has this subcommand: whatever the binary is
		// called (a renamed or test build), it is memscope's gate.
		return bin, bin != ""
	}
	return bin, strings.Contains(filepath.Base(bin), "memscope") || self != "" && bin == self
}

// Installed is memscope's part of a settings file.
type Installed struct {
	// Gate is set when a PreToolUse hook runs memscope's gate; Binary is
	// the memscope it runs and Matcher its matcher.
	Gate    bool   `json:"gate"`
	Binary  string `json:"binary,omitempty"`
	Matcher string `json:"matcher,omitempty"`
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
	walkOwnHooks(root, func(m *node, h *node) bool {
		in.Gate, in.Matcher = true, m.get("matcher").str()
		in.Binary, _ = ownCommand(h.get("command").str(), "hook pre-tool-use")
		return false
	})
	if sl := root.get("statusLine"); sl != nil {
		if bin, ok := ownCommandOf(sl.get("command").str(), "statusline", self); ok {
			in.Statusline, in.StatuslineBinary = true, bin
		} else {
			in.OtherStatusline = true
		}
	}
	return in, nil
}

// walkOwnHooks calls f with each PreToolUse matcher group and hook that
// runs memscope's gate; f returns whether to remove the hook.
func walkOwnHooks(root *node, f func(group, hook *node) bool) {
	pre := root.get("hooks").get("PreToolUse")
	if pre == nil || pre.kind != kindArr {
		return
	}
	var groups []*node
	for _, g := range pre.vals {
		hs := g.get("hooks")
		if hs == nil || hs.kind != kindArr {
			groups = append(groups, g)
			continue
		}
		var keep []*node
		for _, h := range hs.vals {
			if _, own := ownCommand(h.get("command").str(), "hook pre-tool-use"); own && f(g, h) {
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
	pre.vals = groups
}

// InstallOptions say what Install adds.
type InstallOptions struct {
	// Binary is the memscope the settings will run (absolute).
	Binary string
	// Statusline adds memscope's status line too (never over another).
	Statusline bool
}

// Install adds memscope's gate (and status line) to a settings file's
// text, keeping every other key and hook; an entry already there is
// updated in place, never added twice. changed is false when the file
// already says exactly this. skipped says what was left alone.
func Install(path string, data []byte, o InstallOptions) (out []byte, changed bool, skipped string, err error) {
	root, err := readSettings(path, data)
	if err != nil {
		return nil, false, "", err
	}
	cmd := HookCommand(o.Binary)
	found := false
	walkOwnHooks(root, func(g, h *node) bool {
		if found {
			return true // a second copy goes
		}
		found = true
		h.set("command", leaf(cmd))
		if g.get("matcher").str() != Matcher {
			g.set("matcher", leaf(Matcher))
		}
		return false
	})
	if !found {
		hooks := root.get("hooks")
		if hooks == nil || hooks.kind != kindObj {
			if hooks != nil {
				return nil, false, "", &SettingsError{Path: path, Reason: `"hooks" is not an object`}
			}
			hooks = &node{kind: kindObj}
			root.set("hooks", hooks)
		}
		pre := hooks.get("PreToolUse")
		if pre == nil {
			pre = &node{kind: kindArr}
			hooks.set("PreToolUse", pre)
		}
		if pre.kind != kindArr {
			return nil, false, "", &SettingsError{Path: path, Reason: `"hooks.PreToolUse" is not a list`}
		}
		h := &node{kind: kindObj}
		h.set("type", leaf("command"))
		h.set("command", leaf(cmd))
		h.set("timeout", leaf(HookTimeout))
		g := &node{kind: kindObj}
		g.set("matcher", leaf(Matcher))
		g.set("hooks", &node{kind: kindArr, vals: []*node{h}})
		pre.vals = append(pre.vals, g)
	}
	if o.Statusline {
		sl := root.get("statusLine")
		if _, own := ownCommandOf(sl.get("command").str(), "statusline", o.Binary); sl == nil || own {
			n := &node{kind: kindObj}
			n.set("type", leaf("command"))
			n.set("command", leaf(StatuslineCommand(o.Binary)))
			root.set("statusLine", n)
		} else {
			skipped = "the status line is another command's (" + sl.get("command").str() + "): left as it is"
		}
	}
	out = root.bytes(len(data) == 0 || bytes.HasSuffix(data, []byte("\n")))
	return out, !bytes.Equal(out, data), skipped, nil
}

// Uninstall removes memscope's gate and status line from a settings
// file's text, and the hooks keys that held only them; self is the
// memscope running (its status line is memscope's whatever its name).
func Uninstall(path string, data []byte, self string) (out []byte, changed bool, err error) {
	root, err := readSettings(path, data)
	if err != nil {
		return nil, false, err
	}
	removed := false
	walkOwnHooks(root, func(_, _ *node) bool { removed = true; return true })
	if hooks := root.get("hooks"); hooks != nil && removed {
		if pre := hooks.get("PreToolUse"); pre != nil && len(pre.vals) == 0 {
			hooks.del("PreToolUse")
		}
		if hooks.kind == kindObj && len(hooks.keys) == 0 {
			root.del("hooks")
		}
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
