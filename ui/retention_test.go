package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/retention"
)

// retentionHome is a home on disk whose sweep (every 5 days) deletes
// one transcript now and a todo soon.
func retentionHome(t *testing.T) (*model.Home, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, body string, age time.Duration) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		mt := testNow.Add(-age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	const day = 24 * time.Hour
	write("settings.json", `{"cleanupPeriodDays":5}`, 0)
	write("projects/-a/s.jsonl", "{}\n", 6*day)
	write("todos/t.json", "[]", 1*day)
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return home, dir
}

// TestRetentionForecastAndArchiveOnARealHome drives the Retention pane
// through the root on a home on disk: an archive the pane asks for and
// the root carries out (the forecast's reads are its feed's:
// ui/feed/retention_test.go).
func TestRetentionForecastAndArchiveOnARealHome(t *testing.T) {
	home, dir := retentionHome(t)
	m := New(Options{Home: home, Now: func() time.Time { return testNow }, Getenv: func(string) string { return "" }})
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = press(t, next.(Model), "0")
	if len(m.loading) != 0 {
		t.Fatalf("still loading %v", m.loading)
	}
	dest := filepath.Join(t.TempDir(), "arch")
	m = press(t, m, "a")
	m = press(t, m, strings.Split(dest, "")...)
	m = press(t, m, "enter")
	if m.statusErr || !strings.Contains(m.status, "archived to "+dest+": 1 copied, 0 already there, 1 read back and verified") {
		t.Fatalf("status %q", m.status)
	}
	if data, err := os.ReadFile(filepath.Join(dest, "projects", "-a", "s.jsonl")); err != nil || string(data) != "{}\n" {
		t.Errorf("archived transcript: %q, %v", data, err)
	}

	inside := filepath.Join(dir, "inside")
	m = press(t, m, "a")
	m = press(t, m, strings.Split(inside, "")...)
	m = press(t, m, "enter")
	if !m.statusErr || !strings.Contains(m.status, "inside the Claude home") {
		t.Errorf("archive into the home: status %q", m.status)
	}
}

// The pane's archive writes through the writer the app was given: a
// full disk at the move into place fails it, naming the cause, and the
// archive folder holds no file.
func TestRetentionArchiveWritesThroughTheAppsWriter(t *testing.T) {
	home, _ := retentionHome(t)
	f := &faultfs.FS{Step: faultfs.StepRename, Err: syscall.ENOSPC}
	dest := filepath.Join(t.TempDir(), "arch")
	items := []cleanup.Item{{Path: "projects/-a/s.jsonl", Files: 1}}
	done, ok := archiveCmd(home, f, retention.ArchiveRequest{To: dest, Items: items})().(retention.ArchiveDone)
	if !ok || !errors.Is(done.Err, syscall.ENOSPC) || len(f.Hits()) != 1 {
		t.Fatalf("archive through a full disk: %+v (faulted %q)", done.Err, f.Hits())
	}
	if _, err := os.Stat(filepath.Join(dest, "projects", "-a", "s.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the archived file is there after the failure: %v", err)
	}
}

// While the Files pane is focused, only file history, the project list
// and the open session's transcript make it read again.
func TestFilesReadsWhatChanged(t *testing.T) {
	m := press(t, newTestModel(t, 120, 40), "F")
	home := m.opts.Home.Dir
	for _, tt := range []struct {
		path string
		read bool
	}{
		{"history.jsonl", false},
		{"paste-cache/0123456789abcdef.txt", false},
		{"projects/-tmp-rc-work-beta/memory/x.md", false},
		{"projects/-tmp-rc-work-beta/668e1d4c-98ed-55ff-b990-a2cdf6449cee.jsonl", false},
		{"file-history/668e1d4c-98ed-55ff-b990-a2cdf6449cee/0123456789abcdef@v2", true},
		{"projects/-new-project", true},
	} {
		c := classify(home, filepath.Join(home, filepath.FromSlash(tt.path)))
		m.lazyChange(c)
		cmd := m.lazyLoadCmd()
		if got := cmd != nil && m.loading["files"]; got != tt.read {
			t.Errorf("%s: the Files pane read its sessions again: %v, want %v", tt.path, got, tt.read)
		}
		delete(m.loading, "files")
	}
}
