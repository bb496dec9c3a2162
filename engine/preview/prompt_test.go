package preview

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

var fixtureTime = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// loadRoot reads testdata/prompt/<name> into a MapFS standing for "/":
// mtimes come from its "mtimes" file (else fixtureTime), so goldens do not
// depend on checkout times; extra adds files and folders (".git" folders
// cannot be committed inside the repository).
func loadRoot(t testing.TB, name string, extra fstest.MapFS) fstest.MapFS {
	t.Helper()
	dir := filepath.Join("testdata", "prompt", name)
	mtimes := map[string]time.Time{}
	if f, err := os.Open(filepath.Join(dir, "mtimes")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			p, ts, ok := strings.Cut(sc.Text(), " ")
			if !ok || strings.HasPrefix(p, "#") {
				continue
			}
			tm, err := time.Parse(time.RFC3339, ts)
			if err != nil {
				t.Fatalf("mtimes: %v", err)
			}
			mtimes[p] = tm
		}
		f.Close()
	}
	m := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "mtimes" {
			return err
		}
		data, err := os.ReadFile(filepath.Join(dir, p))
		mt, ok := mtimes[p]
		if !ok {
			mt = fixtureTime
		}
		m[p] = &fstest.MapFile{Data: data, ModTime: mt, Mode: 0o644}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

var repoGit = fstest.MapFS{"home/me/repo/.git": {Mode: fs.ModeDir | 0o755}}

func TestPromptGolden(t *testing.T) {
	at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)
	base := Options{HomeDir: "/home/me/.claude", UserHome: "/home/me", Now: now}
	tests := []struct {
		name   string
		mod    func(o *Options)
		checks func(t *testing.T, p Preview)
	}{
		{"session-at", func(o *Options) {
			o.Project, o.At, o.Queries = "/home/me/repo", &at, []string{"can we deploy on friday?"}
		}, func(t *testing.T, p Preview) {
			if len(p.Recalled) == 0 || p.Recalled[0].File != "deploy_freeze.md" || p.Recalled[0].AgeDays != 20 || p.Recalled[0].FreshnessWarning == "" {
				t.Errorf("recalled %+v", p.Recalled)
			}
			if len(p.NotInSession) != 1 || p.NotInSession[0] != "written_later.md" {
				t.Errorf("not in session %v", p.NotInSession)
			}
			if len(p.MissingImports) != 1 || p.MissingImports[0].Path != "/home/me/repo/docs/missing.md" {
				t.Errorf("missing %+v", p.MissingImports)
			}
			// Recall is off by default: MEMORY.md is sent, the pick is not.
			checkRecallState(t, p, false, "default")
		}},
		{"recall-on", func(o *Options) {
			o.Project, o.At, o.Queries = "/home/me/repo", &at, []string{"can we deploy on friday?"}
			o.Getenv = func(k string) string { return map[string]string{RecallEnv: "1"}[k] }
		}, func(t *testing.T, p Preview) {
			checkRecallState(t, p, true, RecallEnv)
		}},
		{"subdir-unapproved", func(o *Options) { o.Project = "/home/me/repo/api" }, func(t *testing.T, p Preview) {
			if p.MemoryDir != "/home/me/.claude/projects/-home-me-repo/memory" {
				t.Errorf("memory dir %s", p.MemoryDir)
			}
			if strings.Contains(p.Text, "Handlers live in api/") || strings.Contains(p.Text, "Excluded by claudeMdExcludes") {
				t.Error("external import or excluded file in the text")
			}
		}},
		{"subdir-approved", func(o *Options) {
			o.Project, o.ClaudeJSONPaths = "/home/me/repo/api", []string{"/home/me/.claude.json"}
		}, func(t *testing.T, p Preview) {
			if !strings.Contains(p.Text, "Handlers live in api/") || !strings.Contains(p.Text, "SKU: stock keeping unit") {
				t.Error("approved external imports not loaded")
			}
		}},
		{"memory-off", func(o *Options) {
			o.Project, o.Getenv = "/home/me/repo", func(k string) string {
				return map[string]string{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}[k]
			}
		}, func(t *testing.T, p Preview) {
			if p.Memory.Enabled || strings.Contains(p.Text, "auto-memory") {
				t.Error("memory should be off")
			}
		}},
		{"claude-mds-off", func(o *Options) {
			o.Project, o.Getenv = "/home/me/repo", func(k string) string {
				return map[string]string{EnvDisableClaudeMds: "1", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}[k]
			}
		}, func(t *testing.T, p Preview) {
			// Nothing loads, not even auto memory forced on; every file
			// is still listed with the reason.
			if p.Text != "" || p.Totals.Tokens != 0 || len(p.Layers) == 0 {
				t.Errorf("text %q, %d tokens, %d layers", p.Text, p.Totals.Tokens, len(p.Layers))
			}
			for _, l := range p.Layers {
				if l.Status == StatusLoaded || l.Status == StatusSkipped && l.Reason != "" && !strings.Contains(l.Reason, EnvDisableClaudeMds) && l.Kind != KindAutoMemory && l.Chars > 0 {
					t.Errorf("layer %s %s: %q", l.Path, l.Status, l.Reason)
				}
			}
			if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, EnvDisableClaudeMds) }) {
				t.Errorf("notes %q do not say why", p.Notes)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := base
			o.Root = loadRoot(t, "basic", repoGit)
			tt.mod(&o)
			p := Build(o)
			tt.checks(t, p)
			var b bytes.Buffer
			WritePreviewReport(&b, p)
			golden.RequireEqual(enginetest.GoldenNamed(t, "prompt_golden/"+tt.name), b.String())
		})
	}
}

