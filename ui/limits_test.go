package ui

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/charmbracelet/x/exp/golden"
)

// limitsModel is liveModel on a home whose settings.json sets
// autoCompactWindow: 100000 (issue 29).
func limitsModel(t *testing.T, w, h int) Model {
	t.Helper()
	home := fixedHome(t)
	mfs := home.FS.(fstest.MapFS)
	for k, v := range liveFiles(home.Dir) {
		mfs[k] = v
	}
	mfs["settings.json"] = &fstest.MapFile{Data: []byte(`{"autoCompactWindow": 100000}`), Mode: 0o644}
	return loadedModel(t, Options{Home: home, Root: fstest.MapFS{}, Alive: func(pid int) bool { return pid == livePID }}, w, h)
}

// With autoCompactWindow: 100000 the Live pane's levels and forecast
// move to 67k and say where the level came from; Replay's levels move
// with them.
func TestAutoCompactWindowGolden(t *testing.T) {
	t.Run("live_120x40", func(t *testing.T) {
		s := screen(press(t, limitsModel(t, 120, 40), "L"))
		if !strings.Contains(s, "autocompact at 67k · autoCompactWindow in ") {
			t.Errorf("the Live pane does not show the level's source:\n%s", s)
		}
		golden.RequireEqual(t, s)
	})
	t.Run("replay_120x40", func(t *testing.T) {
		s := screen(press(t, limitsModel(t, 120, 40), "L", "c"))
		if !strings.Contains(s, "autocompact at 67k · autoCompactWindow in ") {
			t.Errorf("the Replay pane does not show the level's source:\n%s", s)
		}
		golden.RequireEqual(t, s)
	})
}
