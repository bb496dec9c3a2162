package ui

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// secretsModel is the app on a home with a secret planted in each store
// (internal/secretgen), every file an hour old.
func secretsModel(t *testing.T, w, h int) (Model, secretgen.Layout) {
	t.Helper()
	l, home := secretsHome(t)
	m := New(Options{Home: home, Project: l.Project, Now: func() time.Time { return testNow }, Root: testroot.New(t),
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}})
	m = drain(t, m, m.Init())
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model), l
}

// secretsHome writes a home with a secret planted in each store
// (internal/secretgen), every file an hour old, and opens it.
func secretsHome(t *testing.T) (secretgen.Layout, *model.Home) {
	t.Helper()
	l, err := secretgen.Write(filepath.Join(t.TempDir(), "claude"), filepath.Join("..", "model", "testdata", "transcripts"), testNow)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return l, home
}

// homeBytes is every file of the home but memscope's own folder.
func homeBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "/.memscope/") {
			return err
		}
		data, _ := os.ReadFile(p)
		out[p] = string(data)
		return nil
	})
	return out
}

func TestSecurityPaneGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, p := range []struct {
			name string
			keys []string
		}{
			{"security", []string{"S"}},
			{"security_picked", []string{"S", "space", "space"}},
			{"security_plan", []string{"S", "a"}},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", p.name, size.w, size.h), func(t *testing.T) {
				m, _ := secretsModel(t, size.w, size.h)
				m = press(t, m, p.keys...)
				s := screen(m)
				for i, l := range strings.Split(s, "\n") {
					if w := ansi.StringWidth(l); w > size.w {
						t.Errorf("line %d is %d wide", i, w)
					}
				}
				golden.RequireEqual(t, s)
			})
		}
	}
}

// The whole flow with keys: the pane lists every planted secret masked,
// a and y scrub them all (no planted secret left in any file), u and y
// restore them byte for byte, and a second scrub's copy is forgotten
// with d and y.
func TestSecurityPaneScrubRestoreForget(t *testing.T) {
	m, l := secretsModel(t, 140, 44)
	before := homeBytes(t, l.Home)
	m = press(t, m, "S")
	s := screen(m)
	for _, p := range l.Planted {
		if strings.Contains(s, p.Secret) {
			t.Fatalf("the pane shows the %s secret in full", p.Rule)
		}
	}
	if !strings.Contains(s, "9 secrets in 10 places") {
		t.Fatalf("no summary of the planted secrets:\n%s", s)
	}
	m = press(t, m, "a")
	if s := screen(m); !strings.Contains(s, "[REDACTED:github-pat]") || !strings.Contains(s, "y/n") {
		t.Fatalf("no plan to confirm:\n%s", s)
	}
	m = press(t, m, "y")
	if !strings.Contains(m.status, "scrubbed 10 secrets in 7 files") {
		t.Fatalf("status %q", m.status)
	}
	for name, data := range homeBytes(t, l.Home) {
		for _, p := range l.Planted {
			if strings.Contains(data, p.Secret) {
				t.Errorf("%s still holds the %s secret", name, p.Rule)
			}
		}
	}
	if s := screen(m); !strings.Contains(s, "scrub copy") || !strings.Contains(s, "no secrets at rest") {
		t.Fatalf("after the scrub the pane does not show the copy:\n%s", s)
	}
	m = press(t, m, "u")
	if s := screen(m); !strings.Contains(s, "restore scrub") || !strings.Contains(s, "y/n") {
		t.Fatalf("u does not ask to restore:\n%s", s)
	}
	m = press(t, m, "y")
	if !strings.Contains(m.status, "restored scrub") {
		t.Fatalf("status %q", m.status)
	}
	after := homeBytes(t, l.Home)
	for name, data := range before {
		if after[name] != data {
			t.Errorf("%s differs after the restore", name)
		}
	}
	// Scrub one secret, then forget its copy.
	m = press(t, m, "space", "a", "y")
	if !strings.Contains(m.status, "scrubbed") {
		t.Fatalf("status %q", m.status)
	}
	m = press(t, m, "G", "d")
	if s := screen(m); !strings.Contains(s, "forget scrub") {
		t.Fatalf("d on the copy does not ask:\n%s", s)
	}
	m = press(t, m, "n")
	if !strings.Contains(m.status, "cancelled") {
		t.Fatalf("n: status %q", m.status)
	}
	m = press(t, m, "d", "y")
	if !strings.Contains(m.status, "forgot scrub") {
		t.Fatalf("status %q", m.status)
	}
	if entries, _ := os.ReadDir(filepath.Join(l.Home, ".memscope", "scrub")); len(entries) != 1 || !bytes.Contains([]byte(entries[0].Name()), []byte("lock")) {
		t.Errorf("copies left: %v", entries)
	}
}

