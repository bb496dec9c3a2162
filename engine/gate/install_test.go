package gate_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/gate"
)

// settingsWithHooks is a settings file as the client writes it, with
// hooks of its own.
const settingsWithHooks = `{
  "model": "opus",
  "permissions": {
    "allow": [
      "Bash(go test:*)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/check-bash",
            "timeout": 5
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send done \"\u00e9t\u00e9\""
          }
        ]
      }
    ]
  },
  "env": {
    "A": "1.50"
  }
}
`

func TestInstallRoundTrip(t *testing.T) {
	o := gate.InstallOptions{Binary: "/usr/local/bin/memscope", Statusline: true}
	in, changed, skipped, err := gate.Install("s.json", []byte(settingsWithHooks), o)
	if err != nil || !changed || skipped != "" {
		t.Fatalf("install: %v %v %q", err, changed, skipped)
	}
	for _, want := range []string{`"command": "/usr/local/bin/memscope hook pre-tool-use"`, `"matcher": "Write|Edit|MultiEdit"`, `"~/bin/check-bash"`, `"command": "/usr/local/bin/memscope statusline"`, `"A": "1.50"`} {
		if !strings.Contains(string(in), want) {
			t.Errorf("installed file lacks %s:\n%s", want, in)
		}
	}
	again, changed, _, err := gate.Install("s.json", in, o)
	if err != nil || changed || string(again) != string(in) {
		t.Errorf("a second install changed the file (%v):\n%s", err, again)
	}
	if n := strings.Count(string(again), "hook pre-tool-use"); n != 1 {
		t.Errorf("%d gate entries after two installs", n)
	}
	st, err := gate.Status("s.json", in, "")
	if err != nil || !st.Gate || st.Binary != "/usr/local/bin/memscope" || !st.Statusline {
		t.Errorf("status %+v %v", st, err)
	}
	out, changed, err := gate.Uninstall("s.json", in, "")
	if err != nil || !changed {
		t.Fatalf("uninstall: %v %v", err, changed)
	}
	if string(out) != settingsWithHooks {
		t.Errorf("uninstall is not byte-identical to the file before install:\n%s", out)
	}
}

// Another command's status line is left alone; a moved memscope is
// updated in place, not added twice.
func TestInstallKeepsOthers(t *testing.T) {
	src := "{\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"ccline\"\n  }\n}\n"
	out, _, skipped, err := gate.Install("s.json", []byte(src), gate.InstallOptions{Binary: "/a/memscope", Statusline: true})
	if err != nil || !strings.Contains(skipped, "ccline") || !strings.Contains(string(out), `"command": "ccline"`) {
		t.Errorf("other status line: %v %q\n%s", err, skipped, out)
	}
	moved, _, _, _ := gate.Install("s.json", out, gate.InstallOptions{Binary: "/b/memscope"})
	if strings.Count(string(moved), "hook pre-tool-use") != 1 || !strings.Contains(string(moved), "/b/memscope hook") {
		t.Errorf("moved binary:\n%s", moved)
	}
}

