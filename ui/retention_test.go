package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
)

// TestRetentionForecastAndArchiveOnARealHome drives the Retention pane
// through the root on a home on disk: the forecast the root's command
// reads, then an archive the pane asks for and the root carries out.
func TestRetentionForecastAndArchiveOnARealHome(t *testing.T) {
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
