package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/model"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func setup(t *testing.T) (provgen.Layout, store.FS) {
	t.Helper()
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	return l, store.DirFS(l.MemoryDir)
}

func inbox(t *testing.T, l provgen.Layout, fsys store.FS) (Inbox, State) {
	t.Helper()
	st, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	p := provenance.ForProject(provenance.ProjectOptions{Root: model.DirFS("/"), Home: model.DirFS(l.Home), HomeDir: l.Home, MemoryDir: l.MemoryDir, Tree: l.Project})
	return Build(&p, st), st
}

func paths(in Inbox) []string {
	var out []string
	for _, it := range in.Items {
		out = append(out, it.Path)
	}
	return out
}

func TestInboxListsTheModelsMemoriesNewestFirst(t *testing.T) {
	l, fsys := setup(t)
	in, _ := inbox(t, l, fsys)
	// The hand-written file (reference_dashboards.md) is not the model's;
	// agent memory is not in the project's inbox.
	want := "feedback_terse.md MEMORY.md project_deploy.md user_role.md"
	if got := strings.Join(paths(in), " "); got != want {
		t.Fatalf("inbox = %s, want %s", got, want)
	}
	for _, it := range in.Items {
		if it.Status != StatusNew || !strings.Contains(it.Diff, "+++ b/now/"+it.Path) || it.Origin == nil {
			t.Errorf("%s: status %s, diff %q", it.Path, it.Status, it.Diff)
		}
	}
}

func TestAcceptThenChangeShowsTheDiffSinceTheReview(t *testing.T) {
	l, fsys := setup(t)
	in, st := inbox(t, l, fsys)
	it := in.Find("project_deploy.md")
	st.Accept(it.Path, it.Origin.File().Raw(), now)
	if err := Save(fsys, st); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(l.MemoryDir, Path))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("review.json: %v %v, want mode 0600", info, err)
	}
	in, st = inbox(t, l, fsys)
	if in.Find("project_deploy.md") != nil || in.Reviewed != 1 {
		t.Fatalf("after accept: inbox %v reviewed %d", paths(in), in.Reviewed)
	}
	// The model writes the file again (a new Write in a transcript would
	// say so; here the client's stamp is the record).
	p := filepath.Join(l.MemoryDir, "project_deploy.md")
	data, _ := os.ReadFile(p)
	changed := strings.Replace(string(data), "after the 14:00 freeze.", "after the 15:00 freeze.", 1)
	changed = strings.Replace(changed, "originSessionId: "+provgen.SessionDeploy, "originSessionId: "+provgen.SessionSwept, 1)
	if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ = inbox(t, l, fsys)
	// Changed outside any transcript: not the model's, so not in the inbox.
	if in.Find("project_deploy.md") != nil {
		t.Fatalf("a change with no record of the model is in the inbox")
	}
	_ = st
}

func TestChangedByTheModelSinceTheReview(t *testing.T) {
	l, fsys := setup(t)
	in, st := inbox(t, l, fsys)
	// Accept the terse memory as session 1 left it: the reviewed copy is
	// the body before session 3's Edit.
	it := in.Find("feedback_terse.md")
	before := strings.Replace(string(it.Origin.File().Raw()), "Be terse. Never a recap, even after long tasks.", "Be terse.", 1)
	st.Accept(it.Path, []byte(before), now.AddDate(0, 0, -2))
	if err := Save(fsys, st); err != nil {
		t.Fatal(err)
	}
	in, _ = inbox(t, l, fsys)
	it = in.Find("feedback_terse.md")
	if it == nil || it.Status != StatusChanged || !it.Reviewed.Equal(now.AddDate(0, 0, -2)) {
		t.Fatalf("terse after the model's Edit: %+v", it)
	}
	if !strings.Contains(it.Diff, "-Be terse.\n+Be terse. Never a recap, even after long tasks.") {
		t.Errorf("diff since the review:\n%s", it.Diff)
	}
	if it.Origin.Last.Write == nil || it.Origin.Last.Write.SessionID != provgen.SessionEdit {
		t.Errorf("the change is not attributed to session 3: %+v", it.Origin.Last)
	}
}

