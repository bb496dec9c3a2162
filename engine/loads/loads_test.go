package loads

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// fixture is a generated home and project: a user CLAUDE.md, a project
// CLAUDE.md importing docs/arch.md (there) and docs/gone.md (not), an
// unconditional rule, a path-scoped rule, a rule no session ever loaded,
// and a MEMORY.md over the 200-line cap whose last entry links a memory
// past the cut. Transcripts: three sessions that record their loads, and
// one older session that records none.
type fixture struct {
	home, proj, slug, mem string
}

// instr is an instructions attachment line for session at t.
func instr(session string, t time.Time, files ...[3]string) string {
	var fs []string
	for _, f := range files {
		b, _ := json.Marshal(map[string]string{"path": f[0], "type": f[1], "content": f[2]})
		fs = append(fs, string(b))
	}
	return fmt.Sprintf(`{"type":"attachment","uuid":"i-%s-%d","parentUuid":"u","sessionId":%q,"timestamp":%q,"attachment":{"type":"instructions","files":[%s]}}`,
		session, t.Unix(), session, t.Format(time.RFC3339Nano), strings.Join(fs, ",")) + "\n"
}

// nested is a nested_memory attachment line.
func nested(session string, t time.Time, path string, globs ...string) string {
	g, _ := json.Marshal(globs)
	return fmt.Sprintf(`{"type":"attachment","uuid":"n-%s-%d","parentUuid":"tr","sessionId":%q,"timestamp":%q,"attachment":{"type":"nested_memory","path":%q,"displayPath":"x","content":{"type":"Project","globs":%s,"rawContent":"Use tabs.","contentDiffersFromDisk":false}}}`,
		session, t.Unix(), session, t.Format(time.RFC3339Nano), path, g) + "\n"
}

func newFixture(t *testing.T) (Options, fixture) {
	t.Helper()
	base := t.TempDir()
	f := fixture{home: filepath.Join(base, "claude"), proj: filepath.Join(base, "work", "app")}
	f.slug = model.Slug(f.proj)
	f.mem = filepath.Join(f.home, "projects", f.slug, "memory")
	var index strings.Builder
	index.WriteString("# Memory\n- [Deploys](deploys.md) — how deploys go\n")
	for i := 3; i <= 200; i++ {
		fmt.Fprintf(&index, "- filler %d\n", i)
	}
	index.WriteString("- [Late](late.md) — past the cut\n")
	enginetest.WriteTree(t, f.home, map[string]string{
		"CLAUDE.md": "Be brief.\n",
		"projects/" + f.slug + "/memory/MEMORY.md":   index.String(),
		"projects/" + f.slug + "/memory/deploys.md":  enginetest.ClientMemory("deploys", "How deploys go", "project", "Tuesdays.\n"),
		"projects/" + f.slug + "/memory/late.md":     enginetest.ClientMemory("late", "Late", "project", "Past the cut.\n"),
		"projects/" + f.slug + "/memory/unlisted.md": enginetest.ClientMemory("unlisted", "Unlisted", "project", "Not in the index.\n"),
	})
	enginetest.WriteTree(t, f.proj, map[string]string{
		"CLAUDE.md":               "# App\n@docs/arch.md\n@docs/gone.md\n",
		"docs/arch.md":            "Layers.\n",
		".claude/rules/always.md": "Always.\n",
		".claude/rules/web.md":    "---\npaths:\n  - web/**/*.tsx\n---\nUse tabs.\n",
		".claude/rules/never.md":  "---\npaths:\n  - db/**/*.sql\n---\nNever loaded.\n",
	})
	// The rules were written 40 days ago; sessions run 20, 10 and 2 days ago.
	old := now.Add(-40 * 24 * time.Hour)
	for _, r := range []string{"always.md", "web.md", "never.md"} {
		os.Chtimes(filepath.Join(f.proj, ".claude/rules", r), old, old)
	}
	memIdx := filepath.Join(f.mem, "MEMORY.md")
	cm, arch, always := filepath.Join(f.proj, "CLAUDE.md"), filepath.Join(f.proj, "docs/arch.md"), filepath.Join(f.proj, ".claude/rules/always.md")
	user := filepath.Join(f.home, "CLAUDE.md")
	loaded := "# Memory\n- [Deploys](deploys.md) — how deploys go\n- filler 3\n"
	day := func(d int) time.Time { return now.Add(-time.Duration(d) * 24 * time.Hour) }
	s1 := instr("s1", day(20), [3]string{user, "User", "Be brief."}, [3]string{cm, "Project", "# App"}, [3]string{arch, "Project", "Layers."},
		[3]string{always, "Project", "Always."}, [3]string{memIdx, "AutoMem", loaded})
	s2 := instr("s2", day(10), [3]string{user, "User", "Be brief."}, [3]string{cm, "Project", "# App"}, [3]string{arch, "Project", "Layers."},
		[3]string{always, "Project", "Always."}, [3]string{memIdx, "AutoMem", loaded + "- [Late](late.md) — was above the cut then\n"}) +
		nested("s2", day(10).Add(time.Minute), filepath.Join(f.proj, ".claude/rules/web.md"), "web/**/*.tsx")
	s3 := instr("s3", day(2), [3]string{user, "User", "Be brief."}, [3]string{cm, "Project", "# App"}, [3]string{arch, "Project", "Layers."},
		[3]string{always, "Project", "Always."}, [3]string{memIdx, "AutoMem", loaded})
	enginetest.WriteTree(t, f.home, map[string]string{
		"projects/" + f.slug + "/s1.jsonl":                    s1,
		"projects/" + f.slug + "/s2.jsonl":                    s2,
		"projects/" + f.slug + "/s3.jsonl":                    s3,
		"projects/" + f.slug + "/s3/subagents/agent-a1.jsonl": instr("s3", day(2).Add(time.Hour), [3]string{user, "User", "Be brief."}),
		"projects/" + f.slug + "/old.jsonl":                   `{"type":"user","uuid":"x","sessionId":"old","message":{"role":"user","content":"hi"}}` + "\n",
	})
	root := testroot.New(t)
	home := model.DirFS(f.home)
	md, _ := model.ReadMemoryDir(home, "projects/"+f.slug+"/memory")
	p := preview.Build(preview.Options{Root: model.MountFS(root, f.home, home), HomeDir: f.home, UserHome: base, Project: f.proj, Now: now})
	return Options{Home: home, HomeDir: f.home, Slug: f.slug, Root: root, Memory: md, MemoryDir: f.mem, Preview: &p, Now: now}, f
}

