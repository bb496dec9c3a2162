package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// A CLAUDE.md saved from the editor is a change like a memory edit: a
// secret stops it until forced, a file changed meanwhile is not
// overwritten, the save is journaled in the home (nothing is written
// into the project but the file), and undo puts back bytes, mode and
// mtime; changes in the memory folder and in documents are undone
// newest first, wherever they were.
func TestDocumentEditIsAChange(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "claude")
	project := filepath.Join(root, "work", "app")
	doc := filepath.Join(project, "CLAUDE.md")
	old := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	enginetest.WriteTree(t, project, map[string]string{"CLAUDE.md": "# App\n"})
	if err := os.Chmod(doc, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(doc, old, old); err != nil {
		t.Fatal(err)
	}
	mem, _ := openFixture(t, map[string]string{"MEMORY.md": "# Memory\n"})

	before := []byte("# App\n")
	secret := []byte("# App\naws AKIAQZ4XB7WJ2RTLMN5K\n")
	o := WriteOptions{Now: enginetest.OpsNow}
	var blocked *ScanBlockedError
	if _, err := OpenDocument(doc, home, nil).Replace(doc, before, true, secret, o); !errors.As(err, &blocked) {
		t.Fatalf("a secret was saved without asking: %v", err)
	}
	edited := []byte("# App\nUse make test.\n")
	var ce *ConflictError
	if _, err := OpenDocument(doc, home, nil).Replace(doc, []byte("# Other\n"), true, edited, o); !errors.As(err, &ce) {
		t.Fatalf("a file changed meanwhile was overwritten: %v", err)
	}
	ch, err := OpenDocument(doc, home, nil).Replace(doc, before, true, edited, o)
	if err != nil || ch.ID == "" {
		t.Fatalf("save: %v %+v", err, ch)
	}
	if got, _ := os.ReadFile(doc); string(got) != string(edited) {
		t.Fatalf("CLAUDE.md = %q", got)
	}
	if ents, _ := os.ReadDir(project); len(ents) != 1 {
		t.Fatalf("memscope wrote into the project: %v", ents)
	}

	// A memory change after the save: undo takes it back first, then the
	// save.
	later := WriteOptions{Now: enginetest.OpsNow.Add(time.Minute)}
	if _, err := mem.Create(NewMemory{Name: "role", Type: model.TypeUser, Description: "lead"}, later); err != nil {
		t.Fatal(err)
	}
	all := func() []*Store { return append([]*Store{mem}, OpenDocuments(home, nil, nil)...) }
	if n := len(OpenDocuments(home, nil, nil)); n != 1 {
		t.Fatalf("%d document journals, want 1", n)
	}
	if n := len(OpenDocuments(home, nil, func(f string) bool { return f != project })); n != 0 {
		t.Fatalf("keep did not leave the project's journal out: %d", n)
	}
	u1, err := UndoNewest(all())
	if err != nil || !strings.Contains(u1.Summary, "create") {
		t.Fatalf("first undo: %v %q", err, u1.Summary)
	}
	u2, err := UndoNewest(all())
	if err != nil || !strings.Contains(u2.Summary, "CLAUDE.md") {
		t.Fatalf("second undo: %v %q", err, u2.Summary)
	}
	st, err := os.Stat(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(doc); string(got) != string(before) || !st.ModTime().Equal(old) || st.Mode().Perm() != 0o640 {
		t.Fatalf("after undo: %q, mtime %v, mode %v", got, st.ModTime(), st.Mode().Perm())
	}
	if _, err := UndoNewest(all()); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("third undo: %v", err)
	}
}
