package ui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/inventory"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// writableRootLen is the length of the folder a writable test home is
// copied under: the test's temporary folder padded with x's, so a path
// cut for display cuts the same on every machine.
const writableRootLen = 100

// writableHome copies testdata/home to a folder of the test on disk,
// every file and folder dated a day before testNow (ages in goldens do
// not depend on the checkout), and returns it with a pattern matching
// the folder it is in (for "$ROOT" in goldens).
func writableHome(t testing.TB) (*model.Home, *regexp.Regexp) {
	t.Helper()
	base, root := testroot.Padded(t, writableRootLen)
	dir := filepath.Join(base, "home")
	if err := os.CopyFS(dir, os.DirFS("../testdata/home")); err != nil {
		t.Fatal(err)
	}
	mt := testNow.Add(-26 * time.Hour)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			os.Chtimes(p, mt, mt)
		}
		return nil
	})
	return &model.Home{Dir: dir, FS: os.DirFS(dir), Source: model.HomeFromFlag}, root
}

// writableModel is the app on a writable copy of testdata/home, on the
// beta project, sized w×h.
func writableModel(t testing.TB, w, h int) (Model, *regexp.Regexp) {
	t.Helper()
	home, root := writableHome(t)
	return loadedModel(t, Options{Home: home, Root: testroot.New(t)}, w, h), root
}

// pathHeavy are the panes whose screen cuts or wraps the home's absolute
// path mid-way (the Prompt detail's "Contents of PATH", the Security
// summary), which no pattern can mask the same on every run; their
// goldens on the read-only home (fixed paths) cover them.
var pathHeavy = map[string]bool{"prompt": true, "security": true, "search_prompt": true, "search_results": true, "search_replay_hit": true}

// TestPanesGoldenWritable: every pane at 80×24 and 120×40 on a home
// memscope can write (no read-only banner; the editing keys offered),
// its folder shown as $ROOT.
func TestPanesGoldenWritable(t *testing.T) {
	for _, size := range goldenSizes {
		// One writable home and app per size, forked for each pane
		// (keyChain); the home is the test's, so it outlives the panes'.
		var root *regexp.Regexp
		chain := newKeyChain(func(testing.TB) Model {
			var m Model
			m, root = writableModel(t, size.w, size.h)
			return m
		})
		for _, p := range goldenPanes {
			if pathHeavy[p.name] {
				continue
			}
			t.Run(fmt.Sprintf("%s_%dx%d", p.name, size.w, size.h), func(t *testing.T) {
				m := chain.at(t, p.keys...)
				s := screen(m)
				if strings.Contains(s, "READ-ONLY") {
					t.Fatalf("the writable home opened read-only:\n%s", s)
				}
				golden.RequireEqual(t, root.ReplaceAllString(s, "$$ROOT"))
			})
		}
	}
}

// TestCountsAndActivityAgree: the panes that show a project's memory
// file count and its last activity show one number each: Projects' row,
// the Memories pane's rows, stat's topic files (summed over projects),
// and the newest ACTIVE of the project's sessions in Replay.
func TestCountsAndActivityAgree(t *testing.T) {
	for _, home := range []string{"testdata", "demo"} {
		t.Run(home, func(t *testing.T) {
			var m Model
			var h *model.Home
			if home == "demo" {
				m = sharedDemoModel(t, 120, 40)
				h = m.opts.Home
			} else {
				m, _ = writableModel(t, 120, 40)
				h = m.opts.Home
			}
			rows := m.feeds.home.Rows()
			if len(rows) < 2 {
				t.Fatalf("%d projects", len(rows))
			}
			sum, withMemory := 0, 0
			for _, r := range rows {
				m = drainMsg(t, m, msgs.SelectProject{Slug: r.Project.Slug})
				m = press(t, m, "7") // Replay loads its list when shown
				if m.data.open != r.Project.Slug {
					t.Fatalf("%s did not open", r.Project.Slug)
				}
				if got := len(m.feeds.project.Cur().Rows); got != r.Memory.Files {
					t.Errorf("%s: Projects says %d memory files, Memories lists %d", r.Project.Slug, r.Memory.Files, got)
				}
				var as []enginesessions.Active
				records := 0
				for _, s := range m.feeds.sessions.List() {
					as = append(as, s.Active)
					records += s.Records
				}
				if got := enginesessions.Newest(as...); got != r.LastActive {
					t.Errorf("%s: Projects says last active %v, Replay's newest session %v", r.Project.Slug, r.LastActive, got)
				}
				if r.LastActive.Clock != enginesessions.ClockRecord && records > 0 {
					t.Errorf("%s: last active by %q, though its transcripts have timestamps", r.Project.Slug, r.LastActive.Clock)
				}
				sum += r.Memory.Files
				if r.Memory.Files > 0 {
					withMemory++
				}
			}
			if withMemory == 0 {
				t.Fatal("no project has memory files: the test compares nothing")
			}
			if st := inventory.Stat(inventory.Options{Home: h}); st.MemoryFiles != sum {
				t.Errorf("stat says %d memory files, the projects %d", st.MemoryFiles, sum)
			}
		})
	}
}

// drainMsg feeds msg to m and runs what it leads to.
func drainMsg(t *testing.T, m Model, msg tea.Msg) Model {
	t.Helper()
	next, cmd := m.Update(msg)
	return drain(t, next.(Model), cmd)
}

// typeText presses the keys that type s.
func typeText(t *testing.T, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		m = press(t, m, k)
	}
	return m
}

// The new-memory form: letters typed on the type field never change the
// type (← → do, and the choices are all shown), and the index line it
// writes is titled with the name as typed, not the file name.
func TestNewMemoryForm(t *testing.T) {
	m, _ := writableModel(t, 120, 40)
	m = press(t, m, "4", "n")
	m = typeText(t, m, "No DB Mocks")
	m = press(t, m, "tab")
	m = typeText(t, m, "hjklqx")
	if s := screen(m); !strings.Contains(s, "‹user›") || !strings.Contains(s, "feedback") || !strings.Contains(s, "reference") {
		t.Fatalf("letters changed the type, or the choices are not shown:\n%s", s)
	}
	if !strings.Contains(m.status, "← →") {
		t.Errorf("a letter on the type field says nothing: status %q", m.status)
	}
	m = press(t, m, "right")
	if !strings.Contains(screen(m), "‹feedback›") {
		t.Fatalf("→ did not choose feedback:\n%s", screen(m))
	}
	m = press(t, m, "tab")
	m = typeText(t, m, "Use the real database")
	// Every line of the form stays in the list's column beside the text.
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Count(l, "│") > 3 {
			t.Errorf("a row is split: %q", l)
		}
	}
	if !strings.Contains(screen(m), "› description: Use the real database") {
		t.Errorf("the form does not show the description with its field marked:\n%s", screen(m))
	}
	m = press(t, m, "enter")
	mem := filepath.Join(m.opts.Home.Dir, "projects", "-tmp-rc-work-beta", "memory")
	ix, err := os.ReadFile(filepath.Join(mem, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ix), "- [No DB Mocks](feedback_no_db_mocks.md) — Use the real database\n") {
		t.Fatalf("index after create (status %q):\n%s", m.status, ix)
	}
}