// overcapRoot is a home whose MEMORY.md is over both caps, or missing.
func overcapRoot(withIndex bool) fstest.MapFS {
	m := fstest.MapFS{"home/me/big/.keep": {}}
	dir := "home/me/.claude/projects/-home-me-big/memory/"
	var idx strings.Builder
	idx.WriteString("# Memory index\n\n")
	for i := 1; i <= 230; i++ {
		fmt.Fprintf(&idx, "- [note %03d](note_%03d.md) — %s\n", i, i, strings.Repeat("detail ", 16))
		if i <= 12 {
			body := fmt.Sprintf("---\nname: note-%03d\ndescription: Note number %d about the build\nmetadata:\n  type: project\n---\nBuild note %d.\n", i, i, i)
			m[fmt.Sprintf("%snote_%03d.md", dir, i)] = &fstest.MapFile{Data: []byte(body), ModTime: fixtureTime.Add(time.Duration(i) * time.Hour)}
		}
	}
	m[dir+"odd (copy).md"] = &fstest.MapFile{Data: []byte("no frontmatter"), ModTime: fixtureTime}
	if withIndex {
		m[dir+"MEMORY.md"] = &fstest.MapFile{Data: []byte(idx.String()), ModTime: fixtureTime}
	}
	return m
}

func TestPromptGoldenOvercap(t *testing.T) {
	for _, withIndex := range []bool{true, false} {
		name := map[bool]string{true: "overcap", false: "backfill"}[withIndex]
		t.Run(name, func(t *testing.T) {
			p := Build(Options{Root: overcapRoot(withIndex), HomeDir: "/home/me/.claude", Project: "/home/me/big", Now: fixtureTime.AddDate(0, 0, 3)})
			ix := p.MemoryIndex
			if withIndex && (!ix.Truncated || !ix.LinesOver || !ix.CharsOver || ix.LoadedChars > memindex.MaxChars || len(ix.DroppedEntries) == 0) {
				t.Errorf("index %+v", ix.IndexCap)
			}
			if !withIndex && (ix.Backfill == nil || ix.Backfill.Lines != 12 || len(ix.Backfill.Skipped) != 1) {
				t.Errorf("backfill %+v", ix.Backfill)
			}
			var b bytes.Buffer
			WritePreviewReport(&b, p)
			golden.RequireEqual(enginetest.GoldenNamed(t, "prompt_golden/"+name), b.String())
		})
	}
}

// benchRoot is a project with 200 memory files and a 5-deep import chain.
func benchRoot() fstest.MapFS {
	m := fstest.MapFS{"home/me/proj/.git": {Mode: fs.ModeDir | 0o755}}
	m["home/me/proj/CLAUDE.md"] = &fstest.MapFile{Data: []byte("# Project\n@docs/l1.md\n" + strings.Repeat("Some guidance line.\n", 40))}
	for i := 1; i <= 5; i++ {
		m[fmt.Sprintf("home/me/proj/docs/l%d.md", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("Level %d.\n@l%d.md\n%s", i, i+1, strings.Repeat("More text.\n", 30)))}
	}
	dir := "home/me/.claude/projects/-home-me-proj/memory/"
	var idx strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&idx, "- [m%03d](m%03d.md) — memory about topic %d\n", i, i, i)
		body := fmt.Sprintf("---\nname: m%03d\ndescription: Memory about topic %d and deploys\nmetadata:\n  type: %s\n  modified: 2026-10-%02dT10:00:00.000Z\n---\n%s",
			i, i, []string{"user", "feedback", "project", "reference"}[i%4], 1+i%28, strings.Repeat(fmt.Sprintf("Fact %d about the build pipeline.\n", i), 20))
		m[fmt.Sprintf("%sm%03d.md", dir, i)] = &fstest.MapFile{Data: []byte(body), ModTime: fixtureTime.Add(-time.Duration(i) * time.Hour)}
	}
	m[dir+"MEMORY.md"] = &fstest.MapFile{Data: []byte(idx.String())}
	return m
}

