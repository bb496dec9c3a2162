package model

import (
	"reflect"
	"testing"
	"testing/fstest"
)

func TestReadSecondaryMemory(t *testing.T) {
	fsys := fstest.MapFS{
		"h/projects/-r/memory/team/MEMORY.md":    {Data: []byte("- [T](t.md) — team\n")},
		"h/projects/-r/memory/team/t.md":         {Data: []byte("---\nname: t\n---\n")},
		"h/agent-memory/reviewer/style.md":       {Data: []byte("---\nname: style\n---\n")},
		"h/agent-memory/.cache/x.md":             {Data: []byte("x")},
		"h/agent-memory/empty/notes.txt":         {Data: []byte("x")},
		"r/.claude/agent-memory/planner/p.md":    {Data: []byte("p")},
		"r/.claude/agent-memory-local/mine/m.md": {Data: []byte("m")},
		"h/memory/2026/11/2026-11-20.md":         {Data: []byte("day log")},
		"h/memory/2026/11/2026-10-20.md":         {Data: []byte("month does not match its folder")},
		"h/memory/2026/11/notes.md":              {Data: []byte("not a daily log")},
		"h/sessionMemory.md":                     {Data: []byte("session notes")},
		"r/.claude/MEMORY.md":                    {Data: []byte("- [A](a.md)\n")},
	}
	got, probs := ReadSecondaryMemory(SecondaryOptions{Root: fsys, HomeDir: "/h", RepoDir: "/r", MemoryDir: "/h/projects/-r/memory"})
	if len(probs) != 0 {
		t.Errorf("problems: %+v", probs)
	}
	type row struct {
		Kind  SecondaryKind
		Path  string
		Agent string
		Files []string
		Index bool
	}
	var rows []row
	for _, s := range got {
		r := row{Kind: s.Kind, Path: s.Path, Agent: s.Agent, Index: s.Index != nil}
		for _, f := range s.Files {
			r.Files = append(r.Files, f.Path)
		}
		if s.Label == "" {
			t.Errorf("%s has no label", s.Kind)
		}
		rows = append(rows, r)
	}
	want := []row{
		{SecondaryTeam, "/h/projects/-r/memory/team", "", []string{"t.md"}, true},
		{SecondaryAgentUser, "/h/agent-memory/reviewer", "reviewer", []string{"style.md"}, false},
		{SecondaryAgentProject, "/r/.claude/agent-memory/planner", "planner", []string{"p.md"}, false},
		{SecondaryAgentLocal, "/r/.claude/agent-memory-local/mine", "mine", []string{"m.md"}, false},
		{SecondaryDailyLog, "/h/memory", "", []string{"2026/11/2026-11-20.md"}, false},
		{SecondarySessionMemory, "/h/sessionMemory.md", "", []string{"sessionMemory.md"}, false},
		{SecondaryRepoIndex, "/r/.claude/MEMORY.md", "", nil, true},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("got  %+v\nwant %+v", rows, want)
	}
	none, probs := ReadSecondaryMemory(SecondaryOptions{Root: fstest.MapFS{}, HomeDir: "/h", RepoDir: "/r", MemoryDir: "/m"})
	if len(none) != 0 || len(probs) != 0 {
		t.Errorf("empty tree: %+v %+v", none, probs)
	}
}