func fileOf(r Report, p string) *File {
	for i := range r.Files {
		if r.Files[i].Path == p {
			return &r.Files[i]
		}
	}
	return nil
}

func TestBuildGeneratedHome(t *testing.T) {
	o, f := newFixture(t)
	r := Build(o)
	if r.Transcripts != 5 || r.Sessions != 3 || r.SessionsInWindow != 3 || r.Unrecorded != 1 || len(r.Problems) != 0 {
		t.Fatalf("transcripts %d sessions %d in window %d unrecorded %d problems %v", r.Transcripts, r.Sessions, r.SessionsInWindow, r.Unrecorded, r.Problems)
	}
	user := fileOf(r, filepath.Join(f.home, "CLAUDE.md"))
	// The subagent's load counts as a load of session s3, not a session.
	if user == nil || user.Sessions != 3 || user.Loads != 4 || user.Kind != KindClaudeMd || user.Label != "User" || !user.OnDisk ||
		!user.Last.Equal(now.Add(-2*24*time.Hour+time.Hour)) || user.LastSession != "s3" {
		t.Errorf("user CLAUDE.md %+v", user)
	}
	if a := fileOf(r, filepath.Join(f.proj, "docs/arch.md")); a == nil || a.Kind != KindImport || a.Sessions != 3 {
		t.Errorf("import %+v", a)
	}
	web := fileOf(r, filepath.Join(f.proj, ".claude/rules/web.md"))
	if web == nil || web.Kind != KindRule || web.Sessions != 1 || web.MidSession != 1 || len(web.Joins) != 1 || web.Joins[0].Session != "s2" ||
		web.Joins[0].Line != 2 || strings.Join(web.Globs, ",") != "web/**/*.tsx" {
		t.Errorf("path-scoped rule %+v", web)
	}
	if m := fileOf(r, filepath.Join(f.mem, "MEMORY.md")); m == nil || m.Kind != KindMemoryIndex || m.Sessions != 3 {
		t.Errorf("MEMORY.md %+v", m)
	}

	mems := map[string]Memory{}
	for _, m := range r.Memories {
		mems[m.File] = m
	}
	if d := mems["deploys.md"]; d.Sessions != 3 || d.IndexLine != 2 || d.PastCut || !d.Last.Equal(now.Add(-2*24*time.Hour)) {
		t.Errorf("deploys.md %+v", d)
	}
	// late.md was above the cut in s2's MEMORY.md only: past the cut now,
	// unseen since s2.
	if l := mems["late.md"]; l.Sessions != 1 || l.IndexLine != 201 || !l.PastCut || !l.UnseenSince.Equal(now.Add(-10*24*time.Hour)) {
		t.Errorf("late.md %+v", l)
	}
	if u := mems["unlisted.md"]; u.Sessions != 0 || u.IndexLine != 0 || u.PastCut || !u.UnseenSince.IsZero() {
		t.Errorf("unlisted.md %+v", u)
	}

	exp := map[string]Expected{}
	for _, e := range r.Expected {
		exp[strings.TrimPrefix(e.Path, f.proj+"/")] = e
	}
	if e := exp[".claude/rules/always.md"]; e.Kind != KindRule || e.Conditional || e.SessionsInWindow != 3 || e.Eligible != 3 {
		t.Errorf("always.md %+v", e)
	}
	if e := exp[".claude/rules/never.md"]; !e.Conditional || e.SessionsInWindow != 0 || e.Eligible != 3 || !e.Last.IsZero() || strings.Join(e.Globs, ",") != "db/**/*.sql" {
		t.Errorf("never.md %+v", e)
	}
	if e := exp["docs/gone.md"]; e.Kind != KindImport || e.Status != preview.StatusMissing || e.SessionsInWindow != 0 || e.Eligible != 3 || e.Raw != "docs/gone.md" || e.Line != 3 {
		t.Errorf("gone.md %+v", e)
	}
	if e := exp["docs/arch.md"]; e.SessionsInWindow != 3 || e.Eligible != 3 {
		t.Errorf("arch.md %+v", e)
	}

	// Lint: never.md never loaded; gone.md never resolved; nothing else.
	rep := lint.Run(lint.Input{Memory: o.Memory, Now: now, Loads: r.LintFacts()})
	var got []string
	for _, fd := range rep.Findings {
		if fd.Kind == lint.RuleNeverLoaded || fd.Kind == lint.ImportNeverResolved {
			got = append(got, string(fd.Kind)+" "+strings.TrimPrefix(fd.Path, f.proj+"/")+" "+fd.Message)
		}
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "rule-never-loaded .claude/rules/never.md rule never loaded in the last 30 days (3 sessions since it was written; no recorded session ever loaded it): its paths: (db/**/*.sql) matched no file the model read") ||
		!strings.HasPrefix(got[1], "import-never-resolved CLAUDE.md @docs/gone.md: import of "+filepath.Join(f.proj, "docs/gone.md")+" never resolved in the 3 sessions") {
		t.Errorf("findings:\n%s", strings.Join(got, "\n"))
	}

	// Prune's facts: deploys.md listed 2 days ago; late.md 10; unlisted never.
	ml := r.MemoryLoads()
	if ml == nil || !ml.Since.Equal(now.Add(-20*24*time.Hour)) || len(ml.Last) != 2 || !ml.Last["late.md"].Equal(now.Add(-10*24*time.Hour)) {
		t.Errorf("memory loads %+v", ml)
	}
}