func BenchmarkBuildPreview(b *testing.B) {
	root := benchRoot()
	o := Options{Root: root, HomeDir: "/home/me/.claude", UserHome: "/home/me", Project: "/home/me/proj", Now: fixtureTime, Queries: []string{"how does the build pipeline deploy"}}
	p := Build(o)
	if len(p.Recalled) != RecallPickMax || !strings.Contains(p.Text, "Level 4.") || strings.Contains(p.Text, "Level 5.") {
		b.Fatalf("bench project not assembled as expected: %d recalled", len(p.Recalled))
	}
	b.ResetTimer()
	for b.Loop() {
		Build(o)
	}
}

// BenchmarkBuildPreviewDisk is the same project written to a real folder
// and read through os.DirFS, as in production.
func BenchmarkBuildPreviewDisk(b *testing.B) {
	dir := b.TempDir()
	for name, f := range benchRoot() {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if f.Mode.IsDir() {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
		os.Chtimes(p, f.ModTime, f.ModTime)
	}
	root := os.DirFS(dir)
	o := Options{Root: root, HomeDir: "/home/me/.claude", UserHome: "/home/me", Project: "/home/me/proj", Now: fixtureTime, Queries: []string{"how does the build pipeline deploy"}}
	if p := Build(o); len(p.Recalled) != RecallPickMax || !strings.Contains(p.Text, "Level 4.") {
		b.Fatalf("bench project not assembled as expected")
	}
	b.ResetTimer()
	for b.Loop() {
		Build(o)
	}
}

// checkRecallState checks the layers against the recall state: with
// recall off MEMORY.md is in the text and the recalled file is not; with
// it on, the other way round; both states' figures add up either way.
func checkRecallState(t *testing.T, p Preview, on bool, source string) {
	t.Helper()
	r := p.RecallMode
	if r.On != on || r.Source != source || !strings.Contains(r.Selector, "stand-in") {
		t.Errorf("recall mode %+v, want on=%v from %s", r, on, source)
	}
	var index, recalled *Layer
	for i := range p.Layers {
		switch p.Layers[i].Kind {
		case KindAutoMemory:
			index = &p.Layers[i]
		case KindRecalled:
			if p.Layers[i].Status != StatusNotInSession {
				recalled = &p.Layers[i]
			}
		}
	}
	if index == nil || recalled == nil {
		t.Fatalf("index %v recalled %v", index, recalled)
	}
	indexSent, recalledSent := index.Status == StatusLoaded, recalled.Status == StatusLoaded
	if indexSent == on || recalledSent != on {
		t.Errorf("recall on=%v: MEMORY.md %s, recalled %s", on, index.Status, recalled.Status)
	}
	if strings.Contains(p.Text, "(user's auto-memory") == on || strings.Contains(p.Text, "Deploys stop Thursday") != on {
		t.Errorf("recall on=%v: text has MEMORY.md %v, the recalled memory %v", on, strings.Contains(p.Text, "(user's auto-memory"), strings.Contains(p.Text, "Deploys stop Thursday"))
	}
	if r.Off.IndexTokens != index.Tokens || r.OnState.RecalledTokens != recalled.Tokens || r.Off.StartupTokens-r.OnState.StartupTokens != index.Tokens {
		t.Errorf("states off %+v on %+v; index %d recalled %d tokens", r.Off, r.OnState, index.Tokens, recalled.Tokens)
	}
	want := r.Off.StartupTokens
	if on {
		want = r.OnState.StartupTokens + recalled.Tokens
	}
	if p.Totals.Tokens != want {
		t.Errorf("totals %d tokens, want %d", p.Totals.Tokens, want)
	}
}

// A memory folder the caller has just read is used, not read again, when
// the session's memory resolves to it: the preview is the same as when it
// reads the folder itself; a folder read elsewhere is not used.
func TestBuildUsesTheMemoryRead(t *testing.T) {
	root := benchRoot()
	o := Options{Root: root, HomeDir: "/home/me/.claude", UserHome: "/home/me", Project: "/home/me/proj", Now: fixtureTime, Queries: []string{"how does the build pipeline deploy"}}
	want := Build(o)
	dir := want.MemoryIndex.Path[:strings.LastIndexByte(want.MemoryIndex.Path, '/')]
	md, _ := model.ReadMemoryDir(root, model.RootName(dir))
	if len(md.Files) == 0 {
		t.Fatalf("%s: no memory files", dir)
	}
	o.Memory, o.MemoryDir = md, dir
	if got := Build(o); !reflect.DeepEqual(got, want) {
		t.Errorf("with the folder read by the caller the preview differs:\n%s\nwant\n%s", got.Text, want.Text)
	}
	// Used, not read again: a folder without its files gives no recall.
	o.Memory = &model.MemoryDir{Dir: md.Dir, Exists: true}
	if got := Build(o); len(got.Recalled) != 0 || got.MemoryIndex.Exists {
		t.Errorf("the caller's (empty) folder was not used: %d recalled", len(got.Recalled))
	}
	// Read elsewhere: the preview reads its own.
	o.MemoryDir = "/somewhere/else"
	if got := Build(o); !reflect.DeepEqual(got, want) {
		t.Error("a folder read elsewhere was used")
	}
}
