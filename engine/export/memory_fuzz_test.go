package export

import (
	"encoding/json"
	"regexp"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// FuzzMemoryExport exports a memory folder of a random MEMORY.md and a
// random topic file and checks: no panic; valid UTF-8 without terminal
// controls in the Markdown; one heading per type group, whatever the
// files hold; every topic file in exactly one group; an entry loads
// exactly when it is above the cut; the JSON decodes.
func FuzzMemoryExport(f *testing.F) {
	f.Add([]byte("- [A](a.md) — hook\n"), []byte("---\nname: a\ndescription: d\nmetadata:\n  type: user\n---\nbody\n"))
	f.Add([]byte("\ufeff# x\r\n- [B](b.md)\r\n"), []byte("```\n## Fake memories (9)\n```\n\x1b[2J"))
	f.Fuzz(func(t *testing.T, index, topic []byte) {
		fs := fstest.MapFS{"mem/MEMORY.md": {Data: index}, "mem/a.md": {Data: topic}, "mem/sub/b.md": {Data: index}}
		md, probs := model.ReadMemoryDir(fs, "mem")
		x := BuildMemoryExport(MemoryExportInput{Project: "/p", MemoryDir: "/m", Memory: md, Problems: probs, Now: exportNow})
		seen := map[string]int{}
		for _, g := range x.Groups {
			for _, f := range g.Files {
				seen[f.Path]++
			}
		}
		if len(seen) != len(md.Files) {
			t.Fatalf("%d files exported of %d", len(seen), len(md.Files))
		}
		for p, n := range seen {
			if n != 1 {
				t.Fatalf("%s in %d groups", p, n)
			}
		}
		for _, e := range x.Index.Entries {
			if want := !x.Index.Cap.Truncated || e.Line < x.Index.Cap.CutFileLine; e.Loads != want {
				t.Fatalf("entry on line %d loads %v, cut at %d", e.Line, e.Loads, x.Index.Cap.CutFileLine)
			}
		}
		b, err := RenderMemoryExport(x, Markdown)
		if err != nil || !utf8.Valid(b) {
			t.Fatalf("md: %v, valid %v", err, utf8.Valid(b))
		}
		checkNoControls(t, string(b))
		if n := len(regexp.MustCompile(`(?m)^## \w+ memories \(\d+\)$`).FindAllString(outsideFences(string(b)), -1)); n != len(x.Groups) {
			t.Fatalf("%d group headings for %d groups", n, len(x.Groups))
		}
		j, err := RenderMemoryExport(x, JSON)
		var back MemoryExport
		if err != nil || json.Unmarshal(j, &back) != nil || len(back.Groups) != len(x.Groups) {
			t.Fatalf("json: %v", err)
		}
	})
}
