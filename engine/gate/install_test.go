package gate_test

import (
	"errors"
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
