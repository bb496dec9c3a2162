package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/keymap"
)

// leftColumn is the pane's text left of any rule inside it (the
// Replay steps' column beside their detail), one line per screen line:
// a text wrapped in that column is one run in it.
func leftColumn(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if f := strings.Split(l, "│"); len(f) > 1 {
			out = append(out, f[1])
		}
	}
	return strings.Join(out, "\n")
}

// paneKey is the key that opens the pane named name.
func paneKey(name string) string { return keymap.Panes[keymap.PaneIndex(name)].Key }

// The header lines the panes cut with "…" at 80 columns (and Replay's
// at 120, where its steps are 66 wide) read whole, wrapped, at 80×24
// and 120×40: the Prompt pane's window line, the Replay timeline's
// summary and its keys, and the Security pane's summary and hint. A
// click on a row under them selects that row. Before, each of these
// ended in "…".
func TestHeaderLinesReadWholeAndClicksLand(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		base, l := sharedDemo(t, size[0], size[1])
		for _, c := range []struct {
			name  string
			keys  []string
			whole []string
		}{
			{"Prompt", []string{paneKey("Prompt")}, []string{
				"window 200k · no model named: the 200k preset; autocompact at 167k · default · this prompt is",
				"recall off (CLAUDE_MEMORY_STORES unset): MEMORY.md loads"}},
			{"Replay", []string{paneKey("Replay"), "G", "enter"}, []string{
				"· 5 compactions · window 200k: warn 147k, autocompact 167k, blocked 177k",
				"[ ] compactions, p pipeline, esc sessions"}},
			{"Security", []string{paneKey("Security")}, []string{
				"1 secret in 1 place (memory 1) ·",
				"space: pick · a: scrub (the picked, or all) · secrets are masked; memscope secrets --show prints them"}},
		} {
			m := press(t, fork(base), c.keys...)
			s := screen(m)
			for _, w := range c.whole {
				if !readWhole(leftColumn(s), w) {
					t.Errorf("%s at %dx%d: %q is not whole:\n%s", c.name, size[0], size[1], w, s)
				}
			}
		}

		// Clicks land on the row clicked, under however many lines the
		// header takes.
		m := press(t, fork(base), paneKey("Prompt"))
		if y := lineWith(screen(m), " later "); y < 0 {
			t.Errorf("Prompt at %dx%d: no later layer on screen:\n%s", size[0], size[1], screen(m))
		} else if m = click(t, m, y-m.bodyTop()-1); true {
			r, ok := m.p.prompt.Selected()
			if !ok || r.Layer == nil || r.Layer.Status != preview.StatusConditional {
				t.Errorf("Prompt at %dx%d: a click on the first later layer's row selected %+v", size[0], size[1], r.Layer)
			} else if !readWhole(screen(m), r.Layer.Path) {
				// The row cuts the path from the left; a later rule's
				// text is not sent, so the detail names the file.
				t.Errorf("Prompt at %dx%d: the later layer's path %s is not whole:\n%s", size[0], size[1], r.Layer.Path, screen(m))
			}
		}
		// The memory folder the totals cut from the left is whole in
		// the MEMORY.md layer's detail (zoomed, at 80×24).
		m = press(t, fork(base), paneKey("Prompt"), "G")
		if r, ok := m.p.prompt.Selected(); ok && r.Layer != nil && !readWhole(screen(m), filepath.Dir(r.Layer.Path)) {
			m = press(t, m, "z")
		}
		if r, ok := m.p.prompt.Selected(); !ok || r.Layer == nil || r.Layer.Kind != preview.KindAutoMemory || !readWhole(screen(m), filepath.Dir(r.Layer.Path)) || !strings.HasPrefix(r.Layer.Path, l.Home) {
			t.Errorf("Prompt at %dx%d: MEMORY.md's folder is not whole in its detail:\n%s", size[0], size[1], screen(m))
		}
		// Memories: under the store's line and the legend (the demo has
		// three stores); before, a click selected the row below.
		m = press(t, fork(base), paneKey("Memories"))
		if y := lineWith(screen(m), "feedback_no_db_mocks.md"); y < 0 {
			t.Errorf("Memories at %dx%d: no feedback_no_db_mocks.md row:\n%s", size[0], size[1], screen(m))
		} else if r, ok := click(t, m, y-m.bodyTop()-1).p.memories.Selected(); !ok || filepath.Base(r.File.Path) != "feedback_no_db_mocks.md" {
			t.Errorf("Memories at %dx%d: a click on feedback_no_db_mocks.md's row selected %+v", size[0], size[1], r.File.Path)
		}
		m = press(t, fork(base), paneKey("Replay"), "G", "enter", "g")
		clicked, keyed := click(t, fork(m), stepRow(t, m, 3)), press(t, fork(m), "j", "j")
		if s := screen(clicked); s != screen(keyed) || !strings.Contains(s, "Step 3: after") {
			t.Errorf("Replay at %dx%d: click on step 3:\n%s\nkeys to step 3:\n%s", size[0], size[1], s, screen(keyed))
		}
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m, _ := secretsModel(t, size[0], size[1])
		m = press(t, m, paneKey("Security"))
		y := lineWith(screen(m), "stripe-secret-key ")
		if y < 0 {
			t.Fatalf("Security at %dx%d: no stripe row:\n%s", size[0], size[1], screen(m))
		}
		if r, ok := click(t, m, y-m.bodyTop()-1).p.security.Selected(); !ok || r.Finding == nil || r.Finding.Rule != "stripe-secret-key" {
			t.Errorf("Security at %dx%d: a click on the stripe row selected %+v", size[0], size[1], r)
		}
	}
}

// lineWith is the index of the first screen line holding s, or -1.
func lineWith(screen, s string) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}
