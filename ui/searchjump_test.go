package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/files"
	searchview "github.com/memscope/memscope/views/search"
)

// markedLine is the screen's line that marks a hit (▶), "" when none.
func markedLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "▶") && strings.Contains(l, "│") {
			return l
		}
	}
	return ""
}

// onlyHit checks the search found exactly one hit, in store st, and
// returns it.
func onlyHit(t *testing.T, m Model, st engsearch.Store) engsearch.Hit {
	t.Helper()
	hits := m.p.search.Hits()
	if len(hits) != 1 || hits[0].Store != st {
		t.Fatalf("one %s hit expected, got %d:\n%s", st, len(hits), screen(m))
	}
	return hits[0]
}

// A hit in the open project's CLAUDE.md (inside an HTML comment, which
// the text sent leaves out) opens the Prompt pane on that file's layer,
// its detail showing the file as on disk at line 8, the match marked;
// esc shows the text as sent again.
func TestSearchOpensClaudeMdHitInPrompt(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m, l := sharedDemo(t, size[0], size[1])
		m = typeQuery(t, m, "internal note")
		onlyHit(t, m, engsearch.StoreClaudeMd)
		m = press(t, m, "enter")
		want := filepath.Join(l.Project("shop-api"), "CLAUDE.md")
		r, ok := m.p.prompt.Selected()
		if m.focus != panePrompt || !ok || r.Layer == nil || r.Layer.Path != want {
			t.Fatalf("%dx%d: Prompt should select %s (focus %d):\n%s", size[0], size[1], want, m.focus, screen(m))
		}
		s := screen(m)
		if ml := markedLine(s); !strings.Contains(ml, " 8 │ ") || !strings.Contains(ml, "«internal note»") {
			t.Errorf("%dx%d: line 8 should be marked with its match, got %q:\n%s", size[0], size[1], ml, s)
		}
		// At 80x24 the detail has room for the hit's line and a few
		// above it only; the status line says where the hit is.
		if !strings.Contains(s, "hit 1/1: ") || size[1] == 40 && !strings.Contains(s, "⌕ search hit: line 8 · project") {
			t.Errorf("%dx%d: the detail and the status line should say where the hit is:\n%s", size[0], size[1], s)
		}
		m = press(t, m, "esc")
		if s := screen(m); markedLine(s) != "" || !strings.Contains(s, "Contents of ") {
			t.Errorf("%dx%d: esc should show the text as sent:\n%s", size[0], size[1], s)
		}
	}
}

// A hit in another project's CLAUDE.md opens that project first, then
// the Prompt pane at the file in its preview.
func TestSearchOpensOtherProjectsClaudeMdHit(t *testing.T) {
	t.Parallel()
	m, l := sharedDemo(t, 120, 40)
	shop := m.data.open
	m = typeQuery(t, m, "Plan before apply")
	onlyHit(t, m, engsearch.StoreClaudeMd)
	m = press(t, m, "enter")
	if m.data.open == shop || m.data.open != model.Slug(l.Project("infra")) {
		t.Fatalf("the infra project should be open, not %s", m.data.open)
	}
	want := filepath.Join(l.Project("infra"), "CLAUDE.md")
	if r, ok := m.p.prompt.Selected(); m.focus != panePrompt || !ok || r.Layer == nil || r.Layer.Path != want {
		t.Fatalf("Prompt should select %s (focus %d):\n%s", want, m.focus, screen(m))
	}
	if ml := markedLine(screen(m)); !strings.Contains(ml, " 3 │ ") || !strings.Contains(ml, "«Plan before apply»") {
		t.Errorf("line 3 should be marked with its match, got %q:\n%s", ml, screen(m))
	}
	if m.promptHit != nil {
		t.Error("the hit should no longer wait")
	}
}

// A hit in one of the user's rules (a file inside the Claude home, which
// the hit names relative to it) opens its layer: one that loads, and one
// that loads later (paths: frontmatter), whose layer has no text yet the
// detail shows the file at the line.
func TestSearchOpensUserRuleHit(t *testing.T) {
	t.Parallel()
	base, l := sharedDemo(t, 120, 40)
	for _, rule := range []struct{ name, q string }{{"review.md", "list its callers before"}, {"go-style.md", "Table tests over copy"}} {
		m := typeQuery(t, fork(base), rule.q)
		isRule := func(h engsearch.Hit) bool { return h.Store == engsearch.StoreClaudeMd }
		at := slices.IndexFunc(m.p.search.Hits(), isRule)
		if at < 0 {
			t.Fatalf("no hit in %s:\n%s", rule.name, screen(m))
		}
		h := m.p.search.Hits()[at]
		if strings.HasPrefix(h.File, "/") || h.File != "rules/"+rule.name {
			t.Fatalf("a file in the home should be named relative to it: %s", h.File)
		}
		m = openHitWhere(t, m, rule.name, isRule)
		want := filepath.Join(l.Home, "rules", rule.name)
		if r, ok := m.p.prompt.Selected(); m.focus != panePrompt || !ok || r.Layer == nil || r.Layer.Path != want {
			t.Fatalf("Prompt should select %s (focus %d):\n%s", want, m.focus, screen(m))
		}
		if ml := markedLine(screen(m)); !strings.Contains(ml, fmt.Sprintf(" %d │ ", h.Line)) || !strings.Contains(ml, "«"+rule.q+"»") {
			t.Errorf("%s: line %d should be marked, got %q:\n%s", rule.name, h.Line, ml, screen(m))
		}
	}
}

