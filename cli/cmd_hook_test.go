package cli

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/model"
)

// hookEnv is a test env with a Claude home, a project and a state
// folder, all in temporary folders.
func hookEnv(t *testing.T) (e *env, home, project, state string) {
	t.Helper()
	e, _, _ = testEnv(t)
	home, project, state = t.TempDir(), t.TempDir(), t.TempDir()
	vars := map[string]string{"CLAUDE_CONFIG_DIR": home, "XDG_STATE_HOME": state}
	e.getenv = func(k string) string { return vars[k] }
	return e, home, project, state
}

func hookEvent(t *testing.T, cwd, tool string, input map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "tool_use_id": "t1"})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func runHookWith(t *testing.T, e *env, stdin string) (string, int) {
	t.Helper()
	var out strings.Builder
	e.stdout, e.stdin = &out, strings.NewReader(stdin)
	code := run(e, []string{"hook", "pre-tool-use"})
	return out.String(), code
}

// A memory write with an AWS key is denied in the client's JSON, the
// reason names the rule and not the key, and the record says so; a
// source file passes with no output and is recorded as allowed.
func TestHookDeniesASecretAndPassesSourceFiles(t *testing.T) {
	e, home, project, state := hookEnv(t)
	mem := filepath.Join(home, "projects", model.Slug(project), "memory")
	out, code := runHookWith(t, e, hookEvent(t, project, "Write", map[string]any{
		"file_path": filepath.Join(mem, "project_deploy.md"),
		"content":   "---\nname: deploy\ndescription: how we deploy\ntype: project\n---\nUse AKIAQWERTYUIOPASDFGH for the bucket.\n"}))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var ans hookAnswer
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("stdout is not the JSON decision: %v\n%s", err, out)
	}
	if d := ans.HookSpecificOutput; d.PermissionDecision != "deny" || d.HookEventName != "PreToolUse" || !strings.Contains(d.PermissionDecisionReason, "credential") || strings.Contains(out, "AKIAQWERTYUIOPASDFGH") {
		t.Errorf("decision %+v", d)
	}
	out, code = runHookWith(t, e, hookEvent(t, project, "Write", map[string]any{"file_path": filepath.Join(project, "main.go"), "content": "package main\n"}))
	if code != 0 || out != "" {
		t.Errorf("source file: exit %d, stdout %q; want 0 and nothing", code, out)
	}
	recs, bad, err := gate.ReadLog(filepath.Join(state, "memscope", gate.LogName))
	if err != nil || bad != 0 || len(recs) != 2 {
		t.Fatalf("log: %d records, %d bad, %v", len(recs), bad, err)
	}
	if recs[0].Decision != gate.Deny || len(recs[0].Rules) == 0 || recs[0].Rules[0].Rule != gate.RuleSecret || recs[0].Session != "s1" {
		t.Errorf("first record %+v", recs[0])
	}
	if recs[1].Decision != gate.Allow || recs[1].Kind != "" || recs[1].Path != filepath.Join(project, "main.go") {
		t.Errorf("second record %+v", recs[1])
	}
	raw, _ := os.ReadFile(filepath.Join(state, "memscope", gate.LogName))
	if strings.Contains(string(raw), "AKIAQWERTYUIOPASDFGH") {
		t.Error("the log holds the secret")
	}
}

// Whatever goes wrong, the gate decides nothing (exit 0, no output) and
// says why in memscope.log.
func TestHookFailsOpen(t *testing.T) {
	e, _, _, state := hookEnv(t)
	for _, in := range []string{"not json", `{"hook_event_name":"PostToolUse","tool_name":"Write"}`, `{"session_id":"` + strings.Repeat("x", maxHookInput+10) + `"}`} {
		out, code := runHookWith(t, e, in)
		if code != 0 || out != "" {
			t.Errorf("input %.20q: exit %d, stdout %q", in, code, out)
		}
	}
	// No stdin at all (a process started without one).
	e.stdin = nil
	if code := run(e, []string{"hook", "pre-tool-use"}); code != 0 {
		t.Errorf("no stdin: exit %d", code)
	}
	log, err := os.ReadFile(filepath.Join(state, "memscope", gate.ErrorLogName))
	if err != nil || strings.Count(string(log), "\n") != 4 || !strings.Contains(string(log), "no stdin") || !strings.Contains(string(log), "not JSON") || !strings.Contains(string(log), "over 8 MiB") {
		t.Errorf("memscope.log: %q, %v", log, err)
	}
}

// The policy in the settings file changes the answer: secrets asked, not
// denied.
func TestHookPolicyFromSettings(t *testing.T) {
	e, home, project, _ := hookEnv(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfg, []byte("gate:\n  secret: ask\n"), 0o600)
	get := e.getenv
	e.getenv = func(k string) string {
		if k == "MEMSCOPE_CONFIG" {
			return cfg
		}
		return get(k)
	}
	out, _ := runHookWith(t, e, hookEvent(t, project, "Write", map[string]any{
		"file_path": filepath.Join(home, "projects", model.Slug(project), "memory", "MEMORY.md"),
		"content":   "- [Keys](keys.md) — AKIAQWERTYUIOPASDFGH\n"}))
	if !strings.Contains(out, `"permissionDecision":"ask"`) {
		t.Errorf("stdout %q, want ask", out)
	}
}

// gate log reads the records back, and --held keeps the denied and asked.
func TestGateLog(t *testing.T) {
	e, home, project, _ := hookEnv(t)
	mem := filepath.Join(home, "projects", model.Slug(project), "memory")
	runHookWith(t, e, hookEvent(t, project, "Write", map[string]any{"file_path": filepath.Join(mem, "MEMORY.md"), "content": "- [K](k.md) — AKIAQWERTYUIOPASDFGH\n"}))
	runHookWith(t, e, hookEvent(t, project, "Edit", map[string]any{"file_path": filepath.Join(project, "x.go"), "old_string": "a", "new_string": "b"}))
	var out strings.Builder
	e.stdout = &out
	if code := run(e, []string{"gate", "log", "--held", "--json"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var rep gateReport
	if err := json.Unmarshal([]byte(out.String()), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Records) != 1 || rep.Records[0].Decision != gate.Deny || rep.HeldToday != "1 memory write held today" {
		t.Errorf("gate log --held: %+v", rep)
	}
}

// A client that keeps stdin open after the event still gets the gate's
// decision at once: the gate read to the pipe's end, so it waited its
// 2 s and failed open, letting a write with a key through.
func TestHookAnswersWithStdinLeftOpen(t *testing.T) {
	e, home, project, _ := hookEnv(t)
	mem := filepath.Join(home, "projects", model.Slug(project), "memory")
	ev := hookEvent(t, project, "Write", map[string]any{
		"file_path": filepath.Join(mem, "project_deploy.md"),
		"content":   "---\nname: deploy\ndescription: how we deploy\ntype: project\n---\nUse AKIAQWERTYUIOPASDFGH for the bucket.\n"})
	pr, pw := io.Pipe()
	defer pw.Close()
	go io.WriteString(pw, ev)
	var out strings.Builder
	e.stdout, e.stdin = &out, pr
	start := time.Now()
	if code := run(e, []string{"hook", "pre-tool-use"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var ans hookAnswer
	if err := json.Unmarshal([]byte(out.String()), &ans); err != nil || ans.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("with stdin open the gate answered %q (%v), want a deny (after %v)", out.String(), err, time.Since(start))
	}
}
