package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/internal/keypress"
	searchview "github.com/memscope/memscope/views/search"
)

// typeQuery opens the overlay, types q and runs it (the search runs to
// its end: drain pumps it).
func typeQuery(t *testing.T, m Model, q string) Model {
	t.Helper()
	m = press(t, m, "ctrl+f")
	if m.p.search.Mode() == searchview.ModeResults {
		m = press(t, m, "/", "ctrl+u") // a new query
	}
	if !m.p.search.Typing() {
		t.Fatalf("ctrl+f should open the search prompt:\n%s", screen(m))
	}
	for _, r := range q {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		m = press(t, m, k)
	}
	return press(t, m, "enter")
}

// ctrl+f, a query, enter: the hits of every store stream in, grouped by
// file, the match marked; enter on a memory hit opens the Memories pane
// at that file, and n steps to the next hit.
func TestSearchOpensMemoryHitAndSteps(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, 120, 40)
	m = typeQuery(t, m, "terse")
	s := screen(m)
	for _, want := range []string{`search: "terse"`, "4 hits in 2 files", "memory · projects/-tmp-rc-work-beta/memory/prefers_terse.md", "L11 body", "Be «terse»."} {
		if !strings.Contains(s, want) {
			t.Errorf("the results should show %q:\n%s", want, s)
		}
	}
	if m.p.search.Running() {
		t.Fatal("the search should have ended")
	}
	m = press(t, m, "j", "enter") // the second hit: prefers_terse.md line 2
	if m.p.search.IsOpen() || m.focus != paneMemories {
		t.Fatalf("enter should close the overlay on the Memories pane (focus %d):\n%s", m.focus, screen(m))
	}
	if r, _ := m.p.memories.Selected(); r.File.Path != "prefers_terse.md" {
		t.Errorf("Memories should select prefers_terse.md, not %q", r.File.Path)
	}
	if !strings.Contains(screen(m), "hit 2/4") {
		t.Errorf("the status line should say which hit:\n%s", screen(m))
	}
	// n steps (it is not "new memory" while a search has hits), N back,
	// wrapping past the first.
	m = press(t, m, "n")
	if m.p.search.Cursor() != 2 || !strings.Contains(screen(m), "hit 3/4") {
		t.Errorf("n should step to hit 3:\n%s", screen(m))
	}
	m = press(t, m, "N", "N", "N")
	if m.p.search.Cursor() != 3 {
		t.Errorf("N from hit 3 three times should wrap to the last hit, at %d", m.p.search.Cursor())
	}
	if r, _ := m.p.memories.Selected(); r.File.Path != "prefers_terse.md" {
		t.Errorf("the last hit is prefers_terse.md; selected %q", r.File.Path)
	}
	// ctrl+f shows the list again; esc ends the search and n is "new
	// memory" again.
	m = press(t, m, "ctrl+f")
	if m.p.search.Mode() != searchview.ModeResults {
		t.Fatalf("ctrl+f with hits should show them, mode %d", m.p.search.Mode())
	}
	m = press(t, m, "esc")
	if m.p.search.IsOpen() || m.p.search.Stepping() {
		t.Fatal("esc should end the search")
	}
	if h := m.helpLine(); strings.Contains(h, "next search hit") {
		t.Errorf("after the search, n is no longer a search key: %s", h)
	}
}

// A transcript hit opens the Replay pane at the turn that holds it, the
// hit shown with its match marked and its message marked in the chain.
func TestSearchOpensTranscriptHitInReplay(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, 120, 40)
	m = typeQuery(t, m, "lorem")
	m = openHitWhere(t, m, "line 30 of session fedcb1e2", func(h engsearch.Hit) bool {
		return strings.HasSuffix(h.File, "fedcb1e2-dbe4-5555-90b5-52df88de5bed.jsonl") && h.Line == 30
	})
	if m.focus != paneReplay || m.p.replay.Timeline() == nil {
		t.Fatalf("enter should open the session in Replay:\n%s", screen(m))
	}
	s := screen(m)
	for _, want := range []string{"⌕ search hit: line 30", "«lorem»", "▶ user"} {
		if !strings.Contains(s, want) {
			t.Errorf("Replay should show %q:\n%s", want, s)
		}
	}
	// The selected step is the first at or after the hit's line.
	steps := m.p.replay.Timeline().Steps
	want := -1
	for i, st := range steps {
		if st.Line >= 30 {
			want = i
			break
		}
	}
	if !strings.Contains(s, "Step "+strconv.Itoa(want+1)+":") {
		t.Errorf("Replay should be at step %d (the turn holding line 30):\n%s", want+1, s)
	}
}

