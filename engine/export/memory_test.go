package export

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// fxMemFile is a topic file in the client's format, last modified at mod.
func fxMemFile(name, desc, typ string, mod time.Time, body string) *fstest.MapFile {
	return &fstest.MapFile{ModTime: mod, Data: []byte("---\nname: " + name + "\ndescription: " + desc +
		"\nmetadata:\n  node_type: memory\n  type: " + typ + "\n  modified: " + mod.Format(time.RFC3339) + "\n---\n\n" + body + "\n")}
}

// memoryFixture is a memory folder whose MEMORY.md is over the line cap:
// entries 1–4 load, the 201st line (an entry) does not.
func memoryFixture(withIndex bool) fstest.MapFS {
	day := 24 * time.Hour
	fs := fstest.MapFS{
		"mem/user_role.md":       fxMemFile("user-role", "backend lead", "user", exportNow.Add(-400*day), "Deep Go."),
		"mem/feedback_terse.md":  fxMemFile("terse", "short answers", "feedback", exportNow.Add(-1*day), "**Why:** asked.\n**How to apply:** no recap."),
		"mem/project_freeze.md":  fxMemFile("freeze", "merge freeze <script>", "project", exportNow.Add(-20*day), "No merges.\n```\n# not a heading\n```"),
		"mem/reference_docs.md":  fxMemFile("docs", "vendor docs", "reference", exportNow.Add(-3*day), "See the portal."),
		"mem/legacy.md":          {ModTime: exportNow.Add(-10 * day), Data: []byte("no frontmatter\n")},
		"mem/sub/project_old.md": fxMemFile("old", "cut off entry", "project", exportNow.Add(-30*day), "Old."),
	}
	if withIndex {
		var ix strings.Builder
		ix.WriteString("- [User role](user_role.md) — lead\n- [Terse](feedback_terse.md) — short\n- [Freeze](project_freeze.md) — freeze\n- [Gone](missing.md) — dangling\n")
		for i := 5; i <= 200; i++ {
			fmt.Fprintf(&ix, "note %d\n", i)
		}
		ix.WriteString("- [Old](sub/project_old.md) — past the cap\n")
		fs["mem/MEMORY.md"] = &fstest.MapFile{Data: []byte(ix.String())}
	}
	return fs
}

func buildMemoryFixture(t *testing.T, withIndex bool) *MemoryExport {
	t.Helper()
	md, probs := model.ReadMemoryDir(memoryFixture(withIndex), "mem")
	return BuildMemoryExport(MemoryExportInput{Project: "/home/me/app", MemoryDir: "/home/me/.claude/projects/-home-me-app/memory",
		Memory: md, Problems: probs, Now: exportNow})
}

func TestMemoryExport(t *testing.T) {
	x := buildMemoryFixture(t, true)
	var types []string
	for _, g := range x.Groups {
		types = append(types, fmt.Sprintf("%s:%d", g.Type, len(g.Files)))
	}
	if got := strings.Join(types, " "); got != "user:1 feedback:1 project:2 reference:1 untyped:1" {
		t.Errorf("groups %s", got)
	}
	if !x.Index.Cap.Truncated || x.Index.Cap.Lines != 201 || x.Index.Cap.CutFileLine != 201 {
		t.Errorf("cap %+v", x.Index.Cap)
	}
	files := map[string]MemoryFileExport{}
	for _, g := range x.Groups {
		for _, f := range g.Files {
			files[f.Path] = f
		}
	}
	tests := []struct {
		path       string
		age        int
		staleness  memindex.Staleness
		indexLine  int
		indexLoads bool
		warned     bool
	}{
		{"user_role.md", 400, memindex.StalenessStale, 1, true, true},
		{"feedback_terse.md", 1, memindex.StalenessFresh, 2, true, false},
		{"project_freeze.md", 20, memindex.StalenessStale, 3, true, true},
		{"reference_docs.md", 3, memindex.StalenessFresh, 0, false, true},
		{"sub/project_old.md", 30, memindex.StalenessStale, 201, false, true},
		{"legacy.md", 10, memindex.StalenessAging, 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f, ok := files[tt.path]
			if !ok {
				t.Fatalf("not exported")
			}
			if f.AgeDays != tt.age || f.Staleness != tt.staleness || f.IndexLine != tt.indexLine || f.IndexLoads != tt.indexLoads || (f.FreshnessWarning != "") != tt.warned {
				t.Errorf("%+v", f)
			}
		})
	}
	var missing []string
	for _, e := range x.Index.Entries {
		if e.Missing {
			missing = append(missing, e.Target)
		}
	}
	if strings.Join(missing, ",") != "missing.md" {
		t.Errorf("missing targets %v", missing)
	}
}

