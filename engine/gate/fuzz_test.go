package gate_test

import (
	"encoding/json"
	"testing"

	"github.com/memscope/memscope/engine/gate"
)

// FuzzInstall: any settings text is refused or comes out as JSON with
// exactly one gate entry, every top-level key kept; uninstalling that
// leaves no gate, and installing on the result gives the same file.
func FuzzInstall(f *testing.F) {
	f.Add(settingsWithHooks)
	f.Add("")
	f.Add(`{"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "memscope hook pre-tool-use"}]}]}}`)
	f.Add(`{"a": "\u00e9", "n": 1.50e3, "hooks": {}}`)
	f.Add(`[1, 2]`)
	f.Fuzz(func(t *testing.T, src string) {
		o := gate.InstallOptions{Binary: "/bin/memscope", Statusline: true}
		out, _, _, err := gate.Install("s.json", []byte(src), o)
		if err != nil {
			return
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(out, &top); err != nil {
			t.Fatalf("install wrote invalid JSON: %v\n%s", err, out)
		}
		var before map[string]json.RawMessage
		if json.Unmarshal([]byte(src), &before) == nil {
			for k := range before {
				if _, ok := top[k]; !ok {
					t.Fatalf("install lost key %q", k)
				}
			}
		}
		if st, err := gate.Status("s.json", out, ""); err != nil || !st.Gate {
			t.Fatalf("status after install: %+v %v", st, err)
		}
		un, _, err := gate.Uninstall("s.json", out, "/bin/memscope")
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := gate.Status("s.json", un, ""); st.Gate {
			t.Fatalf("gate left after uninstall:\n%s", un)
		}
		again, _, _, err := gate.Install("s.json", out, o)
		if err != nil || string(again) != string(out) {
			t.Fatalf("install is not idempotent: %v\n%s\n---\n%s", err, out, again)
		}
	})
}

// FuzzParseEvent: no panic; an event that parses has a tool name.
func FuzzParseEvent(f *testing.F) {
	f.Add(`{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/a/MEMORY.md","old_string":"a","new_string":"b"}}`)
	f.Add(`{"tool_name":"MultiEdit","tool_input":{"file_path":"/a","edits":[{"old_string":"x","new_string":"y","replace_all":true}]}}`)
	f.Fuzz(func(t *testing.T, src string) {
		ev, err := gate.ParseEvent([]byte(src))
		if err == nil && ev.ToolName == "" {
			t.Fatal("parsed an event without a tool name")
		}
		if err == nil && gate.Judged(ev.ToolName) {
			gate.After(gate.Tool(ev.ToolName), ev.ToolInput, []byte("a b\n"), true)
		}
	})
}
