package prompt

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	engineloads "github.com/memscope/memscope/engine/loads"
	enginepreview "github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/hit"
	"github.com/memscope/memscope/views/component/style"
)

// preview is a session start with a user CLAUDE.md, MEMORY.md and one
// recalled memory, in the recall state on.
func preview(on bool, source string) *enginepreview.Preview {
	index := enginepreview.Layer{Kind: enginepreview.KindAutoMemory, Path: "/h/projects/p/memory/MEMORY.md", Status: enginepreview.StatusLoaded, Tokens: 98}
	pick := enginepreview.Layer{Kind: enginepreview.KindRecalled, Path: "/h/projects/p/memory/deploys.md", Status: enginepreview.StatusSkipped, Tokens: 40}
	if on {
		index.Status, pick.Status = enginepreview.StatusSkipped, enginepreview.StatusLoaded
	}
	return &enginepreview.Preview{
		Memory: model.MemoryLocation{Enabled: true},
		Layers: []enginepreview.Layer{{Kind: enginepreview.KindUser, Path: "/h/CLAUDE.md", Status: enginepreview.StatusLoaded, Tokens: 35}, index, pick},
		RecallMode: enginepreview.RecallMode{On: on, Source: source, Reason: "why",
			Off: enginepreview.RecallState{IndexTokens: 98, StartupTokens: 133}, OnState: enginepreview.RecallState{RecalledTokens: 40, StartupTokens: 35}},
	}
}

// The line under the totals says whether recall is on for this user, and
// what each state does with MEMORY.md; a click on the first layer row
// (below the four header lines) selects it.
func TestRecallLine(t *testing.T) {
	for _, c := range []struct {
		on     bool
		source string
		want   string
	}{
		{false, "default", "recall off (CLAUDE_MEMORY_STORES unset): MEMORY.md loads, 98 tok · on: dropped, ≤5 picked per prompt"},
		{true, enginepreview.RecallEnv, "recall ON (CLAUDE_MEMORY_STORES set): MEMORY.md dropped (−98 tok) · ≤5 picked per prompt, BM25 as stand-in"},
	} {
		m := New(keymap.Default(), style.New(true, true))
		m.SetSize(140, 30)
		m, _ = m.Update(PreviewMsg{Preview: preview(c.on, c.source)})
		lines := strings.Split(ansi.Strip(m.View()), "\n")
		if len(lines) < 5 || strings.TrimRight(lines[1], " ") != c.want {
			t.Errorf("recall on=%v: line 2 %q, want %q", c.on, lines[1], c.want)
		}
		if !strings.Contains(lines[4], "user") || !strings.Contains(lines[5], "auto-memory") {
			t.Fatalf("rows do not start on line 5:\n%s", strings.Join(lines, "\n"))
		}
		m.ClickRow(5)
		if r, ok := m.list.Selected(); !ok || r.Layer == nil || r.Layer.Kind != enginepreview.KindAutoMemory {
			t.Errorf("a click on line 6 selected %+v", r)
		}
	}
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(140, 30)
	p := preview(false, "default")
	p.Memory.Enabled = false
	m, _ = m.Update(PreviewMsg{Preview: p})
	if !strings.Contains(ansi.Strip(m.View()), "recall: none (auto memory is off)") {
		t.Errorf("memory off:\n%s", ansi.Strip(m.View()))
	}
}

// The selected layer's detail says which recorded sessions loaded it.
func TestLayerLoads(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 30)
	m, _ = m.Update(PreviewMsg{Preview: preview(false, "default")})
	screen := func() string { return ansi.Strip(m.View()) }
	if strings.Contains(screen(), "sessions:") {
		t.Fatalf("a loads line before the loads are read:\n%s", screen())
	}
	last := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	m, _ = m.Update(LoadsMsg{Loads: &engineloads.Report{Sessions: 2, Files: []engineloads.File{{Path: "/h/CLAUDE.md", Sessions: 2, Loads: 3, Last: last}}}})
	if !strings.Contains(screen(), "sessions: loaded in 2 sessions, last 2026-11-20") {
		t.Errorf("user CLAUDE.md:\n%s", screen())
	}
	m.ClickRow(5)
	if !strings.Contains(screen(), "sessions: loaded in none of the 2 sessions on record") {
		t.Errorf("MEMORY.md:\n%s", screen())
	}
	m.ClickRow(6)
	if strings.Contains(screen(), "sessions:") {
		t.Errorf("a recalled memory has a loads line:\n%s", screen())
	}
}

// ShowHit selects the hit's file and shows it at the hit's line; moving
// the cursor off the layer drops the hit (coming back shows the text as
// sent); a preview without the file drops it; a file the preview does
// not list is refused.
func TestShowHit(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(100, 30)
	p := preview(false, "default")
	p.Layers[0].Text = "Contents of /h/CLAUDE.md (user's private global instructions for all projects):\n\nBe brief."
	m, _ = m.Update(PreviewMsg{Preview: p})
	m.list.Select(1)
	h := Hit{Path: "/h/CLAUDE.md", Content: "<!-- draft -->\nBe brief.\n", Spot: hit.Spot{Line: 1, Offset: 5, Where: "user", Snippet: "<!-- draft -->", Match: [2]int{5, 10}}}
	if !m.ShowHit(h) {
		t.Fatal("the preview lists /h/CLAUDE.md")
	}
	v := ansi.Strip(m.View())
	if r, _ := m.Selected(); r.Layer.Path != "/h/CLAUDE.md" || !strings.Contains(v, "▶ 1 │ <!-- «draft» -->") || !strings.Contains(v, "⌕ search hit: line 1 · user") {
		t.Fatalf("the hit should be shown on its layer:\n%s", v)
	}
	if !strings.Contains(ansi.Strip(strings.Join(helpKeys(m), " ")), "the text as sent") {
		t.Errorf("help should offer esc for the text as sent: %v", helpKeys(m))
	}
	m, _ = m.Update(keypress.Msg("j"))
	m, _ = m.Update(keypress.Msg("k"))
	if v := ansi.Strip(m.View()); strings.Contains(v, "▶") || !strings.Contains(v, "Be brief.") {
		t.Errorf("back on the layer, the text as sent should show:\n%s", v)
	}
	m.ShowHit(h)
	m, _ = m.Update(PreviewMsg{Preview: preview(false, "default")}) // a reload that still lists it
	if !strings.Contains(ansi.Strip(m.View()), "▶ 1 │") {
		t.Errorf("a reload should keep the hit:\n%s", ansi.Strip(m.View()))
	}
	gone := preview(false, "default")
	gone.Layers = gone.Layers[1:]
	m, _ = m.Update(PreviewMsg{Preview: gone})
	if m.hit != nil {
		t.Error("a preview without the file should drop the hit")
	}
	if m.ShowHit(Hit{Path: "/elsewhere/CLAUDE.md", Spot: hit.Spot{Line: 1}}) || m.hit != nil {
		t.Error("a file the preview does not list should be refused")
	}
}

func helpKeys(m Model) []string {
	var out []string
	for _, b := range m.Help() {
		out = append(out, b.Help().Key+" "+b.Help().Desc)
	}
	return out
}
