package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// landingFS is the OS's WriteFS that lets "Claude Code" replace (or
// remove) one file by rename at the worst moment: right before memscope's
// own rename, link or exchange touches it, i.e. after every check.
type landingFS struct {
	model.OSWriteFS
	target  string
	content []byte // nil: the external writer removes the file
	landed  bool
}

// landingExchangeFS is landingFS with the OS's exchange and link, the
// way the store writes on Linux.
type landingExchangeFS struct{ *landingFS }

// externalWrite replaces path the way Claude Code does (temp + rename), or
// removes it when data is nil.
func externalWrite(path string, data []byte) {
	if data == nil {
		os.Remove(path)
		return
	}
	tmp := fmt.Sprintf("%s.tmp.%d.ext", path, os.Getpid())
	if err := os.WriteFile(tmp, data, 0o600); err == nil {
		os.Rename(tmp, path)
	}
}

// TestExternalWriteBetweenCheckAndRename lands a concurrent write in the
// window between the store's last check and its rename, for each kind of
// change. With an atomic exchange the store notices, puts the other
// write back and refuses with a ConflictError: the folder is then exactly
// what the external writer left, with no journal entry and no leftovers.
func TestExternalWriteBetweenCheckAndRename(t *testing.T) {
	if !osExchangeSupported {
		t.Skip("no atomic exchange (RENAME_EXCHANGE) on this OS: the store cannot see a write in this window here, and production takes the plain rename")
	}
	external := []byte(enginetest.ClientMemory("external", "Written by Claude Code meanwhile", "project", "Claude Code wrote this while memscope was writing.\n"))
	cases := []struct {
		name   string
		target string // file the external writer replaces
		gone   bool   // the external writer removes it instead
		op     func(s *Store, o WriteOptions) (Change, error)
	}{
		{"edit a body", "feedback_terse.md", false, func(s *Store, o WriteOptions) (Change, error) {
			return s.SetBody("feedback_terse.md", "Answer in one line.\n", o)
		}},
		{"edit a body of a file removed meanwhile", "user_role.md", true, func(s *Store, o WriteOptions) (Change, error) {
			return s.SetBody("user_role.md", "Go and SQL.\n", o)
		}},
		{"create a memory whose name appears meanwhile", "project_brand_new.md", false, func(s *Store, o WriteOptions) (Change, error) {
			return s.Create(NewMemory{Name: "brand_new", Type: model.MemoryType("project"), Description: "New", Body: "New.\n"}, o)
		}},
		{"delete a memory replaced meanwhile", "user_role.md", false, func(s *Store, o WriteOptions) (Change, error) {
			return s.Delete("user_role.md", o)
		}},
		{"rename rewriting a link in a file replaced meanwhile", "project_freeze.md", false, func(s *Store, o WriteOptions) (Change, error) {
			return s.Rename("feedback_terse.md", "concise", o)
		}},
		{"rebuild the index replaced meanwhile", "MEMORY.md", false, func(s *Store, o WriteOptions) (Change, error) {
			return s.RebuildIndex(o)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			enginetest.WriteTree(t, dir, opsFixture())
			lfs := &landingFS{target: filepath.Join(dir, tc.target), content: external}
			if tc.gone {
				lfs.content = nil
			}
			s, _ := Open(dir, DirFSWith(dir, landingExchangeFS{lfs}))
			want := enginetest.ReadTree(t, dir)
			if tc.gone {
				delete(want, tc.target)
			} else {
				want[tc.target] = string(external)
			}
			ch, err := tc.op(s, WriteOptions{Now: enginetest.OpsNow})
			if !lfs.landed {
				t.Fatalf("the external write never landed (change %q touched %v): the case tests nothing", ch.Summary, ch.Files)
			}
			var ce *ConflictError
			if !errors.As(err, &ce) || ce.Path != tc.target {
				t.Fatalf("err = %v, want a ConflictError on %s", err, tc.target)
			}
			if d := enginetest.DiffTrees(want, enginetest.ReadTree(t, dir)); d != "" {
				t.Errorf("the folder is not what the external writer left:\n%s", d)
			}
			if entries, _, err := s.Journal(); err != nil || len(entries) != 0 {
				t.Errorf("journal after a refused change: %d entries, err %v; want none", len(entries), err)
			}
		})
	}
}

