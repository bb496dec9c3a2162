package replay

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/engine/timeline"
	ctxwindow "github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// readTimeline builds the timeline of a real transcript with partial
// compactions (the repository's copy).
func readTimeline(t *testing.T) *timeline.Timeline {
	t.Helper()
	const name = "transcript-partial-compactions.jsonl"
	fsys := os.DirFS("../../model/testdata/transcripts")
	tr, err := model.ReadTranscriptWith(fsys, name, model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	tl := timeline.Build(tr, ctxwindow.Size200k(), 0)
	boundaries := 0
	for _, s := range tl.Steps {
		if s.Kind == timeline.StepBoundary {
			boundaries++
		}
	}
	if boundaries < 2 {
		t.Fatalf("%s has %d boundary steps; the test needs two", name, boundaries)
	}
	return &tl
}

// run feeds cmd's messages (batches unpacked) back into the pane, the way
// the root routes StateMsg and PipelineMsg, and returns the other
// messages (requests to the root).
// openTimeline opens tl in the pane (TimelineMsg) and runs what that
// asks for.
func openTimeline(t *testing.T, m Model, tl *timeline.Timeline) Model {
	t.Helper()
	m, cmd := m.Update(TimelineMsg{Timeline: tl})
	m, _ = run(t, m, cmd)
	return m
}

func run(t *testing.T, m Model, cmd tea.Cmd) (Model, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case StateMsg, PipelineMsg:
			var next tea.Cmd
			m, next = m.Update(msg)
			queue = append(queue, next)
		case nil:
		default:
			out = append(out, msg)
		}
	}
	return m, out
}

func press(t *testing.T, m Model, keys ...string) (Model, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(keypress.Msg(k))
		var sent []tea.Msg
		m, sent = run(t, m, cmd)
		out = append(out, sent...)
	}
	return m, out
}

func screen(m Model) string { return ansi.Strip(m.View()) }

// helpKeys lists the help keys of the pane's own bindings.
func helpKeys(m Model) string {
	var ks []string
	for _, b := range m.Help() {
		ks = append(ks, b.Help().Key)
	}
	return strings.Join(ks, " ")
}

// TestModes walks the pane through its three modes with the keys a person
// uses and checks the mode, what is shown and the help offered in each.
func TestModes(t *testing.T) {
	tl := readTimeline(t)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 30)
	m, _ = m.Update(SessionsMsg{Sessions: []Session{{File: model.TranscriptFile{Path: tl.Path, SessionID: tl.Session, Kind: model.TranscriptMain}, Title: sessions.Title{Text: "partial", Source: sessions.TitleAI}}}, Now: now})
	if m.Mode() != ModeSessions || helpKeys(m) != "enter x X" || !strings.Contains(screen(m), "enter to replay one") {
		t.Fatalf("new pane: mode %v, help %q\n%s", m.Mode(), helpKeys(m), screen(m))
	}

	m, out := press(t, m, "enter")
	if len(out) != 1 || out[0] != (msgs.ReplaySession{Path: tl.Path}) || !strings.Contains(screen(m), "reading "+tl.Path) {
		t.Fatalf("enter sent %#v\n%s", out, screen(m))
	}
	m = openTimeline(t, m, tl)
	last := len(tl.Steps) - 1
	if m.Mode() != ModeTimeline || m.steps.Index() != last || m.stateFor != last || !strings.Contains(screen(m), "The model saw") {
		t.Fatalf("timeline: mode %v, step %d, state for %d\n%s", m.Mode(), m.steps.Index(), m.stateFor, screen(m))
	}
	if h := helpKeys(m); h != "→/l ←/h ] [ p w x X esc J K z" {
		t.Errorf("timeline help %q", h)
	}

	m, _ = press(t, m, "p")
	if m.Mode() != ModePipeline || m.pipe == nil || m.pipeFor != last || !strings.Contains(screen(m), "Pipeline on step") {
		t.Fatalf("p: mode %v, pipeline %v for %d\n%s", m.Mode(), m.pipe != nil, m.pipeFor, screen(m))
	}
	if h := helpKeys(m); h != "→/l ←/h w p esc J K z" {
		t.Errorf("pipeline help %q", h)
	}
	// → moves between stages in the pipeline: the footer says stage,
	// not step (it said "next step").
	if h := m.Help(); h[0].Help().Desc != "next stage" || h[1].Help().Desc != "previous stage" {
		t.Errorf("pipeline help says %q / %q for the stage keys", h[0].Help().Desc, h[1].Help().Desc)
	}

	// A jump to a compaction in the pipeline view runs the pipeline on
	// the step it lands on (it used to wait on "running…" for ever).
	m, _ = press(t, m, "[")
	at := m.steps.Index()
	if s, _ := m.steps.Selected(); at == last || s.Kind != timeline.StepBoundary {
		t.Fatalf("[ stayed on step %d (%v)", at, s.Kind)
	}
	if m.pipe == nil || m.pipeFor != at || m.stateFor != at || strings.Contains(screen(m), "running…") {
		t.Errorf("[ in the pipeline: pipeline for %d, state for %d, at %d\n%s", m.pipeFor, m.stateFor, at, screen(m))
	}

	m, _ = press(t, m, "esc")
	if m.Mode() != ModeTimeline || m.tl != tl || m.steps.Index() != at {
		t.Fatalf("esc in the pipeline: mode %v, step %d", m.Mode(), m.steps.Index())
	}
	m, _ = press(t, m, "p", "p")
	if m.Mode() != ModeTimeline {
		t.Fatalf("p p: mode %v", m.Mode())
	}
	m, _ = press(t, m, "esc")
	if m.Mode() != ModeSessions || m.tl != nil || m.pipe != nil || !strings.Contains(screen(m), "enter to replay one") {
		t.Fatalf("esc in the timeline: mode %v\n%s", m.Mode(), screen(m))
	}
}

// TestEveryModeDraws checks that View, Help and ClickRow handle every
// mode of the enum, and that the names are distinct.
func TestEveryModeDraws(t *testing.T) {
	tl := readTimeline(t)
	names := map[string]bool{}
	for md := ModeSessions; md <= ModePipeline; md++ {
		m := New(keymap.Default(), style.New(true, true))
		m.SetSize(80, 24)
		m, _ = m.Update(TimelineMsg{Timeline: tl})
		m.mode = md
		if screen(m) == "" || len(m.Help()) == 0 {
			t.Errorf("mode %v draws nothing or offers no keys", md)
		}
		m.ClickRow(4)
		names[md.String()] = true
	}
	if len(names) != 3 {
		t.Errorf("mode names %v", names)
	}
}

// A followed timeline says it follows the file; "● live" read as "this
// session is running" on a session eight days old.
func TestFollowingSaysFollowing(t *testing.T) {
	tl := readTimeline(t)
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(120, 30)
	m = openTimeline(t, m, tl)
	if strings.Contains(screen(m), "following") {
		t.Fatalf("not followed, yet:\n%s", screen(m))
	}
	m, _ = m.Update(FollowingMsg{On: true})
	got := screen(m)
	if !strings.Contains(got, "● following the file · step") || strings.Contains(got, "live") {
		t.Errorf("followed timeline's nav line:\n%s", got)
	}
}
