package model

import (
	"io/fs"
	"reflect"
	"strings"
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
		Files []string
		Index bool
	}
	var rows []row
	for _, s := range got {
		r := row{Kind: s.Kind, Path: s.Path, Index: s.Index != nil}
		for _, f := range s.Files {
			r.Files = append(r.Files, f.Path)
		}
		if s.Label == "" {
			t.Errorf("%s has no label", s.Kind)
		}
		rows = append(rows, r)
	}
	want := []row{
		// Agent memory is not secondary: ListMemoryStores lists it.
		{SecondaryTeam, "/h/projects/-r/memory/team", []string{"t.md"}, true},
		{SecondaryDailyLog, "/h/memory", []string{"2026/11/2026-11-20.md"}, false},
		{SecondarySessionMemory, "/h/sessionMemory.md", []string{"sessionMemory.md"}, false},
		{SecondaryRepoIndex, "/r/.claude/MEMORY.md", nil, true},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("got  %+v\nwant %+v", rows, want)
	}
	none, probs := ReadSecondaryMemory(SecondaryOptions{Root: fstest.MapFS{}, HomeDir: "/h", RepoDir: "/r", MemoryDir: "/m"})
	if len(none) != 0 || len(probs) != 0 {
		t.Errorf("empty tree: %+v %+v", none, probs)
	}
}

// deniedFS refuses to open the names in deny, as a mode-000 file or
// folder does (tests run as root, where chmod stops nothing).
type deniedFS struct {
	fs.FS
	deny map[string]bool
}

func (d deniedFS) Open(name string) (fs.File, error) {
	if d.deny[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.FS.Open(name)
}

// The stores read through the machine's root are named by their absolute
// paths in problems, as everywhere else they are shown.
func TestSecondaryMemoryProblemsAreAbsolute(t *testing.T) {
	fsys := deniedFS{FS: fstest.MapFS{
		"h/sessionMemory.md":               {Data: []byte("notes")},
		"h/agent-memory/reviewer/style.md": {Data: []byte("---\nname: style\n---\n")},
		"h/memory/2026/11/2026-11-20.md":   {Data: []byte("day log")},
		"r/.claude/MEMORY.md":              {Data: []byte("- [A](a.md)\n")},
		"h/projects/-r/memory/team/t.md":   {Data: []byte("t")},
	}, deny: map[string]bool{"h/sessionMemory.md": true, "h/agent-memory/reviewer": true, "h/memory/2026/11": true, "r/.claude/MEMORY.md": true, "h/projects/-r/memory/team": true}}
	_, probs := ReadSecondaryMemory(SecondaryOptions{Root: fsys, HomeDir: "/h", RepoDir: "/r", MemoryDir: "/h/projects/-r/memory"})
	if len(probs) < 3 {
		t.Fatalf("want a problem per unreadable store, got %+v", probs)
	}
	for _, p := range probs {
		if !strings.HasPrefix(p.File, "/") {
			t.Errorf("problem names %q: want the absolute path", p.File)
		}
	}
}
