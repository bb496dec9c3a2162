package inventory

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// A home with agent memory in all three scopes (one over the line cap),
// a folder no definition declares, and subagent meta files (one that is
// not JSON).
func TestStatAgentMemoryAndMetaFiles(t *testing.T) {
	root := t.TempDir()
	home, proj := filepath.Join(root, "h"), filepath.Join(root, "work", "app")
	cwd := `{"type":"user","uuid":"u","cwd":"` + proj + `","sessionId":"s1","message":{"content":"hi"}}` + "\n"
	var long strings.Builder
	for i := range memindex.MaxLines + 5 {
		fmt.Fprintf(&long, "- [M%d](m%d.md) — memory %d\n", i, i, i)
	}
	files := map[string]string{
		"h/agents/planner.md":                                                "---\nname: planner\nmemory: user\n---\n",
		"h/agent-memory/planner/MEMORY.md":                                   "- [Shape](shape.md) — plans\n",
		"h/agent-memory/planner/shape.md":                                    "---\nname: shape\ndescription: d\ntype: user\n---\nx\n",
		"h/agent-memory/gone/old.md":                                         "---\nname: [broken\n---\n",
		"work/app/.git/HEAD":                                                 "ref: refs/heads/main\n",
		"work/app/.claude/agents/reviewer.md":                                "---\nname: reviewer\nmemory: project\n---\n",
		"work/app/.claude/agents/scratch.md":                                 "---\nname: scratch\nmemory: local\n---\n",
		"work/app/.claude/agent-memory/reviewer/MEMORY.md":                   long.String(),
		"work/app/.claude/agent-memory/reviewer/a.md":                        "---\nname: a\ndescription: d\ntype: project\n---\n",
		"work/app/.claude/agent-memory-local/scratch/notes.md":               "---\nname: notes\ndescription: d\ntype: project\n---\n",
		"h/projects/" + model.Slug(proj) + "/s1.jsonl":                       cwd,
		"h/projects/" + model.Slug(proj) + "/s1/subagents/agent-1.jsonl":     cwd,
		"h/projects/" + model.Slug(proj) + "/s1/subagents/agent-1.meta.json": `{"agentType":"reviewer","spawnDepth":1}`,
		"h/projects/" + model.Slug(proj) + "/s1/subagents/agent-2.meta.json": `not json`,
	}
	enginetest.WriteTree(t, root, files)
	h, err := model.OpenHome(home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	r := Stat(Options{Home: h, Root: testroot.New(t), Workers: 1})
	var got []string
	for _, a := range r.AgentMemory {
		got = append(got, fmt.Sprintf("%s@%s files=%d invalid=%d index=%v lines=%d cut=%v defined=%v project=%v",
			a.Agent, a.Scope, a.Files, a.InvalidFiles, a.Index, a.Cap.Lines, a.Cap.Truncated, a.Definition != "", a.Project != ""))
	}
	want := []string{
		"gone@user files=1 invalid=1 index=false lines=0 cut=false defined=false project=false",
		"planner@user files=1 invalid=0 index=true lines=1 cut=false defined=true project=false",
		fmt.Sprintf("reviewer@project files=1 invalid=0 index=true lines=%d cut=true defined=true project=true", memindex.MaxLines+5),
		"scratch@local files=1 invalid=0 index=false lines=0 cut=false defined=true project=true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("agent memory\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.MemoryFiles != 0 || r.MemoryDirs != 0 {
		t.Errorf("agent memory counted as project memory: %d files in %d folders", r.MemoryFiles, r.MemoryDirs)
	}
	if r.SubagentMetaFiles != 2 || r.SubagentTranscripts != 1 {
		t.Errorf("meta files %d subagents %d", r.SubagentMetaFiles, r.SubagentTranscripts)
	}
	var meta, frontmatter int
	for _, p := range r.Malformed {
		switch {
		case strings.HasSuffix(p.File, "agent-2.meta.json"):
			meta++
		case strings.HasSuffix(p.File, "gone/old.md") && strings.HasPrefix(p.File, "/"):
			frontmatter++
		}
	}
	if meta != 1 || frontmatter != 1 || len(r.Malformed) != 2 {
		t.Errorf("want the bad meta file and the bad agent memory (by absolute path) as problems, got %v", r.Malformed)
	}
	// A meta file is not an unknown record type nor a transcript.
	for typ := range r.RecordTypes {
		if strings.Contains(typ, "meta") {
			t.Errorf("record type %q", typ)
		}
	}
}
