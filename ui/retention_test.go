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
// through the root on a home on disk: the forecast the root's command
// reads, then an archive the pane asks for and the root carries out.
func TestRetentionForecastAndArchiveOnARealHome(t *testing.T) {
	home, dir := retentionHome(t)
	loaded, ok := forecastCmd(home, nil, testNow)().(retentionLoadedMsg)
	if f := loaded.forecast; !ok || f.PeriodDays != 5 || f.Overall.Now.Items != 1 || f.Overall.Soon.Items != 1 {
		t.Fatalf("loaded %+v", loaded.forecast)
	}

	m := New(Options{Home: home, Now: func() time.Time { return testNow }, Getenv: func(string) string { return "" }})
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = press(t, next.(Model), "9")
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
