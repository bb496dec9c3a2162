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
	loaded, ok := forecastCmd(home, nil, testNow, nil, nil)().(retentionLoadedMsg)
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

// While the Retention pane is focused, a transcript appended to is looked
// at again on its own (cleanup.Refresh): a file no event named stays
// unread; an event naming a file the refresh cannot follow (a new todo)
// reads the home again. Events the forecast does not read (the process
// files) change nothing.
func TestRetentionRefreshesWhatChanged(t *testing.T) {
	home, dir := retentionHome(t)
	m := loadedModel(t, Options{Home: home}, 120, 40)
	m = press(t, m, "9")
	if m.lazy.forecast == nil || len(m.lazy.forecast.Items) != 2 {
		t.Fatalf("forecast on focus: %+v", m.lazy.forecast)
	}
	item := func(m Model, p string) (cleanup.Item, bool) {
		for _, it := range m.lazy.forecast.Items {
			if it.Path == p {
				return it, true
			}
		}
		return cleanup.Item{}, false
	}
	// Written without an event: only a read of the home finds it.
	os.MkdirAll(filepath.Join(dir, "todos"), 0o700)
	os.WriteFile(filepath.Join(dir, "todos", "unseen.json"), []byte("[]"), 0o600)
	tr := filepath.Join(dir, "projects", "-a", "s.jsonl")
	f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"more\":1}\n")
	f.Close()
	now := testNow
	os.Chtimes(tr, now, now)
	reload := func(m Model, paths ...string) Model {
		var c change
		for _, p := range paths {
			c.merge(classify(dir, filepath.Join(dir, filepath.FromSlash(p))))
		}
		return drain(t, m, m.reload(c))
	}
	m = reload(m, "projects/-a/s.jsonl", "sessions/4242.json")
	it, ok := item(m, "projects/-a/s.jsonl")
	if !ok || it.Size != 14 || !it.ModTime.Equal(now) || it.Bucket != cleanup.BucketSoon {
		t.Errorf("the appended transcript: %+v (want 14 bytes, written now, no longer due)", it)
	}
	if _, ok := item(m, "todos/unseen.json"); ok {
		t.Error("the refresh read the whole home: it found a file no event named")
	}
	m = reload(m, "todos/new.json")
	if _, ok := item(m, "todos/unseen.json"); !ok {
		t.Error("an event the refresh cannot follow did not read the home again")
	}
}

// While the Files pane is focused, only file history, the project list
// and the open session's transcript make it read again.
func TestFilesReadsWhatChanged(t *testing.T) {
	m := press(t, newTestModel(t, 120, 40), "0")
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