// memscope's gate hook found in a group that also holds the user's own
// hook, under another matcher: installing again leaves the user's group
// and matcher as they were and moves memscope's hook to a group of its
// own (the user's hook must not start running on Write|Edit).
func TestInstallLeavesASharedGroupsMatcher(t *testing.T) {
	src := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "my-bash-check"},
		{"type": "command", "command": "/a/memscope hook pre-tool-use", "timeout": 5}]}]}}`
	out, _, _, err := gate.Install("s.json", []byte(src), gate.InstallOptions{Binary: "/a/memscope"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Hooks struct {
			PreToolUse []struct {
				Matcher string
				Hooks   []struct{ Command string }
			}
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var userGroup, ownGroup bool
	for _, g := range got.Hooks.PreToolUse {
		for _, h := range g.Hooks {
			switch {
			case h.Command == "my-bash-check":
				userGroup = g.Matcher == "Bash" && len(g.Hooks) == 1
			case strings.Contains(h.Command, "hook pre-tool-use"):
				ownGroup = g.Matcher != "Bash" && len(g.Hooks) == 1
			}
		}
	}
	if !userGroup || !ownGroup || strings.Count(string(out), "hook pre-tool-use") != 1 {
		t.Errorf("the user's group or memscope's hook is wrong:\n%s", out)
	}
}

func TestInstallRefusesMalformed(t *testing.T) {
	bad := "{\n  \"model\": \"opus\",\n  \"hooks\": {,\n}\n"
	_, _, _, err := gate.Install("/p/.claude/settings.json", []byte(bad), gate.InstallOptions{Binary: "/a/memscope"})
	var se *gate.SettingsError
	if !errors.As(err, &se) || se.Line != 3 || !strings.Contains(err.Error(), "/p/.claude/settings.json:3") {
		t.Errorf("malformed: %v", err)
	}
	if _, _, err := gate.Uninstall("s.json", []byte("[1]"), ""); err == nil {
		t.Error("a list is not a settings file")
	}
}

// settingsWithLifecycleHooks has the user's own SessionEnd and PreCompact
// hooks; the PreCompact group also holds memscope's vault hook, put there
// by hand.
const settingsWithLifecycleHooks = `{
  "hooks": {
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/log-end"
          }
        ]
      }
    ],
    "PreCompact": [
      {
        "matcher": "auto",
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/backup"
          },
          {
            "type": "command",
            "command": "/opt/memscope vault sync --hook"
          }
        ]
      }
    ]
  }
}
`

// Install adds every hook of the table (the gate and the vault's
// SessionEnd and PreCompact syncs) once; status reports each; uninstall
// takes out memscope's only, the user's hooks and their groups staying
// (the group memscope shared with the user's hook keeps the user's).
func TestInstallHookTable(t *testing.T) {
	o := gate.InstallOptions{Binary: "/usr/bin/memscope"}
	in, changed, _, err := gate.Install("s.json", []byte(settingsWithLifecycleHooks), o)
	if err != nil || !changed {
		t.Fatalf("install: %v %v", err, changed)
	}
	for _, h := range gate.Hooks {
		if !strings.Contains(string(in), `"`+h.Event+`"`) {
			t.Errorf("no %s event after install:\n%s", h.Event, in)
		}
	}
	if n := strings.Count(string(in), "vault sync --hook"); n != 2 {
		t.Errorf("%d vault hooks, want one per event (SessionEnd, PreCompact):\n%s", n, in)
	}
	if strings.Contains(string(in), "/opt/memscope") {
		t.Errorf("the hand-put vault hook was not updated to this binary:\n%s", in)
	}
	st, err := gate.Status("s.json", in, "")
	if err != nil || !st.Gate || !st.Vault || len(st.Hooks) != len(gate.Hooks) {
		t.Fatalf("status after install: %+v %v", st, err)
	}
	for i, h := range st.Hooks {
		if h.Event != gate.Hooks[i].Event || h.Binary != "/usr/bin/memscope" {
			t.Errorf("status hook %d: %+v", i, h)
		}
	}
	if st.Hooks[2].Found != "auto" {
		t.Errorf("PreCompact's matcher, the user's, was not kept: %+v", st.Hooks[2])
	}
	out, _, err := gate.Uninstall("s.json", in, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"~/bin/log-end", "~/bin/backup", `"matcher": "auto"`, `"SessionEnd"`, `"PreCompact"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("uninstall lost the user's %s:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "memscope") || strings.Contains(string(out), "PreToolUse") {
		t.Errorf("uninstall left memscope's hooks:\n%s", out)
	}
	if st, _ := gate.Status("s.json", out, ""); st.Gate || st.Vault || len(st.Hooks) != 0 {
		t.Errorf("status after uninstall: %+v", st)
	}
}

