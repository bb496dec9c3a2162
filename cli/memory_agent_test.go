package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// agentMemoryHome writes a home and a git project /…/work/app with agent
// memory in all three scopes, and an agent (dup) with memory in two.
func agentMemoryHome(t *testing.T, e *env) (home, proj string) {
	t.Helper()
	root := t.TempDir()
	home, proj = filepath.Join(root, "h"), filepath.Join(root, "work", "app")
	mem := func(name, typ string) string {
		return "---\nname: " + name + "\ndescription: about " + name + "\ntype: " + typ + "\n---\n\nBody of " + name + ".\n"
	}
	files := map[string]string{
		"work/app/.git/HEAD":                                      "ref: refs/heads/main\n",
		"h/projects/" + model.Slug(proj) + "/s.jsonl":             `{"type":"user","uuid":"u","cwd":"` + proj + `","sessionId":"s","message":{"content":"hi"}}` + "\n",
		"h/agents/planner.md":                                     "---\nname: planner\nmemory: user\n---\n",
		"h/agent-memory/planner/MEMORY.md":                        "- [Shape](shape.md) — plans\n",
		"h/agent-memory/planner/shape.md":                         mem("plan-shape", "user"),
		"h/agent-memory/dup/MEMORY.md":                            "",
		"work/app/.claude/agents/reviewer.md":                     "---\nname: reviewer\nmemory: project\n---\n",
		"work/app/.claude/agents/scratch.md":                      "---\nname: scratch\nmemory: local\n---\n",
		"work/app/.claude/agent-memory/reviewer/MEMORY.md":        "- [Wrapping](wrapping.md) — wrap errors\n",
		"work/app/.claude/agent-memory/reviewer/wrapping.md":      mem("error-wrapping", "feedback"),
		"work/app/.claude/agent-memory-local/scratch/MEMORY.md":   "- [Notes](notes.md) — notes\n",
		"work/app/.claude/agent-memory-local/scratch/notes.md":    mem("notes", "project"),
		"work/app/.claude/agent-memory-local/scratch/unlinked.md": mem("unlinked", "project"),
		"work/app/.claude/agent-memory-local/dup/MEMORY.md":       "",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.root = testroot.New(t)
	return home, proj
}

// --agent points lint, prune, undo, trash and export --memory at an
// agent's memory, in any scope; the project's memory is untouched.
func TestMemoryCommandsOnAgentMemory(t *testing.T) {
	e, out, errb := testEnv(t)
	home, proj := agentMemoryHome(t, e)
	base := []string{"--home", home, "--project", proj}
	cmd := func(want int, args ...string) string {
		t.Helper()
		out.Reset()
		errb.Reset()
		if code := run(e, append(args, base...)); code != want {
			t.Fatalf("%v: exit %d, want %d: %s%s", args, code, want, out, errb)
		}
		return out.String() + errb.String()
	}

	var lo lintOutput
	if err := json.Unmarshal([]byte(cmd(0, "lint", "--agent", "reviewer", "--json")), &lo); err != nil {
		t.Fatal(err)
	}
	if lo.MemoryDir != filepath.Join(proj, ".claude", "agent-memory", "reviewer") {
		t.Errorf("lint --agent reviewer read %s", lo.MemoryDir)
	}
	for _, f := range lo.Findings {
		if f.Kind == lint.NameMismatch {
			t.Errorf("agent memory is not stamped by the client; no name notes: %+v", f)
		}
	}
	if txt := cmd(0, "lint", "--agent", "planner@user"); !strings.Contains(txt, "memory of agent planner, user scope") || !strings.Contains(txt, filepath.Join(home, "agent-memory", "planner")) {
		t.Errorf("lint --agent planner@user:\n%s", txt)
	}

	local := filepath.Join(proj, ".claude", "agent-memory-local", "scratch")
	before := snapshot(t, local)
	txt := cmd(0, "prune", "--agent", "scratch", "--apply", "--only", "index:unlinked.md")
	after, _ := os.ReadFile(filepath.Join(local, "MEMORY.md"))
	if !strings.Contains(string(after), "(unlinked.md)") {
		t.Fatalf("prune --apply did not index the orphan of the local store:\n%s\n%s", txt, after)
	}
	cmd(0, "undo", "--agent", "scratch@local")
	sameTree(t, "after undo", before, snapshot(t, local))
	if _, err := os.Stat(filepath.Join(home, "projects", model.Slug(proj), "memory", ".memscope")); !os.IsNotExist(err) {
		t.Errorf("the project's memory got a journal: %v", err)
	}

	if md := cmd(0, "export", "--memory", "--agent", "reviewer"); !strings.Contains(md, "wrapping.md") {
		t.Errorf("export --memory --agent reviewer:\n%s", md)
	}
	for sel, want := range map[string]string{
		"dup":           "has memory in several scopes: dup@user, dup@local",
		"reviewer@user": "no such agent memory",
		"nobody":        "there is dup@user, dup@local, planner@user, reviewer@project, scratch@local",
	} {
		if txt := cmd(2, "lint", "--agent", sel); !strings.Contains(txt, want) {
			t.Errorf("--agent %s: %s\nwant %q", sel, txt, want)
		}
	}
	out.Reset()
	errb.Reset()
	if code := run(e, []string{"export", "s", "--agent", "reviewer", "--home", home}); code != 2 || !strings.Contains(errb.String(), "--agent goes with --memory") {
		t.Errorf("export SESSION --agent: exit %d %s", code, errb)
	}
}
