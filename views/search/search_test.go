package search

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	engine "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
)

func newModel() Model {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(80, 12)
	return m
}

func press(t *testing.T, m Model, keys ...string) (Model, []any) {
	t.Helper()
	var out []any
	for _, k := range keys {
		var cmd func() any
		next, c, _ := m.Update(keypress.Msg(k))
		m = next
		if c != nil {
			cmd = func() any { return c() }
			out = append(out, cmd())
		}
	}
	return m, out
}

func hit(file string, line int, snippet string, at int, n int) engine.Hit {
	return engine.Hit{Store: engine.StoreMemory, File: file, Line: line, Where: "body", Snippet: snippet, Match: [2]int{at, at + n}}
}

// Typing a query and enter asks for the search with the switches set;
// the results group hits by file and mark the match.
func TestPromptStartsAndResultsGroup(t *testing.T) {
	m := newModel()
	m.Open("/p")
	m, out := press(t, m, "d", "b", "alt+r", "alt+c", "alt+p", "enter")
	var start Start
	for _, o := range out {
		if s, ok := o.(Start); ok {
			start = s
		}
	}
	if start != (Start{Query: "db", Regex: true, Case: true, Project: true}) {
		t.Fatalf("enter should ask for the search as set, got %+v", start)
	}
	if !m.Running() || m.Mode() != ModeResults {
		t.Fatal("the overlay should show the results while it runs")
	}
	m.Add([]engine.Hit{hit("a.md", 1, "the db is slow", 4, 2), hit("a.md", 3, "db again", 0, 2)})
	m.Add([]engine.Hit{hit("b.md", 7, "no db here", 3, 2)})
	v := ansi.Strip(m.View())
	for _, want := range []string{"searching… 3 hits in 2 files so far", "memory · a.md", "memory · b.md", "▸ L1 body  the «db» is slow", "  L7 body  no «db» here"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view should show %q:\n%s", want, v)
		}
	}
	if strings.Count(v, "memory · a.md") != 1 {
		t.Errorf("a file's hits should share one heading:\n%s", v)
	}
	m.Finish(engine.Summary{Files: 9, Bytes: 2048}, nil)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "3 hits in 2 files · searched 9 files") {
		t.Errorf("the end should say what was searched:\n%s", v)
	}
}

// esc stops a running search first, then closes and ends it; enter and
// n/N jump; stepping wraps.
func TestEscStopsThenEnds(t *testing.T) {
	m := newModel()
	m.Open("")
	m, _ = press(t, m, "x", "enter")
	m.Add([]engine.Hit{hit("a.md", 1, "x", 0, 1), hit("a.md", 2, "x", 0, 1)})
	m, out := press(t, m, "esc")
	if len(out) != 1 || out[0] != (Cancel{}) || m.Running() || !m.IsOpen() {
		t.Fatalf("the first esc should cancel and stay open: %v", out)
	}
	m, out = press(t, m, "j", "enter")
	if j, ok := out[0].(Jump); !ok || j.Index != 1 || j.Of != 2 || m.IsOpen() || !m.Stepping() {
		t.Fatalf("enter should jump to hit 2 and close: %+v", out)
	}
	if j := m.Step(1)().(Jump); j.Index != 0 {
		t.Errorf("n past the last hit should wrap to the first, got %d", j.Index)
	}
	m.Open("")
	m, _ = press(t, m, "esc")
	if m.IsOpen() || m.Stepping() || len(m.Hits()) != 0 {
		t.Error("esc on a finished search should end it")
	}
	// esc in an empty prompt closes it.
	m.Open("")
	if m, _ = press(t, m, "esc"); m.IsOpen() {
		t.Error("esc in the prompt should close the overlay")
	}
}

// A query matching everywhere stops at MaxHits.
func TestMaxHits(t *testing.T) {
	m := newModel()
	hs := make([]engine.Hit, MaxHits+5)
	for i := range hs {
		hs[i] = hit("a.md", i+1, "x", 0, 1)
	}
	if m.Add(hs) {
		t.Error("Add should say stop past MaxHits")
	}
	if len(m.Hits()) != MaxHits {
		t.Errorf("kept %d hits, want %d", len(m.Hits()), MaxHits)
	}
}

// The match stays in view however long the context, and the row fits.
func TestHitLineFits(t *testing.T) {
	m := newModel()
	long := strings.Repeat("before ", 30) + "NEEDLE" + strings.Repeat(" after", 30)
	m.Open("")
	m, _ = press(t, m, "n", "enter")
	m.Add([]engine.Hit{hit("a.md", 1, long, strings.Index(long, "NEEDLE"), 6)})
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		if w := lipgloss.Width(l); w > 80 {
			t.Errorf("a line is %d cells wide: %q", w, l)
		}
	}
	if !strings.Contains(ansi.Strip(m.View()), "«NEEDLE»") {
		t.Errorf("the match should be in view:\n%s", ansi.Strip(m.View()))
	}
}

// What a hit says about itself comes from transcripts: a control
// sequence in a tool's name reaches the screen as text, not as a
// command to the terminal.
func TestHitLineStripsControls(t *testing.T) {
	m := newModel()
	m.Open("")
	m, _ = press(t, m, "x", "enter")
	h := hit("a.jsonl", 1, "x", 0, 1)
	h.Store, h.Where = engine.StoreTranscripts, "tool_use evil\x1b]0;pwned\x07 input.command"
	m.Add([]engine.Hit{h})
	if v := m.View(); strings.Contains(v, "\x1b]0;") || strings.Contains(v, "\x07") {
		t.Errorf("a control sequence reached the view: %q", v)
	}
}
