package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// symlinkHome writes the symlinks-out scenario and checks, when the test
// ends, that every target outside the home is byte-identical and every
// link is still the same link.
func symlinkHome(t *testing.T) *hostilehome.Result {
	t.Helper()
	res, err := hostilehome.Write(filepath.Join(t.TempDir(), "home"), hostilehome.SymlinksOut, hostilehome.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for p, want := range res.Targets {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("outside target %s: %v", p, err)
				continue
			}
			sum := sha256.Sum256(data)
			if got := hex.EncodeToString(sum[:]); got != want {
				t.Errorf("outside target %s changed: %q", p, data)
			}
		}
		for rel, target := range res.Links {
			if got, err := os.Readlink(filepath.Join(res.Home, rel)); err != nil || got != target {
				t.Errorf("link %s is now %q (%v), was %q", rel, got, err, target)
			}
		}
		entries, _ := os.ReadDir(filepath.Join(res.Outside, "memdir"))
		if len(entries) != 2 {
			t.Errorf("the outside memory folder now holds %d entries, had 2", len(entries))
		}
	})
	return res
}

var hostileOpts = WriteOptions{Now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}

// wantRefused fails unless err says the write went through a link, or
// that the link (out of the home) was not even read.
func wantRefused(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrSymlinkWrite) && !model.IsLinkNotFollowed(err) {
		t.Errorf("%s: err = %v, want a refusal to write through a symbolic link", what, err)
	}
}

// wantLinkProblem fails unless probs name rel as a link out of the home
// that was not followed.
func wantLinkProblem(t *testing.T, probs []model.Problem, rel string) {
	t.Helper()
	for _, p := range probs {
		if model.IsLinkProblem(p) && strings.Contains(p.File+" "+p.Reason, rel) {
			return
		}
	}
	t.Errorf("no problem names the link %s out of the home: %+v", rel, probs)
}

// A memory file that is a link to a file outside the home is not read
// (issue 27: no reader follows a link out of the home; the store's read
// is the one the memory panes, lint and prune see): the store names it as
// a problem, and no operation writes, renames or removes it.
func TestHostileSymlinkedMemoryFileRefusesWrites(t *testing.T) {
	res := symlinkHome(t)
	dir := filepath.Join(res.Home, res.MemoryDir)
	s, probs := Open(dir, nil)
	if f := s.Memory().File("passwd.md"); f != nil {
		t.Fatalf("the file behind a link out of the home was read: %q", f.Raw())
	}
	wantLinkProblem(t, probs, "passwd.md")
	ops := []struct {
		name string
		run  func() error
	}{
		{"set body", func() error { _, err := s.SetBody("passwd.md", "pwned", hostileOpts); return err }},
		{"set description", func() error { _, err := s.SetDescription("passwd.md", "pwned", hostileOpts); return err }},
		{"retype", func() error { _, err := s.Retype("passwd.md", model.TypeUser, hostileOpts); return err }},
		{"rename", func() error { _, err := s.Rename("passwd.md", "renamed", hostileOpts); return err }},
		{"delete to trash", func() error { _, err := s.Delete("passwd.md", hostileOpts); return err }},
	}
	// The file was not read, so each operation is refused before any
	// write (the link's own write guard is proved by the linked folder
	// opened on its own, below); symlinkHome checks the target is intact.
	for _, op := range ops {
		if err := op.run(); err == nil {
			t.Errorf("%s through a link out of the home succeeded", op.name)
		}
		s.Reload()
	}
	plan := s.PlanPrune(PruneOptions{Now: hostileOpts.Now.Add(400 * 24 * time.Hour)})
	var ids []string
	for _, a := range plan.Actions {
		for _, p := range a.Paths {
			if p == "passwd.md" {
				ids = append(ids, a.ID)
			}
		}
	}
	if len(ids) > 0 {
		_, err := s.Apply(plan, ids, WriteOptions{Now: hostileOpts.Now, Force: true})
		wantRefused(t, "prune "+ids[0], err)
	}
}

// A memory folder that is itself a link outside the home is not read
// when the store knows its home (DirFSIn, as every command and the app
// open it); opened on its own it is its own boundary and is read. Either
// way nothing is created, edited, indexed or journaled in it.
func TestHostileSymlinkedMemoryFolderRefusesWrites(t *testing.T) {
	res := symlinkHome(t)
	dir := filepath.Join(res.Home, "projects", "-home-me-linked", "memory")
	inHome, probs := Open(dir, DirFSIn(res.Home, dir, nil))
	if f := inHome.Memory().File("outside_note.md"); f != nil {
		t.Fatalf("a memory folder linked out of the home was read: %q", f.Raw())
	}
	if len(probs) == 0 || !model.IsLinkProblem(probs[0]) {
		t.Errorf("the link out of the home is not named: %+v", probs)
	}
	s, _ := Open(dir, nil)
	if s.Memory().File("outside_note.md") == nil {
		t.Fatal("the folder opened on its own should be readable")
	}
	_, err := s.Create(NewMemory{Name: "new-one", Type: model.TypeUser, Description: "d", Body: "b"}, hostileOpts)
	wantRefused(t, "create", err)
	_, err = s.SetBody("outside_note.md", "pwned", hostileOpts)
	wantRefused(t, "set body", err)
	_, err = s.Delete("outside_note.md", hostileOpts)
	wantRefused(t, "delete", err)
	_, err = s.RebuildIndex(hostileOpts)
	wantRefused(t, "rebuild index", err)
}

// A link planted after a change (in place of the file, or in the trash)
// stops undo and restore from writing through it.
func TestHostileLinkPlantedBeforeUndoAndRestore(t *testing.T) {
	res := symlinkHome(t)
	dir := filepath.Join(res.Home, res.MemoryDir)
	passwd := filepath.Join(res.Outside, "passwd")

	s, _ := Open(dir, nil)
	if _, err := s.SetBody("feedback_terse.md", "Be very terse.", hostileOpts); err != nil {
		t.Fatal(err)
	}
	plant := func(rel string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(passwd, p); err != nil {
			t.Fatal(err)
		}
	}
	plant("feedback_terse.md")
	s.Reload()
	_, err := s.Undo()
	if err == nil {
		t.Error("undo wrote over a planted link")
	}

	s2, _ := Open(dir, nil)
	if _, err := s2.Delete("project_deploy.md", hostileOpts); err != nil {
		t.Fatal(err)
	}
	items, _, err := s2.ListTrash()
	if err != nil || len(items) == 0 {
		t.Fatalf("trash: %v, %d items", err, len(items))
	}
	plant(items[0].Path)
	s2.Reload()
	_, err = s2.Restore(items[0].Path, hostileOpts)
	wantRefused(t, "restore a planted link from the trash", err)
}
