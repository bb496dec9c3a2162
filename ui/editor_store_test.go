package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/msgs"
)

// awsKey is a made-up AWS access key id the security scan blocks.
const awsKey = "AKIAQZ4XB7WJ2RTLMN5K"

// editWith runs the editor flow on path as the app does, the editor
// writing text into its copy, and returns the model after the save and
// the copy's path.
func editWith(t *testing.T, m Model, path, text string) (Model, string) {
	t.Helper()
	next, open := m.Update(msgs.OpenEditor{Path: path})
	m = next.(Model)
	pm, ok := open().(feed.EditorPrepared)
	if !ok || pm.Err != nil {
		t.Fatalf("prepare %s: %#v", path, pm)
	}
	if err := os.WriteFile(pm.S.Copy, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	next, cmd := m.Update(feed.EditorFinished{S: pm.S})
	return drain(t, next.(Model), cmd), pm.S.Copy
}

// A save from $EDITOR is a journaled change: u undoes it (Memories,
// Index and Health open the editor the same way).
func TestEditorSaveIsUndoable(t *testing.T) {
	t.Parallel()
	m, l := demoModel(t, 120, 40)
	path := memPath(l, "user_role.md")
	orig := readMemory(t, l, "user_role.md")
	m, _ = editWith(t, m, path, orig+"Edited in the editor.\n")
	if got := readMemory(t, l, "user_role.md"); got != orig+"Edited in the editor.\n" || m.statusErr {
		t.Fatalf("after the save: status %q, file:\n%s", m.status, got)
	}
	if !strings.Contains(m.status, "u undoes it") {
		t.Errorf("status %q: the save should say u undoes it", m.status)
	}
	m = press(t, m, "u")
	if got := readMemory(t, l, "user_role.md"); got != orig || m.statusErr {
		t.Errorf("after u: status %q, file:\n%s\nwant it as before the save", m.status, got)
	}
	// MEMORY.md (the Index pane's e) goes the same way.
	ix := readMemory(t, l, "MEMORY.md")
	m, _ = editWith(t, m, memPath(l, "MEMORY.md"), ix+"- one more line\n")
	m = press(t, m, "u")
	if got := readMemory(t, l, "MEMORY.md"); got != ix {
		t.Errorf("MEMORY.md after u:\n%s\nwant it as before the save", got)
	}
}

// A save that adds a secret stops until the user answers: n keeps the
// file as it was and the user's text in the copy the status names; y
// writes it.
func TestEditorSaveGoesThroughTheScan(t *testing.T) {
	t.Parallel()
	m, l := demoModel(t, 120, 40)
	path := memPath(l, "user_role.md")
	orig := readMemory(t, l, "user_role.md")
	secret := orig + "aws key " + awsKey + "\n"
	m, cp := editWith(t, m, path, secret)
	if m.modals.question() == nil || !strings.Contains(screen(m), "y/n") {
		t.Fatalf("a save adding an AWS key did not ask (status %q):\n%s", m.status, screen(m))
	}
	if got := readMemory(t, l, "user_role.md"); got != orig {
		t.Fatalf("the file was written before the answer:\n%s", got)
	}
	m = press(t, m, "n")
	if got := readMemory(t, l, "user_role.md"); got != orig {
		t.Errorf("n: the file changed:\n%s", got)
	}
	if kept, err := os.ReadFile(cp); err != nil || string(kept) != secret || !strings.Contains(m.status, cp) {
		t.Errorf("n: the user's text must stay in %s and the status name it; status %q, read %v", cp, m.status, err)
	}
	os.RemoveAll(filepath.Dir(cp))

	m, cp = editWith(t, m, path, secret)
	m = press(t, m, "y")
	if got := readMemory(t, l, "user_role.md"); got != secret {
		t.Errorf("y: the file was not written:\n%s", got)
	}
	if _, err := os.Stat(cp); err == nil {
		t.Errorf("the copy %s is left after the save", cp)
	}
	m = press(t, m, "u")
	if got := readMemory(t, l, "user_role.md"); got != orig {
		t.Errorf("u after a forced save:\n%s", got)
	}
}

// A new memory (n) opens the editor on it; the create and the save are
// two changes, undone one by one, newest first, twice over.
func TestCreateEditUndoTwice(t *testing.T) {
	// Not parallel: the editor's copies go under this test's own temporary
	// folder (the app prepares one after each create, which no editor
	// runs here).
	t.Setenv("TMPDIR", t.TempDir())
	m, l := demoModel(t, 120, 40)
	ix := readMemory(t, l, "MEMORY.md")
	for round := 1; round <= 2; round++ {
		next, cmd := m.Update(msgs.CreateMemory{Name: "scratch", Type: "project", Description: "a scratch note"})
		m = drain(t, next.(Model), cmd)
		path := memPath(l, "project_scratch.md")
		created, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("round %d: create: %v (status %q)", round, err, m.status)
		}
		m, _ = editWith(t, m, path, string(created)+"Body written in the editor.\n")
		if got, _ := os.ReadFile(path); !strings.Contains(string(got), "Body written in the editor.") {
			t.Fatalf("round %d: save: status %q", round, m.status)
		}
		m = press(t, m, "u")
		if got, _ := os.ReadFile(path); string(got) != string(created) {
			t.Fatalf("round %d: first u should undo the save (status %q):\n%s", round, m.status, got)
		}
		m = press(t, m, "u")
		if _, err := os.Stat(path); err == nil || m.statusErr {
			t.Fatalf("round %d: second u should undo the create (status %q)", round, m.status)
		}
		if got := readMemory(t, l, "MEMORY.md"); got != ix {
			t.Fatalf("round %d: index after both undos:\n%s\nwant:\n%s", round, got, ix)
		}
	}
}

// Prompt's e on a CLAUDE.md: the save is scanned (a secret asks y/n),
// journaled and undone by u like a memory edit, bytes and mtime back.
func TestClaudeMdSaveIsAChange(t *testing.T) {
	t.Parallel()
	m, _ := writableModel(t, 120, 40)
	path := filepath.Join(m.opts.Home.Dir, "CLAUDE.md")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st0, _ := os.Stat(path)
	m = press(t, m, "8")
	m, _ = editWith(t, m, path, string(orig)+"aws key "+awsKey+"\n")
	if m.modals.question() == nil {
		t.Fatalf("a CLAUDE.md save adding an AWS key did not ask (status %q)", m.status)
	}
	m = press(t, m, "n")
	if got, _ := os.ReadFile(path); string(got) != string(orig) {
		t.Fatalf("n: CLAUDE.md changed:\n%s", got)
	}
	m, _ = editWith(t, m, path, string(orig)+"Run make test first.\n")
	if got, _ := os.ReadFile(path); string(got) != string(orig)+"Run make test first.\n" || !strings.Contains(m.status, "u undoes it") {
		t.Fatalf("save: status %q, file:\n%s", m.status, got)
	}
	m = press(t, m, "u")
	st1, _ := os.Stat(path)
	if got, _ := os.ReadFile(path); string(got) != string(orig) || m.statusErr || !st1.ModTime().Equal(st0.ModTime()) {
		t.Fatalf("u: status %q, mtime %v (was %v), file:\n%s", m.status, st1.ModTime(), st0.ModTime(), got)
	}
}