// While the Security pane is open, a file event does not scan the whole
// home again: the pane says its scan is older than the home, and ctrl+r
// scans again.
func TestSecurityPaneDoesNotRescanOnEveryEvent(t *testing.T) {
	m, l := secretsModel(t, 120, 40)
	m = press(t, m, "S")
	if m.feeds.secrets.Stale() || m.loading["secrets"] {
		t.Fatal("the pane's scan did not finish")
	}
	next, _ := m.Update(fileChangedMsg{paths: []string{filepath.Join(l.Home, "history.jsonl")}})
	m = next.(Model)
	next, cmd := m.Update(reloadTickMsg{tag: m.reloadTag})
	m = drain(t, next.(Model), cmd)
	if m.loading["secrets"] || !m.feeds.secrets.Stale() {
		t.Fatal("a file event started a scan of the whole home")
	}
	if !strings.Contains(screen(m), "the home changed since this scan: ctrl+r scans again") {
		t.Fatalf("the pane does not say its scan is old:\n%s", screen(m))
	}
	m = press(t, m, "ctrl+r")
	if m.feeds.secrets.Stale() || strings.Contains(screen(m), "the home changed since this scan") {
		t.Fatalf("ctrl+r did not scan again:\n%s", screen(m))
	}
}

// enter on a secret in a transcript opens its session in Replay.
func TestSecurityPaneOpensReplay(t *testing.T) {
	m, _ := secretsModel(t, 120, 40)
	m = press(t, m, "S", "enter")
	if m.focus != paneReplay || !strings.Contains(screen(m), "5e55c0de") {
		t.Fatalf("enter did not open the session in Replay (focus %d):\n%s", m.focus, screen(m))
	}
}

// The scrub plan asked about is read whole before the answer: at 80×24
// it is longer than the rows under the list, and J scrolls it, z zooms
// it (esc back to the question), without answering; every line of the
// plan shows on some screen. Before, it ended in "… N more lines" that
// nothing opened.
func TestSecurityPlanScrollsDuringTheQuestion(t *testing.T) {
	m, _ := secretsModel(t, 80, 24)
	m = press(t, m, "S", "a")
	first := screen(m)
	if !strings.Contains(first, "y/n") || !strings.Contains(first, "── lines 1–") {
		t.Fatalf("the plan does not say how to see its other lines:\n%s", first)
	}
	if strings.Contains(first, "more lines") {
		t.Fatalf("the plan ends in a count nothing opens:\n%s", first)
	}
	seen := map[string]bool{}
	collect := func(s string) {
		for _, l := range strings.Split(s, "\n") {
			seen[strings.TrimRight(strings.Trim(ansi.Strip(l), "│ "), " ")] = true
		}
	}
	collect(first)
	m = press(t, m, "z")
	for range 80 {
		collect(screen(m))
		m = press(t, m, "J")
	}
	zoomed := screen(m)
	if strings.Contains(zoomed, "y/n") && !strings.Contains(zoomed, "REDACTED") {
		t.Fatalf("z did not zoom the plan:\n%s", zoomed)
	}
	if !anyHas(seen, "[REDACTED:github-pat]") {
		t.Fatalf("the plan's replaced lines never showed")
	}
	if !anyHas(seen, "lines ") || !anyHas(seen, " of ") {
		t.Fatalf("no position line while scrolling")
	}
	// Scrolled far enough, the position line names the plan's last line.
	reached := false
	for l := range seen {
		rest, ok := strings.CutPrefix(l, "── lines ")
		if !ok {
			continue
		}
		var a, b, n int
		if _, err := fmt.Sscanf(rest, "%d–%d of %d", &a, &b, &n); err == nil && b == n {
			reached = true
		}
	}
	if !reached {
		var pos []string
		for l := range seen {
			if strings.Contains(l, "── lines") {
				pos = append(pos, l)
			}
		}
		t.Fatalf("J never reached the plan's last line; position lines seen: %q", pos)
	}
	m = press(t, m, "esc")
	back := screen(m)
	if !strings.Contains(back, "y/n") {
		t.Fatalf("esc in the zoom should go back to the question, not answer it:\n%s", back)
	}
	m = press(t, m, "esc")
	if s := screen(m); strings.Contains(s, "y/n") {
		t.Fatalf("a second esc should cancel the question:\n%s", s)
	}
}

func anyHas(seen map[string]bool, sub string) bool {
	for l := range seen {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}
