package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/model"
)

// lostJSON is the part of `replay --lost --json` the tests read, decoded
// independently of the command's types.
type lostJSON struct {
	Boundaries []struct {
		Index int            `json:"index"`
		Had   map[string]int `json:"had"`
		Lost  []struct {
			ID, Kind, Text, Detail string
			Line                   int
		} `json:"lost"`
	} `json:"boundaries"`
	Kept []struct{ Ref, Path string } `json:"kept"`
}

// TestReplayLostGoldens prints the ledger of each compacted session of the
// demo and of the transcripts in engine/ledger/testdata, paths of the
// materialized demo replaced by <demo>. Read by eye:
//   - demo checkout: three automatic compactions and a manual one with a
//     preserved exchange. The summaries name rules.go and legacy.go, not
//     the eight package files the turns read, so each boundary lists
//     them; the first also lists the user's go-style rule, which joined
//     as a nested_memory on the first .go read and is not re-attached
//     (the demo re-attaches the session-start instructions only).
//     No rules: the demo's prompts there are plain requests.
//   - demo notes: one manual compaction, the six pages read before it
//     not named by the one-line summary.
//   - rules-session: see engine/ledger's TestRulesSession.
//   - the real client's partial-compactions transcript: nothing lost,
//     four instruction files re-attached at both boundaries.
func TestReplayLostGoldens(t *testing.T) {
	l := sharedDemo(t)
	cases := map[string][]string{
		"demo-checkout": {demo.SessionCheckout, "--home", l.Home},
		"demo-notes":    {demo.SessionNotes, "--home", l.Home},
		"rules-session": {"../engine/ledger/testdata/rules-session.jsonl"},
		"partial":       {"../engine/ledger/testdata/transcript-partial-compactions.jsonl"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			e, out, errb := testEnv(t)
			if code := run(e, append([]string{"replay", "--lost"}, args...)); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			text := strings.ReplaceAll(out.String(), model.Slug(l.Root), "<demo-slug>")
			text = strings.ReplaceAll(text, l.Root, "<demo>")
			if abs, err := filepath.Abs("../engine/ledger/testdata"); err == nil {
				text = strings.ReplaceAll(text, abs, "<ledger-testdata>")
			}
			golden.RequireEqual(goldenTB{t, "replay_lost/" + name}, text)
		})
	}
}