func TestRejectIsUndoableAndReturnsToTheInbox(t *testing.T) {
	l, fsys := setup(t)
	s, _ := store.Open(l.MemoryDir, fsys)
	if _, err := s.Delete("user_role.md", store.WriteOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	in, _ := inbox(t, l, fsys)
	if in.Find("user_role.md") != nil {
		t.Fatal("a rejected memory is still in the inbox")
	}
	if _, err := os.Stat(filepath.Join(l.MemoryDir, "user_role.md")); !os.IsNotExist(err) {
		t.Fatalf("user_role.md still there: %v", err)
	}
	s.Reload()
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	in, _ = inbox(t, l, fsys)
	if it := in.Find("user_role.md"); it == nil || it.Status != StatusNew {
		t.Fatalf("after undo: %v", paths(in))
	}
}

func TestStateIsNotMemory(t *testing.T) {
	l, fsys := setup(t)
	before, _ := model.ReadMemoryDir(model.DirFS(l.MemoryDir), ".")
	var st State
	st.Accept("feedback_terse.md", []byte("x"), now)
	if err := Save(fsys, st); err != nil {
		t.Fatal(err)
	}
	after, probs := model.ReadMemoryDir(model.DirFS(l.MemoryDir), ".")
	if len(after.Files) != len(before.Files) || len(after.Other) != len(before.Other) || len(probs) > 0 {
		t.Errorf("review.json changed what the memory folder holds: %d→%d files, %v→%v other, %v", len(before.Files), len(after.Files), before.Other, after.Other, probs)
	}
}

func TestLoadRejectsADamagedState(t *testing.T) {
	l, fsys := setup(t)
	p := filepath.Join(l.MemoryDir, Path)
	os.MkdirAll(filepath.Dir(p), 0o700)
	if err := os.WriteFile(p, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(fsys); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("damaged state: %v", err)
	}
}

func TestMemscopesChangeOnTopOfAnUnreviewedOneStaysInTheInbox(t *testing.T) {
	l, fsys := setup(t)
	s, _ := store.Open(l.MemoryDir, fsys)
	// Rejecting user_role.md drops its index line: memscope changes
	// MEMORY.md, whose model change (the subagent's Edit) was never
	// reviewed.
	if _, err := s.Delete("user_role.md", store.WriteOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	in, st := inbox(t, l, fsys)
	it := in.Find("MEMORY.md")
	if it == nil || it.Origin.Last.Source != provenance.SourceMemscope {
		t.Fatalf("MEMORY.md after memscope's edit: %+v (inbox %v)", it, paths(in))
	}
	st.Accept("MEMORY.md", it.Origin.File().Raw(), now.Add(time.Hour))
	if err := Save(fsys, st); err != nil {
		t.Fatal(err)
	}
	if in, _ = inbox(t, l, fsys); in.Find("MEMORY.md") != nil {
		t.Errorf("accepted MEMORY.md is still in the inbox")
	}
}

// A memory made in memscope (n) is the user's own: it does not wait in
// the inbox, and its origin does not say Claude Code wrote it (memscope
// read its own modified stamp back as the client's).
func TestAMemoryMadeInMemscopeIsNotInTheInbox(t *testing.T) {
	l, fsys := setup(t)
	s, _ := store.Open(l.MemoryDir, fsys)
	ch, err := s.Create(store.NewMemory{Name: "mine", Type: model.TypeUser, Description: "made in memscope", Body: "Mine."}, store.WriteOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	name := ""
	for _, f := range ch.Files {
		if f.Path != "MEMORY.md" {
			name = f.Path
		}
	}
	in, _ := inbox(t, l, fsys)
	if it := in.Find(name); it != nil {
		t.Errorf("%s is in the inbox: %s (%s)", name, it.Origin.Text, it.Origin.Last.Source)
	}
	p := provenance.ForProject(provenance.ProjectOptions{Root: model.DirFS("/"), Home: model.DirFS(l.Home), HomeDir: l.Home, MemoryDir: l.MemoryDir, Tree: l.Project})
	found := false
	for _, o := range p.Origins {
		found = found || o.Path == name
		if o.Path == name && (o.ByModel() || strings.Contains(o.Text, "Claude Code") || !strings.Contains(o.Text, "memscope")) {
			t.Errorf("%s's origin: %q (last %s)", name, o.Text, o.Last.Source)
		}
	}
	if !found {
		t.Fatalf("provenance does not list %s", name)
	}
}

// BuildUndiffed lists the items Build lists, field for field, without
// their diffs: a count from it is Build's.
func TestBuildUndiffedIsBuildWithoutDiffs(t *testing.T) {
	l, fsys := setup(t)
	in, st := inbox(t, l, fsys)
	it := in.Find("project_deploy.md")
	st.Accept(it.Path, []byte("an older reviewed copy\n"), now)
	p := provenance.ForProject(provenance.ProjectOptions{Root: model.DirFS("/"), Home: model.DirFS(l.Home), HomeDir: l.Home, MemoryDir: l.MemoryDir, Tree: l.Project})
	full, lean := Build(&p, st), BuildUndiffed(&p, st)
	if len(full.Items) == 0 || len(full.Items) != len(lean.Items) || full.Reviewed != lean.Reviewed || full.Dir != lean.Dir {
		t.Fatalf("Build %d items (%d reviewed), BuildUndiffed %d (%d)", len(full.Items), full.Reviewed, len(lean.Items), lean.Reviewed)
	}
	changed := false
	for i := range full.Items {
		f, u := full.Items[i], lean.Items[i]
		if f.Diff == "" || u.Diff != "" {
			t.Errorf("%s: Build's diff %q, BuildUndiffed's %q", f.Path, f.Diff, u.Diff)
		}
		changed = changed || f.Status == StatusChanged
		f.Diff = ""
		if f != u {
			t.Errorf("item %d: Build %+v, BuildUndiffed %+v", i, f, u)
		}
	}
	if !changed {
		t.Error("no changed item: the test proves nothing for them")
	}
}