// History and paste hits open their panes at the prompt and the paste.
func TestSearchOpensHistoryAndPasteHits(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, 120, 40)
	m = typeQuery(t, m, "compare")
	if n := len(m.p.search.Hits()); n != 1 || m.p.search.Hits()[0].Store != engsearch.StoreHistory {
		t.Fatalf("one history hit expected, got %d:\n%s", n, screen(m))
	}
	m = press(t, m, "enter")
	if e, ok := m.p.history.Selected(); m.focus != paneHistory || !ok || e.Line != 4 {
		t.Errorf("History should select line 4 (focus %d):\n%s", m.focus, screen(m))
	}
	m = typeQuery(t, m, "line 17 ")
	hits := m.p.search.Hits()
	if len(hits) == 0 || hits[0].Store != engsearch.StorePastes {
		t.Fatalf("a paste hit expected:\n%s", screen(m))
	}
	m = press(t, m, "enter")
	if r, ok := m.p.pastes.Selected(); m.focus != panePastes || !ok || string(r.Hash) != hits[0].Label {
		t.Errorf("Pastes should select %s (focus %d):\n%s", hits[0].Label, m.focus, screen(m))
	}
}

// esc while a search runs stops it and keeps what it found; a newer
// search gets a new number (its feed drops an older one's results); a
// bad regex says why in the prompt.
func TestSearchCancelAndSupersede(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, 100, 30)
	m = press(t, m, "ctrl+f", "l", "o", "r", "e", "m")
	next, cmd := m.Update(keypress.Msg("enter"))
	next, cmd = next.(Model).Update(cmd()) // the overlay's Start
	m = next.(Model)
	if !m.p.search.Running() || m.feeds.search.Gen() == 0 {
		t.Fatal("enter should start a search")
	}
	first := m.feeds.search.Gen()
	// esc before any result came: the search is cancelled.
	next, esc := m.Update(keypress.Msg("esc"))
	if _, ok := esc().(searchview.Cancel); !ok {
		t.Fatal("esc while searching should ask to cancel")
	}
	next, _ = next.(Model).Update(searchview.Cancel{})
	m = next.(Model)
	if m.p.search.Running() {
		t.Error("esc should stop the search")
	}
	m = drain(t, m, cmd)
	if !strings.Contains(screen(m), "stopped") && !strings.Contains(screen(m), "hits in") {
		t.Errorf("the overlay should say the search stopped:\n%s", screen(m))
	}
	// A stale batch of the first search is dropped after a new one starts.
	m = press(t, m, "ctrl+f", "ctrl+u")
	m = typeQueryNoOpen(t, m, "terse")
	if m.feeds.search.Gen() <= first {
		t.Fatal("a new search should get a new number")
	}
	// (That a stale batch is dropped: TestSearchFeedSupersedes.)
	// A regex that does not compile.
	m = press(t, m, "/", "ctrl+u", "alt+r", "(")
	m = press(t, m, "enter")
	if !m.p.search.Typing() || !strings.Contains(screen(m), "bad regular expression") {
		t.Errorf("a bad regex should stay in the prompt and say why:\n%s", screen(m))
	}
}

// typeQueryNoOpen types q in the open prompt and runs it.
func typeQueryNoOpen(t *testing.T, m Model, q string) Model {
	t.Helper()
	for _, r := range q {
		m = press(t, m, string(r))
	}
	return press(t, m, "enter")
}

// The help line offers the overlay's keys while it is open, and n/N
// while a search's hits are stepped through.
func TestSearchHelp(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, 120, 40)
	if s := screen(press(t, m, "?")); !strings.Contains(s, "ctrl+f") || !strings.Contains(s, "alt+r") {
		t.Errorf("the help overlay should list ctrl+f and the search keys:\n%s", s)
	}
	m = press(t, m, "ctrl+f")
	if h := m.helpLine(); !strings.Contains(h, "alt+r") || !strings.Contains(h, "alt+p") {
		t.Errorf("the prompt's help line should offer its switches: %s", h)
	}
	m = typeQueryNoOpen(t, m, "terse")
	m = press(t, m, "enter")
	if h := m.helpLine(); !strings.Contains(h, "n next search hit") {
		t.Errorf("while stepping, the help line should offer n: %s", h)
	}
}

// A hit in an agent's memory opens the Memories pane on that agent's
// store, at the file.
func TestSearchOpensAgentMemoryHit(t *testing.T) {
	t.Parallel()
	m := sharedDemoModel(t, 120, 40)
	m = typeQuery(t, m, "applies and reverts it")
	m = openHitWhere(t, m, "the reviewer's migrations.md", func(h engsearch.Hit) bool {
		return strings.HasSuffix(h.File, "agent-memory/reviewer/migrations.md")
	})
	s := screen(m)
	if r, ok := m.p.memories.Selected(); m.focus != paneMemories || !ok || r.File.Path != "migrations.md" || !strings.Contains(s, "agent reviewer") {
		t.Errorf("Memories should show the reviewer's store at migrations.md (focus %d):\n%s", m.focus, s)
	}
}

// openHitWhere moves the results' cursor down to the first hit ok
// accepts (what names it) and opens it with enter.
func openHitWhere(t *testing.T, m Model, what string, ok func(engsearch.Hit) bool) Model {
	t.Helper()
	at := slices.IndexFunc(m.p.search.Hits(), ok)
	if at < 0 {
		t.Fatalf("no hit in %s:\n%s", what, screen(m))
	}
	for m.p.search.Cursor() < at {
		m = press(t, m, "j")
	}
	return press(t, m, "enter")
}