// TestPlainRenameStillHasTheWindow documents what remains where there is
// no atomic exchange (other systems, a file system that refuses it): the
// check happens right before the rename, but a write landing in between
// is overwritten. It also shows landingFS really hits the window.
func TestPlainRenameStillHasTheWindow(t *testing.T) {
	dir := t.TempDir()
	enginetest.WriteTree(t, dir, opsFixture())
	external := []byte(enginetest.ClientMemory("external", "Written meanwhile", "project", "lost\n"))
	lfs := &landingFS{target: filepath.Join(dir, "feedback_terse.md"), content: external}
	s, _ := Open(dir, DirFSWith(dir, lfs))
	if _, err := s.SetBody("feedback_terse.md", "Answer in one line.\n", WriteOptions{Now: enginetest.OpsNow}); err != nil {
		t.Fatalf("SetBody: %v", err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "feedback_terse.md"))
	if !lfs.landed || string(got) == string(external) || !strings.Contains(string(got), "Answer in one line.") {
		t.Fatalf("landed %v; file now:\n%s\nwant memscope's version over the lost external one (the documented window)", lfs.landed, got)
	}
}

// TestStoreUnderConcurrentRenameWriter edits a memory file over and over
// while another goroutine replaces it (and MEMORY.md) by rename as fast
// as it can. Every edit either succeeds or is refused with a
// ConflictError; nothing else goes wrong, no temporary file is left, the
// file is always one whole version, and the journal holds exactly the
// edits that succeeded.
func TestStoreUnderConcurrentRenameWriter(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	enginetest.WriteTree(t, dir, opsFixture())
	s, _ := Open(dir, nil)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			externalWrite(filepath.Join(dir, "feedback_terse.md"), []byte(enginetest.ClientMemory("terse", "Short answers", "feedback", fmt.Sprintf("external version %d\n", i))))
			if i%5 == 0 {
				externalWrite(filepath.Join(dir, "MEMORY.md"), []byte(fmt.Sprintf("- [feedback_terse](feedback_terse.md) — external %d\n", i)))
			}
		}
	}()
	var ok, conflicts int
	for i := range testenv.Size(t, 300, 100) {
		s.Reload()
		var err error
		if i%3 == 2 {
			_, err = s.AddIndexEntry("user_role.md", WriteOptions{Now: enginetest.OpsNow})
		} else {
			_, err = s.SetBody("feedback_terse.md", fmt.Sprintf("memscope version %d\n", i), WriteOptions{Now: enginetest.OpsNow})
		}
		var ce *ConflictError
		switch {
		case err == nil:
			ok++
		case errors.As(err, &ce):
			conflicts++
		case i%3 == 2 && strings.Contains(err.Error(), "is already in the index"):
			// The writer did not replace MEMORY.md since the last add:
			// a right answer on what memscope read, nothing written.
		default:
			t.Fatalf("edit %d: %v (want success or a ConflictError)", i, err)
		}
	}
	close(stop)
	wg.Wait()
	tree := enginetest.ReadTree(t, dir)
	for rel, content := range tree {
		if strings.Contains(rel, ".memscope-") || strings.Contains(rel, ".tmp.") {
			t.Errorf("left behind: %s", rel)
		}
		if rel == "feedback_terse.md" && !strings.Contains(content, "external version") && !strings.Contains(content, "memscope version") {
			t.Errorf("feedback_terse.md is no whole version:\n%s", content)
		}
	}
	entries, _, err := s.Journal()
	// The journal keeps the last journal.MaxEntries changes: with more
	// edits landing (the long run on a tmpfs landed 142) it holds those.
	if want := min(ok, journal.MaxEntries); err != nil || len(entries) != want {
		t.Errorf("journal: %d entries (err %v), %d edits succeeded, want %d kept", len(entries), err, ok, want)
	}
	t.Logf("%d edits written, %d refused as conflicts", ok, conflicts)
}

func (l *landingFS) land(names ...string) {
	for _, n := range names {
		if !l.landed && n == l.target {
			l.landed = true
			externalWrite(l.target, l.content)
		}
	}
}

func (l *landingFS) Rename(from, to string) error {
	l.land(from, to)
	return l.OSWriteFS.Rename(from, to)
}

func (l landingExchangeFS) Exchange(a, b string) error {
	l.land(a, b)
	return osExchange(a, b)
}

func (l landingExchangeFS) Link(o, n string) error {
	l.land(n)
	return os.Link(o, n)
}