// A CLAUDE.md hit whose file went away after the search says so in the
// status line instead of showing a stale file.
func TestSearchClaudeMdHitFileGone(t *testing.T) {
	t.Parallel()
	m, l := demoModel(t, 120, 40)
	m = typeQuery(t, m, "Plan before apply")
	onlyHit(t, m, engsearch.StoreClaudeMd)
	if err := os.Remove(filepath.Join(l.Project("infra"), "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	m = press(t, m, "enter")
	if s := screen(m); markedLine(s) != "" || !strings.Contains(s, "hit 1/1") || !strings.Contains(s, "no such file") {
		t.Errorf("the status line should say the file is gone:\n%s", s)
	}
	if m.promptHit != nil {
		t.Error("a hit whose file is gone should not wait")
	}
}

// A hit in a file-history backup opens the Files pane at the session,
// the backed-up file and the version, with the version's text at the
// hit's line, the match marked; t toggles to the diffs and back.
func TestSearchOpensFileHistoryHitInFiles(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m, l := sharedDemo(t, size[0], size[1])
		m = typeQuery(t, m, "createOrder(eventID)")
		h := onlyHit(t, m, engsearch.StoreFileHistory)
		m = press(t, m, "enter")
		s := m.p.files.Session()
		if m.focus != paneFiles || s == nil || string(s.SessionID) != h.SessionID {
			t.Fatalf("%dx%d: Files should open session %s (focus %d):\n%s", size[0], size[1], h.SessionID, m.focus, screen(m))
		}
		f := m.p.files.File()
		r, ok := m.p.files.Selected()
		target := filepath.Join(l.Project("shop-api"), "internal", "payments", "webhook.go")
		if m.p.files.Level() != files.LevelVersions || f == nil || f.Target != target || !ok || r.Version == nil || r.Version.Version != 1 || r.Version.BackupPath != h.File {
			t.Fatalf("%dx%d: Files should be at webhook.go v1:\n%s", size[0], size[1], screen(m))
		}
		scr := screen(m)
		if ml := markedLine(scr); !strings.Contains(ml, " 8 │ ") || !strings.Contains(ml, "«createOrder(eventID)»") {
			t.Errorf("%dx%d: line 8 should be marked with its match, got %q:\n%s", size[0], size[1], ml, scr)
		}
		for _, want := range []string{"⌕ search hit: line 8", "webhook.go  v1 · the version's text", "hit 1/1"} {
			if !strings.Contains(scr, want) {
				t.Errorf("%dx%d: the screen should show %q:\n%s", size[0], size[1], want, scr)
			}
		}
		// space: the diff against the file on disk, then against the
		// next version, then the text at the hit again.
		m = press(t, m, "space")
		if s := screen(m); markedLine(s) != "" || !strings.Contains(s, "v1 → disk") {
			t.Errorf("%dx%d: space should show the diff against the disk:\n%s", size[0], size[1], s)
		}
		m = press(t, m, "space", "space")
		if !strings.Contains(markedLine(screen(m)), "«createOrder(eventID)»") {
			t.Errorf("%dx%d: space twice more should come back to the text at the hit:\n%s", size[0], size[1], screen(m))
		}
		// esc goes back to the files at the version's turn.
		m = press(t, m, "esc")
		if r, ok := m.p.files.Selected(); m.p.files.Level() != files.LevelFiles || !ok || r.File == nil || r.File.Target != target {
			t.Errorf("%dx%d: esc should go back to the files with webhook.go selected:\n%s", size[0], size[1], screen(m))
		}
	}
}

// n and N step between hits of different stores: a CLAUDE.md hit in
// another project, a backup, and back.
func TestSearchStepsAcrossClaudeMdAndFileHistory(t *testing.T) {
	t.Parallel()
	m, l := sharedDemo(t, 120, 40)
	m = press(t, m, "ctrl+f", "alt+r")
	m = typeQueryNoOpen(t, m, `Plan before apply|createOrder\(eventID\)`)
	hits := m.p.search.Hits()
	if len(hits) != 2 || hits[0].Store != engsearch.StoreClaudeMd || hits[1].Store != engsearch.StoreFileHistory {
		t.Fatalf("a CLAUDE.md hit then a backup hit expected:\n%s", screen(m))
	}
	m = press(t, m, "enter")
	if r, ok := m.p.prompt.Selected(); m.focus != panePrompt || !ok || r.Layer == nil || r.Layer.Path != filepath.Join(l.Project("infra"), "CLAUDE.md") {
		t.Fatalf("the first hit should open infra's CLAUDE.md in Prompt:\n%s", screen(m))
	}
	m = press(t, m, "n")
	if m.focus != paneFiles || m.p.search.Cursor() != 1 || !strings.Contains(markedLine(screen(m)), "«createOrder(eventID)»") {
		t.Fatalf("n should open the backup hit in Files:\n%s", screen(m))
	}
	m = press(t, m, "N")
	if m.focus != panePrompt || m.p.search.Cursor() != 0 || !strings.Contains(markedLine(screen(m)), "«Plan before apply»") {
		t.Fatalf("N should come back to the CLAUDE.md hit:\n%s", screen(m))
	}
	if m.p.search.Mode() != searchview.ModeClosed {
		t.Error("stepping should leave the overlay closed")
	}
}