func TestMemoryExportGolden(t *testing.T) {
	for _, withIndex := range []bool{true, false} {
		x := buildMemoryFixture(t, withIndex)
		name := "memory-index"
		if !withIndex {
			name = "memory-backfill"
		}
		for _, f := range []Format{Markdown, JSON} {
			t.Run(name+"."+string(f), func(t *testing.T) {
				b, err := RenderMemoryExport(x, f)
				if err != nil {
					t.Fatal(err)
				}
				if f == JSON {
					var back MemoryExport
					if err := json.Unmarshal(b, &back); err != nil || back.Schema != MemoryExportSchema || len(back.Groups) != len(x.Groups) {
						t.Fatalf("json: %v", err)
					}
				} else {
					md := string(b)
					rest := outsideFences(md)
					// One heading per type group, and the index cut marked.
					if n := len(regexp.MustCompile(`(?m)^## \w+ memories \(\d+\)$`).FindAllString(rest, -1)); n != len(x.Groups) {
						t.Errorf("%d group headings for %d groups", n, len(x.Groups))
					}
					if withIndex && !strings.Contains(rest, "### Cut off: lines 201–201 (not loaded)") {
						t.Errorf("cut-off not marked")
					}
					if !withIndex && !strings.Contains(rest, "There is no MEMORY.md.") {
						t.Errorf("backfill not said")
					}
					if strings.Contains(rest, "<script>") || strings.Contains(rest, "\n# not a heading") {
						t.Errorf("memory content escaped the fences")
					}
				}
				golden.RequireEqual(enginetest.GoldenNamed(t, "export_golden/"+name+"."+string(f)), b)
			})
		}
	}
	if _, err := RenderMemoryExport(buildMemoryFixture(t, true), HTML); err == nil {
		t.Errorf("html memory export accepted")
	}
}

func TestMemoryExportEmpty(t *testing.T) {
	x := BuildMemoryExport(MemoryExportInput{Project: "/p", Now: exportNow})
	b, err := RenderMemoryExport(x, Markdown)
	if err != nil || !strings.Contains(string(b), "does not exist yet") || !strings.Contains(string(b), "no MEMORY.md and no topic file") {
		t.Errorf("%v\n%s", err, b)
	}
}

func TestExportMemoryStore(t *testing.T) {
	dir := t.TempDir()
	for name, f := range memoryFixture(true) {
		p := dir + "/" + strings.TrimPrefix(name, "mem/")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.ModTime, f.ModTime); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := store.Open(dir, nil)
	b, err := MemoryStore(s, "/home/me/app", JSON, exportNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	var x MemoryExport
	if err := json.Unmarshal(b, &x); err != nil || x.MemoryDir != dir || len(x.Groups) != 5 || !x.Index.Cap.Truncated {
		t.Errorf("%v: dir %q, %d groups, truncated %v", err, x.MemoryDir, len(x.Groups), x.Index.Cap.Truncated)
	}
	if _, err := MemoryStore(nil, "/p", Markdown, exportNow, nil); err == nil {
		t.Errorf("nil store accepted")
	}
	// The user's thresholds (the settings file's staleness) class the
	// files, as the Memories pane does: stale from one day, every type.
	th := memindex.StalenessThresholds{}
	for _, ty := range []model.MemoryType{model.TypeUser, model.TypeFeedback, model.TypeProject, model.TypeReference, model.TypeUntyped} {
		th[ty] = memindex.StalenessLimit{AgingDays: 1, StaleDays: 1}
	}
	b, err = MemoryStore(s, "/home/me/app", JSON, exportNow, th)
	var y MemoryExport
	if err != nil || json.Unmarshal(b, &y) != nil {
		t.Fatal(err)
	}
	staleByDefault, old := 0, 0
	for gi, g := range y.Groups {
		for fi, f := range g.Files {
			if f.AgeDays < 1 {
				continue
			}
			old++
			if f.Staleness != memindex.StalenessStale {
				t.Errorf("%s, %d days old, is %s with stale from 1 day", f.Path, f.AgeDays, f.Staleness)
			}
			if x.Groups[gi].Files[fi].Staleness == memindex.StalenessStale {
				staleByDefault++
			}
		}
	}
	if old == 0 || staleByDefault == old {
		t.Errorf("%d files a day old or more, %d of them stale by the defaults: the fixture cannot tell the thresholds apart", old, staleByDefault)
	}
}
