package memrows_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	"github.com/memscope/memscope/model"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func memFile(typ string, age time.Duration) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("---\nname: x\ndescription: d\ntype: " + typ + "\n---\n\nBody.\n"), ModTime: now.Add(-age)}
}

// readDir reads a MapFS as a memory folder.
func readDir(t *testing.T, files fstest.MapFS) *model.MemoryDir {
	t.Helper()
	md, probs := model.ReadMemoryDir(files, ".")
	if len(probs) > 0 {
		t.Fatalf("reading the folder: %v", probs)
	}
	return md
}

// TestBuildIndexedAndLoaded: a file counts as indexed by the first line
// naming it (lint's rule for orphans), and as loaded when that line is
// within the caps. A file linked above the cut and again below it loads.
func TestBuildIndexedAndLoaded(t *testing.T) {
	var index strings.Builder
	index.WriteString("- [A](./a.md#top) — first link, loads\n")
	for i := 2; i <= memindex.MaxLines; i++ {
		fmt.Fprintf(&index, "filler line %d\n", i)
	}
	index.WriteString("- [B](b.md) — cut off\n- [A again](a.md) — cut off too\n- dee -- seed form, cut off\n")
	md := readDir(t, fstest.MapFS{
		"MEMORY.md": {Data: []byte(index.String())},
		"a.md":      memFile("user", 0),
		"b.md":      memFile("user", 0),
		"c.md":      memFile("user", 0),
		"dee.md":    memFile("user", 0),
	})
	rows := memrows.Build(memrows.Input{Memory: md, Now: now})
	type got struct {
		line            int
		indexed, loaded bool
	}
	want := map[string]got{
		"a.md":   {1, true, true},
		"b.md":   {memindex.MaxLines + 1, true, false},
		"c.md":   {0, false, false},
		"dee.md": {memindex.MaxLines + 3, true, false},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for _, r := range rows {
		if g := (got{r.IndexLine, r.Indexed, r.Loaded}); g != want[r.File.Path] {
			t.Errorf("%s: %+v, want %+v", r.File.Path, g, want[r.File.Path])
		}
	}
	// Lint's orphans are exactly the rows not indexed.
	rep := lint.Run(lint.Input{Memory: md, Now: now})
	for _, r := range rows {
		orphan := slices.ContainsFunc(rep.Findings, func(f lint.Finding) bool { return f.Kind == lint.Orphan && f.Path == r.File.Path })
		if orphan == r.Indexed {
			t.Errorf("%s: indexed %v but lint orphan %v", r.File.Path, r.Indexed, orphan)
		}
	}
}

// TestBuildAgeAndFlags: age and staleness by type and thresholds; flags
// from the lint report, security findings by category, each once.
func TestBuildAgeAndFlags(t *testing.T) {
	md := readDir(t, fstest.MapFS{
		"p.md": memFile("project", 20*24*time.Hour),
		"u.md": memFile("user", 20*24*time.Hour),
	})
	rep := &lint.Report{Findings: []lint.Finding{
		{Kind: lint.Security, Path: "p.md", Category: "secret"},
		{Kind: lint.Duplicate, Path: "p.md"},
		{Kind: lint.Security, Path: "p.md", Category: "secret"},
		{Kind: lint.Stale, Path: "p.md"}, // not a flag: the age badge shows it
		{Kind: lint.Security, Path: "u.md"},
	}}
	rows := memrows.Build(memrows.Input{Memory: md, Now: now, Lint: rep})
	want := map[string]struct {
		stale memindex.Staleness
		flags []string
	}{
		"p.md": {memindex.StalenessStale, []string{"secret", "duplicate"}},
		"u.md": {memindex.StalenessFresh, nil},
	}
	for _, r := range rows {
		w := want[r.File.Path]
		if r.AgeDays != 20 || r.Clock != memindex.ClockMtime || !r.Written.Equal(now.Add(-20*24*time.Hour)) {
			t.Errorf("%s: age %d by %s at %v, want 20 days by mtime", r.File.Path, r.AgeDays, r.Clock, r.Written)
		}
		if r.Staleness != w.stale || !slices.Equal(r.Flags, w.flags) {
			t.Errorf("%s: %s %q, want %s %q", r.File.Path, r.Staleness, r.Flags, w.stale, w.flags)
		}
	}
	lax := memindex.StalenessThresholds{model.TypeProject: {AgingDays: 100, StaleDays: 200}}
	if r := memrows.Build(memrows.Input{Memory: md, Now: now, Staleness: lax}); r[0].Staleness != memindex.StalenessFresh || len(r[0].Flags) != 0 {
		t.Errorf("with lax thresholds and no report: %+v", r[0])
	}
}
