package feed

import (
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/model"
)

// TestIndexLinkTargetsAgree: for each way of writing an index link, the
// Memories pane's rows, lint (orphans, dangling links) and the memory
// export answer the same: which topic file the line indexes, if any. They
// once normalized targets three ways and disagreed on most of these.
func TestIndexLinkTargetsAgree(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const memDir = "projects/-p/memory"
	files := []string{"a.md", "a b.md", "sub/a.md"}
	for _, c := range []struct {
		target string
		want   string // the file indexed, "" for none
	}{
		{"a.md#top", "a.md"},
		{"<a b.md>", "a b.md"},
		{"a%20b.md", "a b.md"},
		{"a.md?x=1", "a.md"},
		{`sub\a.md`, "sub/a.md"},
		{"./a.md", "a.md"},
		{"../a.md", ""},
		{`a.md "Title"`, "a.md"},
		{"sub/../a.md", "a.md"},
		{"https://example.com/a.md", ""},
	} {
		t.Run(c.target, func(t *testing.T) {
			fsys := fstest.MapFS{memDir + "/MEMORY.md": {Data: []byte("- [Probe](" + c.target + ") — hook\n")}}
			for _, f := range files {
				fsys[memDir+"/"+f] = &fstest.MapFile{Data: []byte("---\nname: " + f + "\ndescription: d\ntype: user\n---\n\nBody.\n"), ModTime: now}
			}
			md, probs := model.ReadMemoryDir(fsys, memDir)
			if len(md.Files) != len(files) {
				t.Fatalf("read %d topic files, want %d (%v)", len(md.Files), len(files), probs)
			}

			msg := loadProject(memSource{fsys: fsys, home: fsys, name: memDir, abs: "/home/" + memDir}, fstest.MapFS{}, md, probs, "-p", "", now, nil, nil, nil)
			var pane []string
			for _, r := range msg.Rows {
				if r.Indexed {
					pane = append(pane, r.File.Path)
				}
				if r.Loaded != r.Indexed {
					t.Errorf("pane: %s indexed %v, loaded %v (the index is within the caps)", r.File.Path, r.Indexed, r.Loaded)
				}
			}

			rep := lint.Run(lint.Input{Memory: md, Problems: probs, Now: now})
			var linted []string
			for _, f := range files {
				if !slices.ContainsFunc(rep.Findings, func(x lint.Finding) bool { return x.Kind == lint.Orphan && x.Path == f }) {
					linted = append(linted, f)
				}
			}
			dangling := slices.ContainsFunc(rep.Findings, func(x lint.Finding) bool { return x.Kind == lint.DanglingLink })

			x := export.BuildMemoryExport(export.MemoryExportInput{Project: "/p", MemoryDir: "/home/" + memDir, Memory: md, Now: now})
			var exported []string
			for _, g := range x.Groups {
				for _, f := range g.Files {
					if f.IndexLine != 0 {
						exported = append(exported, f.Path)
					}
				}
			}
			slices.Sort(exported)
			missing := len(x.Index.Entries) != 1 || x.Index.Entries[0].Missing

			var want []string
			if c.want != "" {
				want = []string{c.want}
			}
			for _, a := range []struct {
				who string
				got []string
			}{{"pane", pane}, {"lint", linted}, {"export", exported}} {
				if !slices.Equal(a.got, want) {
					t.Errorf("%s indexes %q, want %q", a.who, a.got, want)
				}
			}
			if dangling {
				t.Error("lint calls the link dangling, but it names an existing file or none of the folder")
			}
			if missing != (c.want == "") {
				t.Errorf("export: entry missing = %v, want %v", missing, c.want == "")
			}
		})
	}
}
