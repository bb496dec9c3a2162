package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A subagent that compacted: engine/ledger/testdata/subagent-compacted.jsonl,
// written by hand for this test in the client's shape (every record
// isSidechain with the agent's agentId, the compact boundary too, as the
// client writes an agent's own transcript), placed where the client puts
// it, projects/<slug>/<session>/subagents/agent-<id>.jsonl, with its
// meta file. The agent read cart.go and round_half.go and ran `go test
// ./internal/cart/ -run TestRound` (exit 1); the summary names cart.go
// only. `replay --lost --all` finds it beside a main session that never
// compacted and lists, at its one (sidechain) boundary, round_half.go
// (line 6) and the command (line 4, exit 1); no rules, since a subagent's
// prompt is the parent agent's words, not the user's (extract.PromptText
// skips sidechain turns).
func TestReplayLostAllFindsACompactedSubagent(t *testing.T) {
	home := t.TempDir()
	const sid, agent = "9b2d4e6f-2222-4333-8444-555566667777", "a7c31f"
	dir := filepath.Join(home, "projects", "-work-shop")
	sub := filepath.Join(dir, sid, "subagents")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("../engine/ledger/testdata/subagent-compacted.jsonl", filepath.Join(sub, "agent-"+agent+".jsonl"))
	copyFile("../engine/ledger/testdata/subagent-compacted.meta.json", filepath.Join(sub, "agent-"+agent+".meta.json"))
	main := `{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"20000000-0000-4000-8000-000000000001","timestamp":"2026-11-21T09:00:00.000Z","sessionId":"` + sid + `","cwd":"/work/shop","message":{"role":"user","content":"Find the rounding bug in the cart."}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}

	e, out, errb := testEnv(t)
	if code := run(e, []string{"replay", "--lost", "--all", "--json", "--no-cache", "--home", home}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var all struct {
		Sessions []struct {
			File struct {
				Path, SessionID, AgentID, Kind string
			} `json:"file"`
			lostJSON
		} `json:"sessions"`
	}
	if err := json.Unmarshal(out.Bytes(), &all); err != nil {
		t.Fatal(err)
	}
	if len(all.Sessions) != 1 {
		t.Fatalf("--all listed %d sessions, want the subagent only:\n%s", len(all.Sessions), out)
	}
	s := all.Sessions[0]
	if s.File.AgentID != agent || s.File.SessionID != sid || !strings.HasSuffix(s.File.Path, "subagents/agent-"+agent+".jsonl") {
		t.Errorf("file = %+v", s.File)
	}
	if len(s.Boundaries) != 1 {
		t.Fatalf("boundaries = %d", len(s.Boundaries))
	}
	b := s.Boundaries[0]
	var got []string
	for _, it := range b.Lost {
		got = append(got, it.ID+" "+it.Kind+" "+it.Text+" ("+it.Detail+")")
	}
	want := []string{"f1 file /work/shop/internal/cart/round_half.go (read)", "c1 command go test ./internal/cart/ -run TestRound (exit 1)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lost:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if b.Had["file"] != 2 || b.Had["command"] != 1 || b.Had["rule"] != 0 {
		t.Errorf("had = %v", b.Had)
	}
	if b.Lost[0].Line != 6 || b.Lost[1].Line != 4 {
		t.Errorf("lines = %d, %d; want 6 and 4", b.Lost[0].Line, b.Lost[1].Line)
	}

	// The text form says the boundary is a sidechain's.
	out.Reset()
	if code := run(e, []string{"replay", "--lost", "--all", "--no-cache", "--home", home}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(out.String(), "(sidechain)") || !strings.Contains(out.String(), "lost 1 file, 1 command") {
		t.Errorf("text:\n%s", out)
	}
}

// The text report names files, sessions and agents from the home: a
// terminal control sequence in a folder or file name never reaches the
// terminal (every text report goes through humanOutput's sanitizing
// writer; this holds it for the ledger's report).
func TestReplayLostTextStripsControls(t *testing.T) {
	home := t.TempDir()
	const sid, agent = "9b2d4e6f-2222-4333-8444-555566667777", "a7\x1b]0;owned\x07c31f"
	sub := filepath.Join(home, "projects", "-work-\x1b[31mshop", sid, "subagents")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../engine/ledger/testdata/subagent-compacted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "agent-"+agent+".jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	e, out, errb := testEnv(t)
	if code := run(e, []string{"replay", "--lost", "--all", "--no-cache", "--home", home}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(out.String(), "round_half.go") {
		t.Fatalf("the subagent's ledger is not listed:\n%s", out)
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("a control sequence from a name reached the output:\n%q", out)
	}
}
