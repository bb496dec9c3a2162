package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// fileMeta is what a file's age and access depend on besides its bytes.
type fileMeta struct {
	mtime time.Time
	mode  fs.FileMode
}

func statMeta(t *testing.T, p string) fileMeta {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fileMeta{st.ModTime(), st.Mode().Perm()}
}

// setMeta gives p an mtime days old (at second precision, as every file
// system keeps at least) and a mode.
func setMeta(t *testing.T, p string, daysOld int, mode fs.FileMode) fileMeta {
	t.Helper()
	mt := time.Now().Add(-time.Duration(daysOld) * 24 * time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return statMeta(t, p)
}

func sameMeta(a, b fileMeta) bool { return a.mtime.Equal(b.mtime) && a.mode == b.mode }

// Undo, a restore from the trash and a move put back a file's mtime and
// mode exactly: the client's staleness, its "N days old" note and the
// cleanup forecast read the mtime, so a restored file must not look new.
// A change's own new content gets the time of the write.
func TestChangesKeepMtimeAndMode(t *testing.T) {
	t.Parallel()
	now := func() WriteOptions { return WriteOptions{Now: time.Now()} }
	cases := []struct {
		name string
		op   func(t *testing.T, s *Store, dir string)
	}{
		{"delete then undo", func(t *testing.T, s *Store, dir string) {
			mustChange(t)(s.Delete("user_role.md", now()))
			mustChange(t)(s.Undo())
		}},
		{"delete then restore from the trash", func(t *testing.T, s *Store, dir string) {
			mustChange(t)(s.Delete("user_role.md", now()))
			items, _, err := s.ListTrash()
			if err != nil || len(items) != 1 {
				t.Fatalf("trash %+v, %v", items, err)
			}
			mustChange(t)(s.Restore(items[0].Path, now()))
		}},
		{"edit then undo", func(t *testing.T, s *Store, dir string) {
			mustChange(t)(s.SetBody("user_role.md", "Shallow Go.\n", now()))
			mustChange(t)(s.Undo())
		}},
		{"retype then undo", func(t *testing.T, s *Store, dir string) {
			mustChange(t)(s.Retype("user_role.md", model.TypeProject, now()))
			mustChange(t)(s.Undo())
		}},
		{"rename then undo", func(t *testing.T, s *Store, dir string) {
			mustChange(t)(s.Rename("user_role.md", "lead", now()))
			mustChange(t)(s.Undo())
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := openFixture(t, opsFixture())
			p := filepath.Join(dir, "user_role.md")
			want := setMeta(t, p, 45, 0o600)
			s.Reload()
			tc.op(t, s, dir)
			if got := statMeta(t, p); !sameMeta(got, want) {
				t.Errorf("user_role.md afterwards: mtime %v mode %v, want %v %v as before", got.mtime, got.mode, want.mtime, want.mode)
			}
		})
	}
	// The trash keeps the deleted file's mtime and mode too.
	s, dir := openFixture(t, opsFixture())
	want := setMeta(t, filepath.Join(dir, "user_role.md"), 45, 0o600)
	s.Reload()
	ch := mustChange(t)(s.Delete("user_role.md", now()))
	for _, f := range ch.Files {
		if strings.HasPrefix(f.Path, TrashDir+"/") && strings.HasSuffix(f.Path, "/user_role.md") {
			if got := statMeta(t, filepath.Join(dir, filepath.FromSlash(f.Path))); !sameMeta(got, want) {
				t.Errorf("in the trash: %v %v, want %v %v", got.mtime, got.mode, want.mtime, want.mode)
			}
		}
	}
	// An edit's own content is new: its mtime is the write's.
	start := time.Now().Add(-time.Second)
	mustChange(t)(s.SetBody("feedback_terse.md", "Shorter.\n", now()))
	if got := statMeta(t, filepath.Join(dir, "feedback_terse.md")); got.mtime.Before(start) {
		t.Errorf("edited file's mtime %v is older than the edit (%v)", got.mtime, start)
	}
}

func mustChange(t *testing.T) func(Change, error) Change {
	return func(ch Change, err error) Change {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
}

// After prune applies (stale memories archived, index rewritten) and is
// undone, every memory is as stale as before: undo puts back mtimes.
func TestPruneUndoKeepsStaleness(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"MEMORY.md":         "# Memory\n\n- [Old](project_old.md) — old\n- [Older](project_older.md) — older\n- [Role](user_role.md) — lead\n",
		"project_old.md":    enginetest.Typed("old", "project", "An old project fact", "Old.\n"),
		"project_older.md":  enginetest.Typed("older", "project", "An older project fact", "Older.\n"),
		"user_role.md":      enginetest.Typed("role", "user", "Backend lead", "Go.\n"),
		"feedback_terse.md": enginetest.Typed("terse", "feedback", "Short answers", "Brief.\n"),
	}
	s, dir := openFixture(t, files)
	for rel, days := range map[string]int{"project_old.md": 120, "project_older.md": 400, "user_role.md": 3, "feedback_terse.md": 90} {
		setMeta(t, filepath.Join(dir, rel), days, 0o644)
	}
	s.Reload()
	now := time.Now()
	stale := func() map[string]memindex.Staleness {
		s.Reload()
		out := map[string]memindex.Staleness{}
		for _, f := range s.Memory().Files {
			out[f.Path] = memindex.DefaultStaleness().Age(f, now).Staleness
		}
		return out
	}
	before := stale()
	nStale := 0
	for _, st := range before {
		if st == memindex.StalenessStale {
			nStale++
		}
	}
	if nStale == 0 {
		t.Fatalf("fixture has no stale memory: %v", before)
	}
	p := s.PlanPrune(PruneOptions{Now: now})
	if _, err := s.Apply(p, nil, WriteOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	if got := stale(); len(got) == len(before) {
		t.Fatalf("prune archived nothing: %v", got)
	}
	mustChange(t)(s.Undo())
	after := stale()
	for rel, st := range before {
		if after[rel] != st {
			t.Errorf("%s: %s before prune, %s after its undo", rel, st, after[rel])
		}
	}
}

// A memory restored from the trash gets its index line back as it was
// and where it was, not a line rebuilt from the file at the end.
func TestRestorePutsTheIndexLineBack(t *testing.T) {
	t.Parallel()
	index := "- [User role](user_role.md) — who I work with\n" +
		"- [feedback_terse](feedback_terse.md) — short answers\n\n## Projects\n\n" +
		"- [Merge freeze](./project_freeze.md) — no merges 2026-12-03 → 2026-12-10\n"
	files := opsFixture()
	files["MEMORY.md"] = index
	for _, tc := range []struct {
		name, file string
		// meanwhile edits the index between the delete and the restore;
		// want is the index after the restore.
		meanwhile func(string) string
		want      string
	}{
		{"first line", "user_role.md", nil, index},
		{"line in a section", "project_freeze.md", nil, index},
		{"index grew above it meanwhile", "project_freeze.md",
			func(ix string) string { return "# Memory\n\n" + ix },
			"# Memory\n\n" + index},
		{"its neighbour left meanwhile", "user_role.md",
			func(ix string) string {
				return strings.Replace(ix, "- [feedback_terse](feedback_terse.md) — short answers\n", "", 1)
			},
			strings.Replace(index, "- [feedback_terse](feedback_terse.md) — short answers\n", "", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := openFixture(t, files)
			mustChange(t)(s.Delete(tc.file, WriteOptions{Now: enginetest.OpsNow}))
			if tc.meanwhile != nil {
				ix, _ := os.ReadFile(filepath.Join(dir, model.MemoryIndexName))
				enginetest.WriteTree(t, dir, map[string]string{model.MemoryIndexName: tc.meanwhile(string(ix))})
				s.Reload()
			}
			items, _, err := s.ListTrash()
			if err != nil || len(items) != 1 {
				t.Fatalf("trash %+v, %v: want only the deleted memory listed", items, err)
			}
			mustChange(t)(s.Restore(items[0].Path, WriteOptions{Now: enginetest.OpsNow.Add(time.Hour)}))
			got, _ := os.ReadFile(filepath.Join(dir, model.MemoryIndexName))
			if string(got) != tc.want {
				t.Errorf("index after restore:\n%s\nwant:\n%s", got, tc.want)
			}
			tree := enginetest.ReadTree(t, dir)
			for rel := range tree {
				if strings.HasPrefix(rel, TrashDir+"/") {
					t.Errorf("left in the trash after the restore: %s", rel)
				}
			}
		})
	}
}

// An editor's save is one journaled change: checked against the content
// the editor started from, scanned (a high finding it adds blocks it
// unless forced), and undone by Undo.
func TestReplaceIsJournaled(t *testing.T) {
	t.Parallel()
	s, dir := openFixture(t, opsFixture())
	p := filepath.Join(dir, "user_role.md")
	before, _ := os.ReadFile(p)
	edited := append(append([]byte{}, before...), "Edited in $EDITOR.\n"...)
	ch := mustChange(t)(s.Replace(p, before, true, edited, WriteOptions{Now: enginetest.OpsNow}))
	if ch.ID == "" || ch.Op != OpEdit || !strings.Contains(ch.Diff, "+Edited in $EDITOR.") {
		t.Errorf("change %+v: want a journaled edit with its diff", ch)
	}
	if got, _ := os.ReadFile(p); string(got) != string(edited) {
		t.Fatalf("file after the save: %q", got)
	}
	mustChange(t)(s.Undo())
	if got, _ := os.ReadFile(p); string(got) != string(before) {
		t.Errorf("file after undo: %q, want it as before the save", got)
	}
	// The check is against what the editor started from: a file changed
	// meanwhile is left alone.
	_, err := s.Replace(p, []byte("what the editor started from\n"), true, edited, WriteOptions{Now: enginetest.OpsNow})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Errorf("save over a file changed meanwhile: %v, want a ConflictError", err)
	}
	// A secret the edit adds blocks the write until forced.
	secret := append(append([]byte{}, before...), "key AKIAQZ4XB7WJ2RTLMN5K\n"...)
	_, err = s.Replace(p, before, true, secret, WriteOptions{Now: enginetest.OpsNow})
	var blocked *ScanBlockedError
	if !errors.As(err, &blocked) {
		t.Fatalf("save adding an AWS key: %v, want a ScanBlockedError", err)
	}
	if got, _ := os.ReadFile(p); string(got) != string(before) {
		t.Errorf("a blocked save wrote the file: %q", got)
	}
	if entries, _, _ := s.Journal(); len(entries) != 0 {
		t.Errorf("a blocked save is journaled: %+v", entries)
	}
	mustChange(t)(s.Replace(p, before, true, secret, WriteOptions{Now: enginetest.OpsNow, Force: true}))
	if got, _ := os.ReadFile(p); string(got) != string(secret) {
		t.Errorf("a forced save did not write: %q", got)
	}
	// Only the files the client reads as memory go through the store.
	if _, err := s.Replace(filepath.Join(dir, journal.Path), nil, false, []byte("x"), WriteOptions{Now: enginetest.OpsNow}); err == nil {
		t.Error("Replace wrote the journal")
	}
}

// Create, then edit the new file, twice over: every step is undone in
// turn, newest first, and the folder ends as it began.
func TestCreateEditUndoInOrder(t *testing.T) {
	t.Parallel()
	s, dir := openFixture(t, opsFixture())
	start := enginetest.ReadTree(t, dir)
	at := enginetest.OpsNow
	var states []map[string]string
	for _, name := range []string{"first", "second"} {
		ch := mustChange(t)(s.Create(NewMemory{Name: name, Type: model.TypeProject, Description: "note " + name}, WriteOptions{Now: at}))
		states = append(states, enginetest.ReadTree(t, dir))
		var created string
		for _, f := range ch.Files {
			if f.Action == FileCreated {
				created = filepath.Join(dir, filepath.FromSlash(f.Path))
			}
		}
		before, _ := os.ReadFile(created)
		at = at.Add(time.Minute)
		mustChange(t)(s.Replace(created, before, true, append(before, "Body of "+name+".\n"...), WriteOptions{Now: at}))
		states = append(states, enginetest.ReadTree(t, dir))
		at = at.Add(time.Minute)
	}
	states = append([]map[string]string{start}, states...)
	for i := len(states) - 2; i >= 0; i-- {
		mustChange(t)(s.Undo())
		if d := enginetest.DiffTrees(states[i], enginetest.ReadTree(t, dir)); d != "" {
			t.Fatalf("after undo %d:\n%s", len(states)-1-i, d)
		}
	}
	if _, err := s.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("one undo too many: %v", err)
	}
}

// A stale memory prune deletes to the trash comes back with its index
// line too.
func TestRestoreAfterPruneDelete(t *testing.T) {
	t.Parallel()
	files := opsFixture()
	s, dir := openFixture(t, files)
	setMeta(t, filepath.Join(dir, "project_freeze.md"), 400, 0o644)
	s.Reload()
	p := s.PlanPrune(PruneOptions{Now: enginetest.OpsNow, StaleAction: PruneDelete})
	mustChange(t)(s.Apply(p, []string{"delete:project_freeze.md"}, WriteOptions{Now: enginetest.OpsNow}))
	items, _, err := s.ListTrash()
	if err != nil || len(items) != 1 {
		t.Fatalf("trash %+v, %v", items, err)
	}
	mustChange(t)(s.Restore(items[0].Path, WriteOptions{Now: enginetest.OpsNow}))
	if got, _ := os.ReadFile(filepath.Join(dir, model.MemoryIndexName)); string(got) != files["MEMORY.md"] {
		t.Errorf("index after restore:\n%s\nwant:\n%s", got, files["MEMORY.md"])
	}
}
