package ui

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// hostileModel opens the TUI on a home written by hostilehome, with
// NO_COLOR, at 120x40, loaded.
func hostileModel(t *testing.T, sc hostilehome.Scenario, o hostilehome.Options) (Model, *hostilehome.Result) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "home")
	res, err := hostilehome.Write(dir, sc, o)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Home: home, Project: res.Project, Now: func() time.Time { return testNow }, Root: testroot.New(t), Getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}})
	m = drain(t, m, m.Init())
	next, cmd := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return drain(t, next.(Model), cmd), res
}

// hostileWalk visits every pane and, in each, moves through rows, expands
// and opens what can be opened, calling check on every frame. By default
// it presses each kind of key once in each pane (a row down, expand, open,
// the last row, open it, back); MEMSCOPE_LONG=1 then walks more rows.
func hostileWalk(t *testing.T, m Model, check func(what string, v tea.View)) Model {
	t.Helper()
	check("first frame", m.View())
	keys := []string{"down", "space", "enter", "G", "enter", "esc"}
	if testenv.Long() {
		keys = append(keys, "g", "down", "down", "space", "enter", "down", "space", "G", "enter", "esc", "g")
	}
	for _, pane := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "L"} {
		m = press(t, m, pane)
		check("pane "+pane, m.View())
		for _, k := range keys {
			m = press(t, m, k)
			check("pane "+pane+" after "+k, m.View())
		}
		m = press(t, m, "esc")
	}
	return m
}

func TestHostileTUIFrames(t *testing.T) {
	t.Parallel()
	for _, sc := range []hostilehome.Scenario{hostilehome.Escapes, hostilehome.Bidi, hostilehome.NewlineNames} {
		t.Run(string(sc), func(t *testing.T) {
			m, _ := hostileModel(t, sc, hostilehome.Options{})
			bad := 0
			hostileWalk(t, m, func(what string, v tea.View) {
				c := stripStyling(v.Content)
				if off, r, ok := hostilehome.ForbiddenInOutput(c); !ok && bad < 5 {
					bad++
					t.Errorf("%s: %U at byte %d: …%q…", what, r, off, c[max(0, off-60):min(len(c), off+30)])
				}
				if sc == hostilehome.NewlineNames {
					checkFrameRows(t, what, c)
				}
				if _, _, ok := hostilehome.ForbiddenInOutput(v.WindowTitle); !ok || strings.Contains(v.WindowTitle, "\n") {
					t.Errorf("%s: window title %q", what, v.WindowTitle)
				}
			})
		})
	}
}

// styling matches the SGR sequences memscope's own styles emit even with
// NO_COLOR (bold, faint, reverse). Every hostile text also carries
// sequences that are not SGR (screen clear, titles, clipboard), so a
// render path that skipped sanitizing is still caught.
var styling = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// stripStyling removes memscope's styling from a frame.
func stripStyling(s string) string { return styling.ReplaceAllString(s, "") }

// brokenAfter are the parts of newlinenames' odd names before their
// newline: a frame line that ends right after one split a name in two.
var brokenAfter = []string{"odd_line", "sess1on", "me/new"}

// checkFrameRows fails when a name with a newline was drawn across two
// lines of the frame.
func checkFrameRows(t *testing.T, what, frame string) {
	t.Helper()
	for _, line := range strings.Split(frame, "\n") {
		for _, part := range brokenAfter {
			i := strings.Index(line, part)
			if i >= 0 && strings.Trim(line[i+len(part):], " │┃|") == "" {
				t.Errorf("%s: a name is broken after %q: %q", what, part, line)
			}
		}
	}
}

// A home with a huge single line in history, a transcript, a paste and a
// memory body, and with JSON nested 100 000 deep, renders every pane
// clipped to the terminal: no line wider than 120 cells, no more than 40
// lines, no control characters. The line is 8 MiB with MEMSCOPE_LONG=1,
// else 2 MiB: either is past model.MaxSmallBytes (1 MiB) and within
// MaxDocumentBytes (16 MiB) and MaxLineBytes (32 MiB), so every reader
// takes the same path.
func TestHostileTUIBigAndDeep(t *testing.T) {
	t.Parallel()
	big := testenv.Size(t, 8<<20, 2<<20)
	for _, tc := range []struct {
		sc hostilehome.Scenario
		o  hostilehome.Options
	}{
		{hostilehome.BigLine, hostilehome.Options{Size: int64(big)}},
		{hostilehome.DeepJSON, hostilehome.Options{Depth: 100_000}},
	} {
		t.Run(string(tc.sc), func(t *testing.T) {
			m, _ := hostileModel(t, tc.sc, tc.o)
			bad := 0
			hostileWalk(t, m, func(what string, v tea.View) {
				c := stripStyling(v.Content)
				lines := strings.Split(c, "\n")
				if len(lines) > 40 && bad < 5 {
					bad++
					t.Errorf("%s: %d lines", what, len(lines))
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > 120 && bad < 5 {
						bad++
						t.Errorf("%s: line %d is %d cells wide", what, i, w)
					}
				}
				if off, r, ok := hostilehome.ForbiddenInOutput(c); !ok && bad < 5 {
					bad++
					t.Errorf("%s: %U at byte %d", what, r, off)
				}
			})
		})
	}
}

// With 20 000 memory files in one folder (500 unless MEMSCOPE_LONG=1:
// still twice the 250 the index lists, and creating the files was most
// of the test's CPU) the first frame is drawn before anything is read,
// and the loaded memories pane lists them; both times are logged.
func TestHostileManyFilesFirstFrame(t *testing.T) {
	t.Parallel()
	n := testenv.Size(t, 20_000, 500)
	dir := filepath.Join(t.TempDir(), "home")
	res, err := hostilehome.Write(dir, hostilehome.ManyFiles, hostilehome.Options{N: n})
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m := New(Options{Home: home, Project: res.Project, Now: func() time.Time { return testNow }, Root: testroot.New(t), Getenv: func(string) string { return "1" }})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	first := next.(Model).View().Content
	t.Logf("first frame with %d memory files: %v", n, time.Since(start).Round(time.Microsecond))
	if !strings.Contains(first, "memscope") {
		t.Fatalf("first frame:\n%s", first)
	}
	m = drain(t, next.(Model), m.Init())
	t.Logf("loaded: %v", time.Since(start).Round(time.Millisecond))
	m = press(t, m, "4")
	if s := screen(m); !strings.Contains(s, "note_0000000.md") {
		t.Errorf("memories pane does not list the notes:\n%s", s)
	}
	start = time.Now()
	m = press(t, m, "G")
	t.Logf("jump to the last of %d rows and redraw: %v", n, time.Since(start).Round(time.Microsecond))
	if s := screen(m); !strings.Contains(s, fmt.Sprintf("note_%07d.md", n-1)) {
		t.Errorf("the last note is not shown after G:\n%s", s)
	}
}
