package ui

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/keymap"
)

// longValue is 300-odd characters of words a row cuts with "…".
func longValue(tag string) string {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "%s%02d ", tag, i)
	}
	return b.String() + tag + "-END"
}

// onScreenWhole reports whether every word of v is on the screen s (the
// detail wraps it at spaces, so the words are whole, in rows).
func onScreenWhole(s, v string) bool {
	for _, w := range strings.Fields(v) {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// A 300-character value a list row cuts is whole on screen at 80×24
// after at most enter and z: a History prompt (the newest, zoomed) and a
// memory's description (its detail). Before, the detail cut each line at
// the pane's width.
func TestLongValuesReadWholeAt80(t *testing.T) {
	home := fixedHome(t)
	mfs := home.FS.(fstest.MapFS)
	prompt, hook := longValue("prm"), longValue("hok")
	var b strings.Builder
	b.Write(mfs["history.jsonl"].Data)
	b.WriteString("\n") // the fixture ends in a half-written line
	fmt.Fprintf(&b, `{"display":%q,"pastedContents":{},"timestamp":1795349999000,"project":%q,"sessionId":"fedcb1e2-dbe4-5555-90b5-52df88de5bed"}`+"\n", prompt, betaProject)
	mfs["history.jsonl"] = &fstest.MapFile{Data: []byte(b.String()), Mode: 0o644, ModTime: mfs["history.jsonl"].ModTime}
	mfs["projects/-tmp-rc-work-beta/memory/aaa_long.md"] = &fstest.MapFile{Data: []byte("---\nname: aaa long\ndescription: " + hook + "\ntype: user\n---\n\nbody\n"), Mode: 0o644, ModTime: mfs["history.jsonl"].ModTime}
	base := loadedModel(t, Options{Home: home, Root: fstest.MapFS{}}, 80, 24)

	m := press(t, fork(base), keymap.Panes[keymap.PaneIndex("History")].Key)
	if s := screen(m); !strings.Contains(s, "prm00") || !strings.Contains(s, "…") {
		t.Fatalf("the History row should show the prompt cut:\n%s", s)
	}
	m = press(t, m, "z")
	if s := screen(m); !onScreenWhole(s, prompt) {
		t.Errorf("the zoomed History prompt is not whole:\n%s", s)
	}

	m = press(t, fork(base), keymap.Panes[keymap.PaneIndex("Memories")].Key, "g")
	if r, ok := m.p.memories.Selected(); !ok || r.File.Path != "aaa_long.md" {
		t.Fatalf("Memories should select aaa_long.md first, got %+v", r.File)
	}
	s := screen(m)
	if !onScreenWhole(s, hook) {
		m = press(t, m, "z")
		s = screen(m)
	}
	if !onScreenWhole(s, hook) {
		t.Errorf("the memory's description is not whole after z:\n%s", s)
	}
}