// Only installs the hooks named; the others are not added.
func TestInstallOnly(t *testing.T) {
	out, _, _, err := gate.Install("s.json", nil, gate.InstallOptions{Binary: "/m/memscope", Only: []string{"vault"}})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := gate.Status("s.json", out, "")
	if st.Gate || !st.Vault {
		t.Errorf("--only vault: %+v\n%s", st, out)
	}
	if got := gate.HookNames(); strings.Join(got, ",") != "gate,vault" {
		t.Errorf("hook names %v", got)
	}
}

// The plugin's hooks file is what Install writes for the memscope on
// PATH: every hook of the table, nothing else changed by installing it.
func TestPluginHooksMatchTable(t *testing.T) {
	data, err := os.ReadFile("../../plugin/hooks/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	st, err := gate.Status("plugin/hooks/hooks.json", data, "")
	if err != nil || !st.Gate || !st.Vault || len(st.Hooks) != len(gate.Hooks) {
		t.Fatalf("plugin hooks: %+v %v", st, err)
	}
	out, changed, _, err := gate.Install("plugin/hooks/hooks.json", data, gate.InstallOptions{OnPath: true})
	if err != nil || changed {
		t.Errorf("installing over the plugin's hooks changes them (%v):\n%s", err, out)
	}
	// Each runs the hook binary when PATH has it, else memscope.
	for _, h := range gate.Hooks {
		if !strings.Contains(string(data), `"command": "`+h.PathCommand()+`"`) || !strings.Contains(h.PathCommand(), "exec memscope-hook "+h.Sub+" || exec memscope "+h.Sub) {
			t.Errorf("the plugin does not run %s through the hook binary first:\n%s", h.Sub, data)
		}
	}
}

// With a hook binary beside memscope, every hook runs it and the status
// line stays memscope's; status says so; installing without it puts
// memscope back in place (never a second entry); uninstall takes out
// both forms, the user's hooks staying.
func TestInstallHookBinary(t *testing.T) {
	o := gate.InstallOptions{Binary: "/usr/bin/memscope", HookBinary: "/usr/bin/memscope-hook", Statusline: true}
	in, changed, _, err := gate.Install("s.json", []byte(settingsWithLifecycleHooks), o)
	if err != nil || !changed {
		t.Fatalf("install: %v %v", err, changed)
	}
	st, err := gate.Status("s.json", in, "/usr/bin/memscope")
	if err != nil || !st.Gate || !st.Vault || !st.Statusline || st.StatuslineBinary != "/usr/bin/memscope" || st.Binary != "/usr/bin/memscope-hook" {
		t.Fatalf("status: %+v %v\n%s", st, err, in)
	}
	for _, h := range st.Hooks {
		if h.Binary != "/usr/bin/memscope-hook" || !h.HookBinary {
			t.Errorf("%s runs %s (hook binary %v), want /usr/bin/memscope-hook", h.Event, h.Binary, h.HookBinary)
		}
	}
	back, _, _, err := gate.Install("s.json", in, gate.InstallOptions{Binary: "/usr/bin/memscope"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(back), "memscope-hook") || strings.Count(string(back), "hook pre-tool-use") != 1 || strings.Count(string(back), "vault sync --hook") != 2 {
		t.Errorf("install without the hook binary:\n%s", back)
	}
	// One settings file with both forms (a hook binary's gate, and a
	// memscope vault hook put by hand) loses both on uninstall.
	both := strings.Replace(string(in), `"/usr/bin/memscope-hook vault sync --hook"`, `"/usr/bin/memscope vault sync --hook"`, 1)
	if both == string(in) {
		t.Fatal("the test's settings have no vault hook to change")
	}
	out, _, err := gate.Uninstall("s.json", []byte(both), "/usr/bin/memscope")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "memscope") || !strings.Contains(string(out), "~/bin/backup") {
		t.Errorf("uninstall left memscope's hooks or lost the user's:\n%s", out)
	}
}