// A second build reads only the transcripts that changed; a changed one
// is read again.
func TestCacheRereadsOnlyChanges(t *testing.T) {
	o, f := newFixture(t)
	o.Cache = NewCache()
	first := Build(o)
	// Replace a cached transcript's events behind the cache's back: an
	// unchanged file must come from the cache.
	key := "projects/" + f.slug + "/s1.jsonl"
	c := o.Cache.files[key]
	c.events = nil
	o.Cache.files[key] = c
	if r := Build(o); r.Sessions != first.Sessions-1 {
		t.Fatalf("the unchanged transcript was read again: %d sessions", r.Sessions)
	}
	p := filepath.Join(f.home, filepath.FromSlash(key))
	later := now.Add(time.Hour)
	os.Chtimes(p, later, later)
	if r := Build(o); r.Sessions != first.Sessions {
		t.Errorf("the changed transcript was not read again: %d sessions", r.Sessions)
	}
}

// The real transcripts were recorded under recordedHome: their
// paths map to the home being read, so the copy in testdata/home names
// its own CLAUDE.md and MEMORY.md.
func TestRealTranscriptPathsMapToTheHome(t *testing.T) {
	home, err := filepath.Abs("../../testdata/home")
	if err != nil {
		t.Fatal(err)
	}
	fsys := model.DirFS(home)
	md, _ := model.ReadMemoryDir(fsys, "projects/-tmp-rc-work-beta/memory")
	r := Build(Options{Home: fsys, HomeDir: home, Slug: "-tmp-rc-work-beta", Root: testroot.New(t, home), Memory: md, Now: now})
	// Two transcripts; the interactive session records one load, the
	// print-mode session three (one per run).
	if r.Transcripts != 2 || r.Sessions != 2 || r.Unrecorded != 0 {
		t.Fatalf("transcripts %d sessions %d unrecorded %d", r.Transcripts, r.Sessions, r.Unrecorded)
	}
	user := fileOf(r, home+"/CLAUDE.md")
	if user == nil || user.Loads != 4 || user.Sessions != 2 || !user.OnDisk || len(user.RecordedAs) != 1 || user.RecordedAs[0] != recordedHome+"/CLAUDE.md" {
		t.Errorf("user CLAUDE.md %+v", user)
	}
	if rule := fileOf(r, home+"/rules/user-rule.md"); rule == nil || rule.Kind != KindRule || rule.OnDisk {
		t.Errorf("user rule %+v", rule)
	}
	if p := fileOf(r, testroot.BetaProject+"/CLAUDE.md"); p == nil || p.Kind != KindClaudeMd || p.Label != "Project" || p.OnDisk {
		t.Errorf("project CLAUDE.md %+v", p)
	}
	if m := fileOf(r, home+"/projects/-tmp-rc-work-beta/memory/MEMORY.md"); m == nil || m.Kind != KindMemoryIndex || m.Loads != 4 {
		t.Errorf("MEMORY.md %+v", m)
	}
}

// recordedHome is the Claude home the real transcripts were recorded in
// (beside testroot.BetaProject, the project they ran in).
var recordedHome = path.Join(path.Dir(path.Dir(testroot.BetaProject)), "home", ".claude")
