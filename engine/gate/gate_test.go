package gate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/model"
)

func ptr(s string) *string { return &s }

func TestAfter(t *testing.T) {
	before := []byte("a b a\nc\n")
	cases := []struct {
		name string
		tool gate.Tool
		in   gate.ToolInput
		want string
		ok   bool
	}{
		{"write", gate.ToolWrite, gate.ToolInput{Content: ptr("new")}, "new", true},
		{"write without content", gate.ToolWrite, gate.ToolInput{}, "", false},
		{"edit once", gate.ToolEdit, gate.ToolInput{OldString: "c", NewString: "d"}, "a b a\nd\n", true},
		{"edit ambiguous", gate.ToolEdit, gate.ToolInput{OldString: "a", NewString: "x"}, "", false},
		{"edit replace_all", gate.ToolEdit, gate.ToolInput{OldString: "a", NewString: "x", ReplaceAll: true}, "x b x\nc\n", true},
		{"edit missing", gate.ToolEdit, gate.ToolInput{OldString: "zz", NewString: "x"}, "", false},
		{"multiedit in order", gate.ToolMultiEdit, gate.ToolInput{Edits: []gate.EditOp{{OldString: "c", NewString: "a"}, {OldString: "a", NewString: "q", ReplaceAll: true}}}, "q b q\nq\n", true},
		{"multiedit second fails", gate.ToolMultiEdit, gate.ToolInput{Edits: []gate.EditOp{{OldString: "c", NewString: "d"}, {OldString: "c", NewString: "e"}}}, "", false},
	}
	for _, c := range cases {
		got, ok := gate.After(c.tool, c.in, before, true)
		if ok != c.ok || ok && string(got) != c.want {
			t.Errorf("%s: After = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	if got, ok := gate.After(gate.ToolEdit, gate.ToolInput{OldString: "", NewString: "fresh"}, nil, false); !ok || string(got) != "fresh" {
		t.Errorf("edit creating a file: %q, %v", got, ok)
	}
	if _, ok := gate.After(gate.ToolEdit, gate.ToolInput{OldString: "x", NewString: "y"}, nil, false); ok {
		t.Error("edit of a missing file applies")
	}
}

func TestClassify(t *testing.T) {
	pl := gate.Places{Home: "/h/.claude", Base: "/h/.claude", AutoMemory: "/mem/moved"}
	cases := []struct {
		path string
		kind gate.Kind
		dir  string
	}{
		{"/mem/moved/MEMORY.md", gate.KindIndex, "/mem/moved"},
		{"/mem/moved/feedback_x.md", gate.KindTopic, "/mem/moved"},
		{"/mem/moved/team/MEMORY.md", gate.KindIndex, "/mem/moved/team"},
		{"/h/.claude/projects/-other/memory/project_y.md", gate.KindTopic, "/h/.claude/projects/-other/memory"},
		{"/h/.claude/agent-memory/reviewer/MEMORY.md", gate.KindIndex, "/h/.claude/agent-memory/reviewer"},
		{"/p/.claude/agent-memory-local/rev/notes.md", gate.KindTopic, "/p/.claude/agent-memory-local/rev"},
		{"/p/CLAUDE.md", gate.KindInstructions, ""},
		{"/p/sub/CLAUDE.local.md", gate.KindInstructions, ""},
		{"/p/.claude/rules/go.md", gate.KindInstructions, ""},
		{"/h/.claude/rules/style.md", gate.KindInstructions, ""},
		{"/p/README.md", "", ""},
		{"/p/main.go", "", ""},
		{"/mem/moved/logs/today.md", "", ""},
		{"relative/MEMORY.md", "", ""},
	}
	for _, c := range cases {
		got, ok := gate.Classify(c.path, pl)
		if ok != (c.kind != "") || got.Kind != c.kind || got.Dir != c.dir {
			t.Errorf("Classify(%s) = %+v, %v; want kind %q dir %q", c.path, got, ok, c.kind, c.dir)
		}
	}
}

// memFolder writes files into a new memory folder and reads it back.
func memFolder(t *testing.T, files map[string]string) (string, *model.MemoryDir) {
	t.Helper()
	dir := t.TempDir()
	for rel, c := range files {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md, _ := model.ReadMemoryDir(model.DirFS(dir), ".")
	return dir, md
}

// judge runs the gate on writing content to rel in dir.
func judge(t *testing.T, dir string, md *model.MemoryDir, rel, content string) gate.Verdict {
	t.Helper()
	before, err := os.ReadFile(filepath.Join(dir, rel))
	kind := gate.KindTopic
	if rel == model.MemoryIndexName {
		kind = gate.KindIndex
	}
	return gate.JudgeMemory(gate.MemoryInput{Target: gate.Target{Kind: kind, Path: filepath.Join(dir, rel), Dir: dir, Rel: rel},
		Memory: md, MemoryFS: model.DirFS(dir), Before: before, Existed: err == nil, After: []byte(content), Now: enginetest.OpsNow})
}

const tests = "Integration tests must hit a real database, never mocks: we got burned last quarter when mocked tests passed but the prod migration failed on a constraint."

// TestGateMatchesLint feeds the gate a write and lint the folder with the
// write made, and requires the same findings about the written file: the
// gate runs lint's checks, not a copy.
func TestGateMatchesLint(t *testing.T) {
	base := map[string]string{
		"feedback_tests_real_db.md": enginetest.FreshMemory("tests_real_db", "integration tests use a real database", "feedback", tests),
		"MEMORY.md":                 "- [Tests real DB](feedback_tests_real_db.md) — no mocks\n",
	}
	writes := []struct {
		rel, content string
		kinds        []lint.Kind
	}{
		{"feedback_db_again.md", enginetest.FreshMemory("db_again", "integration tests use a real database", "feedback", tests+" Still true."), []lint.Kind{lint.Duplicate}},
		{"project_keys.md", "---\nname: keys\ndescription: deploy\ntype: bogus\n---\nDeploy with AKIAQWERTYUIOPASDFGH now.\n", []lint.Kind{lint.UnknownType, lint.Security}},
		{"project_broken.md", "---\nname: [unclosed\n---\nbody\n", []lint.Kind{lint.InvalidFrontmatter}},
		{"MEMORY.md", base["MEMORY.md"] + "- [Gone](project_gone.md) — never written\n", []lint.Kind{lint.DanglingLink}},
	}
	for _, w := range writes {
		dir, md := memFolder(t, base)
		v := judge(t, dir, md, w.rel, w.content)
		if err := os.WriteFile(filepath.Join(dir, w.rel), []byte(w.content), 0o644); err != nil {
			t.Fatal(err)
		}
		after, _ := model.ReadMemoryDir(model.DirFS(dir), ".")
		rep := lint.Run(lint.Input{Memory: after, MemoryFS: model.DirFS(dir), Now: enginetest.OpsNow})
		var want []lint.Finding
		for _, f := range rep.Findings {
			if gate.Judges(f, w.rel) {
				want = append(want, f)
			}
		}
		if fmt.Sprint(v.Findings) != fmt.Sprint(want) {
			t.Errorf("%s: the gate found\n%v\nlint found\n%v", w.rel, v.Findings, want)
		}
		for _, k := range w.kinds {
			if !slices.ContainsFunc(v.Findings, func(f lint.Finding) bool { return f.Kind == k }) {
				t.Errorf("%s: no %s finding in %v", w.rel, k, v.Findings)
			}
		}
	}
}

func TestDecisions(t *testing.T) {
	base := map[string]string{
		"feedback_tests_real_db.md": enginetest.FreshMemory("tests_real_db", "integration tests use a real database", "feedback", tests),
	}
	dir, md := memFolder(t, base)
	v := judge(t, dir, md, "project_keys.md", enginetest.FreshMemory("keys", "deploy", "project", "Deploy with AKIAQWERTYUIOPASDFGH now."))
	if v.Decision != gate.Deny || !strings.Contains(v.Reason(), "credential") || strings.Contains(v.Reason(), "AKIAQWERTYUIOPASDFGH") {
		t.Errorf("secret: %s %q (want deny, the key redacted)", v.Decision, v.Reason())
	}
	v = judge(t, dir, md, "feedback_db_again.md", enginetest.FreshMemory("db_again", "integration tests use a real database", "feedback", tests))
	if v.Decision != gate.Ask || !strings.Contains(v.Reason(), "merge into feedback_tests_real_db.md") {
		t.Errorf("near-duplicate: %s %q", v.Decision, v.Reason())
	}
	v = judge(t, dir, md, "project_fine.md", enginetest.FreshMemory("fine", "ci runs on tuesdays", "project", "The nightly CI job runs at 02:00 UTC on weekdays."))
	if v.Decision != gate.Allow || len(v.Fired) != 0 {
		t.Errorf("clean write: %s %+v", v.Decision, v.Fired)
	}
}

func index(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Entry %d](e%d.md) — entry %d\n", i, i, i)
	}
	return b.String()
}

func TestIndexCap(t *testing.T) {
	old := index(199)
	dir, md := memFolder(t, map[string]string{"MEMORY.md": old})
	// An entry appended as lines 200-201: the second never loads.
	v := judge(t, dir, md, "MEMORY.md", old+"- [Fresh](fresh.md) — new\n- [Newest](newest.md) — newest\n")
	if v.Decision != gate.Deny || !strings.Contains(v.Reason(), "MEMORY.md would be 201/200 lines") || !strings.Contains(v.Reason(), `"Newest" on line 201`) {
		t.Errorf("own line past the cut: %s %q", v.Decision, v.Reason())
	}
	// An entry added at the top pushes entry 199 past the cut: recorded,
	// allowed by default.
	v = judge(t, dir, md, "MEMORY.md", "- [Top](top.md) — new\n- [Top2](top2.md) — new\n"+old)
	if i := slices.IndexFunc(v.Fired, func(f gate.Fired) bool { return f.Rule == gate.RuleCutOtherLines }); v.Decision != gate.Allow || i < 0 || !strings.Contains(v.Fired[i].Message, "e199.md") {
		t.Errorf("others past the cut: %s %+v", v.Decision, v.Fired)
	}
	// Under the cap: nothing.
	v = judge(t, dir, md, "MEMORY.md", old+"- [Fits](fits.md) — line 200\n")
	if slices.ContainsFunc(v.Fired, func(f gate.Fired) bool { return f.Rule == gate.RuleCutOwnLines || f.Rule == gate.RuleCutOtherLines }) {
		t.Errorf("line 200 fits: %+v", v.Fired)
	}
}

func TestInstructions(t *testing.T) {
	big := strings.Repeat("Use tabs.\n", gate.InstructionMaxChars/10+1)
	v := gate.JudgeInstructions(gate.InstructionInput{Target: gate.Target{Kind: gate.KindInstructions, Path: "/p/CLAUDE.md"}, Before: []byte("Use tabs.\n"), Existed: true, After: []byte(big)})
	if len(v.Fired) != 1 || v.Fired[0].Rule != gate.RuleInstructionSize {
		t.Errorf("growing past the size: %+v", v.Fired)
	}
	v = gate.JudgeInstructions(gate.InstructionInput{Target: gate.Target{Kind: gate.KindInstructions, Path: "/p/CLAUDE.md"}, After: []byte("aws_access_key_id = AKIAQWERTYUIOPASDFGH\n")})
	if v.Decision != gate.Deny {
		t.Errorf("secret in CLAUDE.md: %+v", v)
	}
	pol := gate.DefaultPolicy()
	pol[gate.RuleSecret] = gate.Ask
	v = gate.JudgeInstructions(gate.InstructionInput{Target: gate.Target{Kind: gate.KindInstructions, Path: "/p/CLAUDE.md"}, After: []byte("aws_access_key_id = AKIAQWERTYUIOPASDFGH\n"), Policy: pol})
	if v.Decision != gate.Ask {
		t.Errorf("policy secret: ask, got %s", v.Decision)
	}
}

func TestHeld(t *testing.T) {
	now := time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)
	recs := []gate.Record{
		{Time: now.Add(-30 * time.Hour), Tool: "Write", Path: "/m/a.md", Decision: gate.Deny},
		{Time: now.Add(-2 * time.Hour), Tool: "Write", Path: "/m/b.md", Decision: gate.Deny},
		{Time: now.Add(-1 * time.Hour), Tool: "Edit", Path: "/m/team/MEMORY.md", Decision: gate.Ask},
		{Time: now.Add(-1 * time.Hour), Tool: "Write", Path: "/m/c.md", Decision: gate.Allow},
		{Time: now.Add(-1 * time.Hour), Tool: "Write", Path: "/other/d.md", Decision: gate.Deny},
	}
	if got := gate.HeldLine(recs, now); got != "3 memory writes held today" {
		t.Errorf("HeldLine = %q", got)
	}
	if got := gate.HeldLine(recs[3:4], now); got != "" {
		t.Errorf("HeldLine with nothing held = %q", got)
	}
	var paths []string
	for _, r := range gate.HeldFor(recs, "/m") {
		paths = append(paths, r.Path)
	}
	if fmt.Sprint(paths) != "[/m/team/MEMORY.md /m/b.md /m/a.md]" {
		t.Errorf("HeldFor = %v", paths)
	}
}
