package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// exportModel opens a copy of testdata/home on disk with exports going to
// a folder of the test's own.
func exportModel(t *testing.T) (Model, string) {
	t.Helper()
	return exportModelWith(t, nil)
}

// exportModelWith is exportModel with writes going through w.
func exportModelWith(t *testing.T, w model.WriteFS) (Model, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "home"), os.DirFS("../testdata/home")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	home := &model.Home{Dir: filepath.Join(dir, "home"), FS: os.DirFS(filepath.Join(dir, "home")), Source: model.HomeFromFlag}
	m := New(Options{Home: home, Project: betaProject, Now: func() time.Time { return testNow },
		Root: testroot.New(t), ExportDir: out, Writes: w})
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return next.(Model), out
}

func TestExportSessionFromReplay(t *testing.T) {
	m, out := exportModel(t)
	m = press(t, m, "7", "x")
	if m.statusErr || !strings.HasPrefix(m.status, "exported to ") {
		t.Fatalf("x in Replay: status %q", m.status)
	}
	first := strings.TrimPrefix(m.status, "exported to ")
	if filepath.Dir(first) != out || !strings.HasPrefix(filepath.Base(first), "claude-session-") || filepath.Ext(first) != ".md" {
		t.Fatalf("exported to %s", first)
	}
	md, err := os.ReadFile(first)
	if err != nil || !strings.HasPrefix(string(md), "# ") {
		t.Fatalf("export %s: %v\n%.200s", first, err, md)
	}
	// Again: a new file beside the first, which stays as it was.
	m = press(t, m, "x")
	second := strings.TrimPrefix(m.status, "exported to ")
	if second == first || !strings.HasSuffix(second, "-2.md") {
		t.Fatalf("second export went to %q (first %q)", second, first)
	}
	if again, _ := os.ReadFile(first); string(again) != string(md) {
		t.Fatal("the second export changed the first file")
	}
	// X: HTML, from inside the timeline too.
	m = press(t, m, "enter", "X")
	html := strings.TrimPrefix(m.status, "exported to ")
	data, err := os.ReadFile(html)
	if err != nil || filepath.Ext(html) != ".html" || !strings.Contains(string(data), "<html") {
		t.Fatalf("X in the timeline: status %q, err %v", m.status, err)
	}
}

func TestExportMemoryFromMemories(t *testing.T) {
	m, out := exportModel(t)
	m = press(t, m, "4", "x")
	if m.statusErr || !strings.HasPrefix(m.status, "exported to ") {
		t.Fatalf("x in Memories: status %q", m.status)
	}
	p := strings.TrimPrefix(m.status, "exported to ")
	if filepath.Dir(p) != out || filepath.Base(p) != "claude-memory-beta.md" {
		t.Fatalf("exported to %s", p)
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), "MEMORY.md") {
		t.Fatalf("the memory export does not show the index:\n%.300s", data)
	}
}

func TestExportMemoryNeedsAFolderOnDisk(t *testing.T) {
	m := newTestModel(t, 100, 30) // an in-memory home
	m = press(t, m, "4", "x")
	if !m.statusErr || !strings.Contains(m.status, "not on disk") {
		t.Fatalf("status %q", m.status)
	}
}

// An export goes through the writer the app was given: a full disk
// fails it with a message naming the file and the cause, and leaves
// nothing in the export folder.
func TestExportFailsCleanly(t *testing.T) {
	for _, step := range []faultfs.Step{faultfs.StepCreateTemp, faultfs.StepWrite, faultfs.StepRename} {
		t.Run(step.String(), func(t *testing.T) {
			f := &faultfs.FS{Step: step, Persist: true, Err: syscall.ENOSPC}
			m, out := exportModelWith(t, f)
			m = press(t, m, "4", "x")
			if !m.statusErr || !strings.Contains(m.status, filepath.Join(out, "claude-memory-beta.md")) || !strings.Contains(m.status, syscall.ENOSPC.Error()) {
				t.Fatalf("status %q", m.status)
			}
			if !slices.ContainsFunc(f.Hits(), func(p string) bool { return filepath.Dir(p) == out }) {
				t.Errorf("no write in %s failed (%q): the export bypassed the writer", out, f.Hits())
			}
			if es, _ := os.ReadDir(out); len(es) != 0 {
				t.Errorf("the export folder holds %d files after the failure", len(es))
			}
		})
	}
}
