package prompt

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	engineloads "github.com/memscope/memscope/engine/loads"
	enginepreview "github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/engine/window"
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

// The line under the window says whether recall is on for this user, and
// what each state does with MEMORY.md; a click on the second layer row
// (below the five header lines) selects it.
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
		if len(lines) < 6 || strings.TrimRight(lines[2], " ") != c.want {
			t.Errorf("recall on=%v: line 3 %q, want %q", c.on, lines[2], c.want)
		}
		if !strings.Contains(lines[5], "user") || !strings.Contains(lines[6], "auto-memory") {
			t.Fatalf("rows do not start on line 6:\n%s", strings.Join(lines, "\n"))
		}
		m.ClickRow(6)
		if r, ok := m.list.Selected(); !ok || r.Layer == nil || r.Layer.Kind != enginepreview.KindAutoMemory {
			t.Errorf("a click on line 7 selected %+v", r)
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
	m.ClickRow(m.headRows() + 1)
	if !strings.Contains(screen(), "sessions: loaded in none of the 2 sessions on record") {
		t.Errorf("MEMORY.md:\n%s", screen())
	}
	m.ClickRow(m.headRows() + 2)
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

// The line under the totals is the window the next session is measured
// against and its autocompact level, each with its source (issue 29:
// the Prompt pane shows where the window came from), and the prompt's
// share of it.
func TestWindowLineNamesItsSource(t *testing.T) {
	p := preview(false, "default")
	p.Totals.Tokens = 2000
	p.Window.Window = window.Value{Tokens: 200000, Source: "the model's window"}
	p.Window.Autocompact = window.Value{Tokens: 67000, Source: "CLAUDE_CODE_AUTO_COMPACT_WINDOW"}
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(160, 30)
	m, _ = m.Update(PreviewMsg{Preview: p})
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	want := "window 200k · the model's window; autocompact at 67k · CLAUDE_CODE_AUTO_COMPACT_WINDOW · this prompt is 1.0% of the window"
	if len(lines) < 2 || strings.TrimRight(lines[1], " ") != want {
		t.Errorf("line 2 %q, want %q", lines[1], want)
	}
}

// compact is s without spaces and line breaks: a text wrapped at any
// space is found in it as one run.
func compact(s string) string { return strings.Join(strings.Fields(s), "") }

// At 80 columns the header's lines wrap instead of being cut: the
// totals, the window line (the one `memscope prompt` prints) and the
// recall line read whole, only the memory folder is cut (from the left,
// and its layer's detail names it whole); a click on a row selects that
// row however many lines the header takes. Before, the window and recall
// lines ended in "…" and clicks assumed five header lines.
func TestHeaderWrapsAndClicksLandOnTheRow(t *testing.T) {
	p := preview(false, "default")
	p.MemoryDir = "/home/someone/.claude/projects/-home-someone-work-a-project-with-a-long-name/memory"
	p.Totals = enginepreview.Totals{Chars: 123456, Tokens: 30864}
	p.Window.Window = window.Value{Tokens: 200000, Source: "no model named: the 200k preset"}
	p.Window.Autocompact = window.Value{Tokens: 167000, Source: "default"}
	p.Layers[1].Path = p.MemoryDir + "/MEMORY.md"
	p.Layers[1].Text = "Contents of " + p.Layers[1].Path + " (user's auto-memory):\n\n- a line"
	for _, size := range [][2]int{{80, 18}, {120, 34}} {
		m := New(keymap.Default(), style.New(true, true))
		m.SetSize(size[0], size[1])
		m, _ = m.Update(PreviewMsg{Preview: p})
		v := ansi.Strip(m.View())
		lines := strings.Split(v, "\n")
		n := m.headRows()
		if size[0] == 80 && n <= 5 {
			t.Errorf("at 80 columns the header should take more than 5 lines:\n%s", v)
		}
		for i, l := range lines[:n] {
			if strings.Contains(l, "…") && !strings.HasPrefix(strings.TrimSpace(l), "…") && !strings.Contains(l, "· memory …") {
				t.Errorf("%d cols: header line %d is cut: %q", size[0], i+1, l)
			}
		}
		for _, whole := range []string{"next session: 3 layers, 123456 chars ≈ 30864 tokens · memory",
			"window " + p.WindowLine() + " · this prompt is 15.4% of the window",
			"recall off (CLAUDE_MEMORY_STORES unset): MEMORY.md loads, 98 tok"} {
			if !strings.Contains(compact(strings.Join(lines[:n], "\n")), compact(whole)) {
				t.Errorf("%d cols: %q is not whole in the header:\n%s", size[0], whole, v)
			}
		}
		if !strings.Contains(lines[n], "user") || !strings.Contains(lines[n+1], "auto-memory") {
			t.Fatalf("%d cols: the rows do not start under the %d header lines:\n%s", size[0], n, v)
		}
		for i, kind := range []enginepreview.LayerKind{enginepreview.KindUser, enginepreview.KindAutoMemory, enginepreview.KindRecalled} {
			m.ClickRow(n + i)
			if r, ok := m.Selected(); !ok || r.Layer == nil || r.Layer.Kind != kind {
				t.Errorf("%d cols: a click on row %d selected %+v, want %s", size[0], n+i, r.Layer, kind)
			}
		}
		// The layer whose text does not name its file (a recalled pick
		// skipped here) names it in the detail; MEMORY.md's "Contents of"
		// names the folder whole.
		if v := ansi.Strip(m.View()); !strings.Contains(compact(v), compact(p.Layers[2].Path)) {
			t.Errorf("%d cols: the recalled layer's path is not whole in its detail:\n%s", size[0], v)
		}
		m.ClickRow(n + 1)
		if v := ansi.Strip(m.View()); !strings.Contains(compact(v), compact(p.MemoryDir)) {
			t.Errorf("%d cols: the memory folder is not whole anywhere:\n%s", size[0], v)
		}
	}
}