// The demo's checkout session, as JSON: four boundaries, each losing the
// package files read since the last one, the first also the go-style
// rule; --all finds it and the notes session, and no other.
func TestReplayLostJSONAndAll(t *testing.T) {
	e, out, errb := testEnv(t)
	l := sharedDemo(t)
	if code := run(e, []string{"replay", demo.SessionCheckout, "--lost", "--json", "--home", l.Home}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var r lostJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Boundaries) != 4 {
		t.Fatalf("boundaries = %d", len(r.Boundaries))
	}
	first := r.Boundaries[0]
	files, mem := 0, ""
	for _, it := range first.Lost {
		switch it.Kind {
		case "file":
			files++
		case "memory":
			mem = it.Text
		}
	}
	if files != 8 || !strings.HasSuffix(mem, "go-style.md") {
		t.Errorf("boundary 1: %d files, memory %q", files, mem)
	}
	out.Reset()
	if code := run(e, []string{"replay", "--lost", "--all", "--json", "--home", l.Home}); code != 0 {
		t.Fatalf("--all: exit %d: %s", code, errb)
	}
	var all struct {
		Sessions []struct {
			File struct{ SessionID string } `json:"file"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(out.Bytes(), &all); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range all.Sessions {
		got[s.File.SessionID] = true
	}
	if len(all.Sessions) != 2 || !got[demo.SessionCheckout] || !got[demo.SessionNotes] {
		t.Errorf("--all sessions = %+v", all.Sessions)
	}
}

// Bad flag combinations are usage errors (exit 2), not silent.
func TestReplayLostUsage(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "--all"},
		{"replay", "--lost", "--all", "x.jsonl"},
		{"replay", "--keep", "1:r1", "x.jsonl"},
		{"replay", "--lost", "--keep", "9:r1", "../engine/ledger/testdata/rules-session.jsonl"},
		{"replay", "--lost", "--keep", "1:r1", "--to", "rules:../x", "../engine/ledger/testdata/rules-session.jsonl"},
	} {
		e, _, errb := testEnv(t)
		if code := run(e, args); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errb)
		}
	}
}

// Keep round trip, in the demo's notes site (its MEMORY.md has room): a
// lost rule kept as a feedback memory exists, loads in the next prompt
// (`prompt --json` holds MEMORY.md with its line), is not written twice,
// and `memscope undo` removes it; a rule kept in .claude/rules/ shows as
// its own layer and is undone the same way. In shop-api, whose MEMORY.md
// is past the 200-line cap, keeping to memory is refused with the next
// places to keep it.
func TestReplayKeepRoundTrip(t *testing.T) {
	e, out, errb := testEnv(t)
	l, _ := demoMemory(t, e)
	shop := l.Project("shop-api")
	project := l.Project("notes-site")
	mem := filepath.Join(l.Home, "projects", model.Slug(project), "memory")
	src, err := os.ReadFile("../engine/ledger/testdata/rules-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	put := func(project, id string) {
		session := filepath.Join(l.Home, "projects", model.Slug(project), id+".jsonl")
		text := strings.ReplaceAll(string(src), `"/work/shop"`, `"`+project+`"`)
		text = strings.ReplaceAll(text, "5e1f0c2a-1111-4222-8333-444455556666", id)
		if err := os.WriteFile(session, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(project, "5e1f0c2a-1111-4222-8333-444455556666")
	put(shop, "6f2a1d3b-1111-4222-8333-444455556666")
	home := []string{"--home", l.Home}
	if code := run(e, append([]string{"replay", "6f2a1d3b", "--lost", "--keep", "1:r1"}, home...)); code != 1 ||
		!strings.Contains(errb.String(), "MEMORY.md is full") || !strings.Contains(errb.String(), "rules:FILE") {
		t.Errorf("keep to a full MEMORY.md: exit %d, %s", code, errb)
	}
	prompt := func() string {
		out.Reset()
		if code := run(e, append([]string{"prompt", "--json", "--project", project}, home...)); code != 0 {
			t.Fatalf("prompt: exit %d: %s", code, errb)
		}
		return out.String()
	}
	const rule = "Never mock the database in these tests"
	if strings.Contains(prompt(), rule) {
		t.Fatal("the rule is in the prompt before it was kept")
	}
	out.Reset()
	if code := run(e, append([]string{"replay", "5e1f0c2a", "--lost", "--keep", "1:r1", "--json"}, home...)); code != 0 {
		t.Fatalf("keep: exit %d: %s", code, errb)
	}
	var r lostJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Kept) != 1 {
		t.Fatalf("keep output %s (%v)", out, err)
	}
	data, err := os.ReadFile(r.Kept[0].Path)
	if err != nil || !strings.Contains(string(data), "type: feedback") || filepath.Dir(r.Kept[0].Path) != mem {
		t.Fatalf("kept memory %s: %q, %v", r.Kept[0].Path, data, err)
	}
	if !strings.Contains(prompt(), rule) {
		t.Error("the kept rule does not load in the next prompt")
	}
	errb.Reset()
	if code := run(e, append([]string{"replay", "5e1f0c2a", "--lost", "--keep", "1:r1"}, home...)); code == 0 || !strings.Contains(errb.String(), "already kept") {
		t.Errorf("second keep: exit %d, %s", code, errb)
	}
	if code := run(e, append([]string{"replay", "5e1f0c2a", "--lost", "--keep", "1:r3", "--to", "rules:kept"}, home...)); code != 0 {
		t.Fatalf("keep to rules: exit %d: %s", code, errb)
	}
	rules := filepath.Join(project, ".claude", "rules", "kept.md")
	if data, err := os.ReadFile(rules); err != nil || string(data) != "- From now on, run gofmt before every commit.\n" {
		t.Fatalf("rules file: %q, %v", data, err)
	}
	if !strings.Contains(prompt(), "kept.md") {
		t.Error("the rules file is not a layer of the next prompt")
	}
	for range 2 {
		if code := run(e, append([]string{"undo", "--project", project}, home...)); code != 0 {
			t.Fatalf("undo: exit %d: %s", code, errb)
		}
	}
	if _, err := os.Stat(rules); !os.IsNotExist(err) {
		t.Errorf("rules file after undo: %v", err)
	}
	if _, err := os.Stat(r.Kept[0].Path); !os.IsNotExist(err) {
		t.Errorf("memory after undo: %v", err)
	}
	if strings.Contains(prompt(), rule) {
		t.Error("the rule still loads after undo")
	}
}
