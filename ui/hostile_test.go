package ui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/hostile/hostilehome"
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
	m := New(Options{Home: home, Project: res.Project, Now: func() time.Time { return testNow }, Getenv: func(k string) string {
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
// and opens what can be opened, calling check on every frame.
func hostileWalk(t *testing.T, m Model, check func(what string, v tea.View)) Model {
	t.Helper()
	check("first frame", m.View())
	for _, pane := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
		m = press(t, m, pane)
		check("pane "+pane, m.View())
		for _, k := range []string{"down", "down", "space", "enter", "down", "space", "G", "enter", "esc", "g"} {
			m = press(t, m, k)
			check("pane "+pane+" after "+k, m.View())
		}
		m = press(t, m, "esc")
	}
	return m
}

func TestHostileTUIFrames(t *testing.T) {
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
var brokenAfter = []string{"odd_line", "0bad", "me/new"}

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
