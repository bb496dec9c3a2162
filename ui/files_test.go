package ui

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// filehistModel runs the app on a fresh generated home with one session
// of file history (internal/filehistgen).
func filehistModel(t *testing.T, w, h int) (Model, filehistgen.Layout) {
	t.Helper()
	return filehistModelWith(t, w, h, nil)
}

// filehistModelWith is filehistModel with writes going through writes.
func filehistModelWith(t *testing.T, w, h int, writes model.WriteFS) (Model, filehistgen.Layout) {
	t.Helper()
	l, err := filehistgen.Write(t.TempDir(), filehistStart)
	if err != nil {
		t.Fatal(err)
	}
	return filehistModelAt(t, l, w, h, writes), l
}

// filehistStart is when the generated file-history session starts.
var filehistStart = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// filehistModelAt runs the app on the file-history home generated at l.
func filehistModelAt(t *testing.T, l filehistgen.Layout, w, h int, writes model.WriteFS) Model {
	t.Helper()
	home := &model.Home{Dir: l.Home, FS: os.DirFS(l.Home), Source: model.HomeFromFlag}
	m := New(Options{Home: home, Now: func() time.Time { return testNow }, Root: testroot.New(t, sharedDirs(t, l.Home, l.CWD)...),
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}, Writes: writes})
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model)
}

// toReadmeVersions goes from a turn's files (the first turn, as enter
// enter on the Files pane opens it) to README.md's versions, trying the
// files in order.
func toReadmeVersions(t *testing.T, m Model) Model {
	t.Helper()
	for i := 0; ; i++ {
		m = press(t, m, "enter")
		if strings.Contains(screen(m), "a/README.md@v") {
			break
		}
		if i == 5 {
			t.Fatalf("no way to README.md's versions:\n%s", screen(m))
		}
		m = press(t, m, "esc", "down")
	}
	return m
}

// TestFilesPaneRestoreAndUndo drives the Files pane through the root the
// way a person would: open the session, a turn, a file, a version;
// restore it with confirmation; then undo with u. The file on disk holds
// the version after the restore and its old bytes after the undo.
func TestFilesPaneRestoreAndUndo(t *testing.T) {
	m, l := filehistModel(t, 120, 40)

	// This home has no history.jsonl (nothing typed yet): loading ends
	// all the same, without an error.
	if len(m.loading) != 0 || m.statusErr {
		t.Fatalf("still loading %v, status %q", m.loading, m.status)
	}
	m = press(t, m, "F")
	if s := screen(m); !strings.Contains(s, filehistgen.SessionID[:8]) {
		t.Fatalf("the Files pane does not list the session:\n%s", s)
	}
	readme := l.Abs("README.md")
	before, _ := os.ReadFile(readme)
	if string(before) != filehistgen.Disk["README.md"] {
		t.Fatalf("generated README is %q", before)
	}
	// session → its turns → the first turn's files → README.md's versions.
	m = press(t, m, "enter", "enter")
	s := screen(m)
	if !strings.Contains(s, "README.md") {
		t.Fatalf("the first turn does not list README.md:\n%s", s)
	}
	m = toReadmeVersions(t, m)
	m = press(t, m, "a")
	if s := screen(m); !strings.Contains(strings.ToLower(s), "y") || !m.p.files.Filtering() {
		t.Fatalf("restore asks for no confirmation:\n%s", s)
	}
	m = press(t, m, "y")
	after, _ := os.ReadFile(readme)
	if string(after) == filehistgen.Disk["README.md"] {
		t.Fatalf("README unchanged after a confirmed restore; status %q\n%s", m.status, screen(m))
	}
	found := false
	for _, c := range filehistgen.Versions["README.md"] {
		found = found || string(after) == c
	}
	if !found {
		t.Fatalf("README holds %q, which is no version of it", after)
	}
	if !strings.Contains(m.status, "u undoes it") {
		t.Errorf("status after a restore: %q", m.status)
	}
	m = press(t, m, "u")
	undone, _ := os.ReadFile(readme)
	if string(undone) != string(before) {
		t.Fatalf("after undo README is %q, want %q (status %q)", undone, before, m.status)
	}
}

// TestFilesUndoWithoutSessionSaysWhy: u in the Files pane before a
// session is open explains itself instead of undoing a memory change.
func TestFilesUndoWithoutSessionSaysWhy(t *testing.T) {
	m := newTestModel(t, 100, 30)
	m = press(t, m, "F", "u")
	if !strings.Contains(m.status, "open a session in Files first") {
		t.Fatalf("u in an empty Files pane: status %q", m.status)
	}
}

// A restore from the Files pane writes through the app's writer: a full
// disk at its first move into place (the journal's) fails it with the
// cause in the status, and the file on disk stays as it was.
func TestFilesRestoreWritesThroughTheAppsWriter(t *testing.T) {
	f := &faultfs.FS{Step: faultfs.StepRename, Err: syscall.ENOSPC}
	m, l := filehistModelWith(t, 120, 40, f)
	m = press(t, m, "F", "enter", "enter")
	m = toReadmeVersions(t, m)
	m = press(t, m, "a", "y")
	if got, _ := os.ReadFile(l.Abs("README.md")); string(got) != filehistgen.Disk["README.md"] {
		t.Errorf("README became %q after a failed restore", got)
	}
	if !m.statusErr || !strings.Contains(m.status, syscall.ENOSPC.Error()) || len(f.Hits()) != 1 {
		t.Errorf("status %q (error %v), faulted %q: want the full disk reported", m.status, m.statusErr, f.Hits())
	}
}
