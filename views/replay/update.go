package replay

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/msgs"
)

// StateMsg carries the resume state at a step, computed off the update
// loop; the root routes it back to the pane.
type StateMsg struct {
	k     int
	tl    *timeline.Timeline
	state timeline.Resume
}

// PipelineMsg carries a pipeline run on one step's state.
type PipelineMsg struct {
	k      int
	tl     *timeline.Timeline
	window int
	res    compact.Result
	err    error
}

// Update handles computed states and pipelines, and keys by mode.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	m, cmd := m.update(msg)
	m.layout()
	return m, cmd
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch s := msg.(type) {
	case StateMsg:
		if s.tl == m.tl {
			m.state, m.stateFor = &s.state, s.k
		}
		return m, nil
	case PipelineMsg:
		if s.tl == m.tl && s.window == m.window {
			m.pipe, m.pipeErr, m.pipeFor, m.pipeStage = &s.res, s.err, s.k, 0
		}
		return m, nil
	case SessionsLoadingMsg:
		m.setSessionsLoading(s.Project)
		return m, nil
	case SessionsMsg:
		m.setSessions(s.Sessions, s.Now)
		return m, nil
	case UnavailableMsg:
		m.setUnavailable(s.Why)
		return m, nil
	case VaultSessionsMsg:
		m.setVaultSessions(s)
		return m, nil
	case TimelineMsg:
		cmd := m.setTimeline(s.Timeline, s.AutocompactOff)
		return m, cmd
	case FollowingMsg:
		m.following = s.On
		return m, nil
	case LoadingMsg:
		m.loading = s.Path
		return m, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && m.chooser.open && m.mode == ModeTimeline {
		return m.updateChooser(k)
	}
	if m.mode != ModeSessions && !m.steps.Filtering() {
		if d, ok := m.det.Update(msg, m.sideContent(), m.sideArea()); ok {
			m.det = d
			return m, nil
		}
	}
	switch m.mode {
	case ModeSessions:
		return m.updateSessions(msg)
	case ModeTimeline:
		return m.updateTimeline(msg)
	case ModePipeline:
		return m.updatePipeline(msg)
	}
	panic(badMode(m.mode))
}

// updateSessions: the list, export of the selected session, enter to
// ask the root for its timeline.
func (m Model) updateSessions(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	var handled bool
	m.sessions, cmd, handled = m.sessions.Update(msg)
	if handled {
		return m, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	if m2, cmd, ok := m.vaultKeys(k); ok {
		return m2, cmd
	}
	s, selected := m.sessions.Selected()
	switch {
	case !selected:
	case key.Matches(k, m.keys.Export) || key.Matches(k, m.keys.ExportHTML):
		return m, exportCmd(k, *m.keys, s.File.Path)
	case key.Matches(k, m.keys.Open):
		p := s.File.Path
		m.loading = p
		return m, func() tea.Msg { return msgs.ReplaySession{Path: p} }
	}
	return m, nil
}

// updateTimeline: step through the timeline; esc (with no filter)
// goes back to the sessions, p opens the pipeline.
func (m Model) updateTimeline(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if m2, cmd, ok := m.vaultKeys(k); ok && !m.steps.Filtering() {
			return m2, cmd
		}
		if m2, cmd, ok := m.jumpKeys(k); ok {
			return m2, cmd
		}
		if m2, cmd, ok := m.lostKeys(k); ok {
			return m2, cmd
		}
		switch {
		case key.Matches(k, m.keys.Back) && m.steps.FilterValue() == "":
			m.closeTimeline()
			return m, nil
		case m.exports(k):
			return m, exportCmd(k, *m.keys, m.tl.Path)
		case key.Matches(k, m.keys.Pipeline):
			m.mode, m.pipe = ModePipeline, nil
			return m, m.pipelineCmd()
		case key.Matches(k, m.keys.Window):
			m.window = (m.window + 1) % len(windows)
			m.pipe = nil
			return m, nil
		case key.Matches(k, m.keys.StepNext):
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case key.Matches(k, m.keys.StepPrev):
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case key.Matches(k, m.keys.NextBoundary):
			m.jumpBoundary(+1)
			return m, m.stateCmd()
		case key.Matches(k, m.keys.PrevBoundary):
			m.jumpBoundary(-1)
			return m, m.stateCmd()
		}
	}
	var cmd tea.Cmd
	m.steps, cmd, _ = m.steps.Update(msg)
	return m, tea.Batch(cmd, m.stateCmd())
}

// updatePipeline: ←/→ move between stages, the list keys between steps
// (re-running the pipeline), w tries the next window; esc or p closes.
func (m Model) updatePipeline(msg tea.Msg) (Model, tea.Cmd) {
	before := m.steps.Index()
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if m2, cmd, ok := m.vaultKeys(k); ok && !m.steps.Filtering() {
			return m2, cmd
		}
		switch {
		case key.Matches(k, m.keys.Back), key.Matches(k, m.keys.Pipeline):
			m.mode = ModeTimeline
			return m, nil
		case m.exports(k):
			return m, exportCmd(k, *m.keys, m.tl.Path)
		case key.Matches(k, m.keys.Window):
			m.window = (m.window + 1) % len(windows)
			m.pipe = nil
			return m, m.pipelineCmd()
		case key.Matches(k, m.keys.StepNext):
			if m.pipe != nil && m.pipeStage < len(m.pipe.Stages)-1 {
				m.pipeStage++
			}
			return m, nil
		case key.Matches(k, m.keys.StepPrev):
			if m.pipeStage > 0 {
				m.pipeStage--
			}
			return m, nil
		case key.Matches(k, m.keys.NextBoundary), key.Matches(k, m.keys.PrevBoundary):
			dir := +1
			if key.Matches(k, m.keys.PrevBoundary) {
				dir = -1
			}
			m.jumpBoundary(dir)
			return m, m.pipelineIfMoved(before, nil)
		}
	}
	var cmd tea.Cmd
	m.steps, cmd, _ = m.steps.Update(msg)
	return m, m.pipelineIfMoved(before, cmd)
}

// pipelineIfMoved follows cmd with the state at the selected step and,
// when the selection left step before, a new pipeline run for it.
func (m *Model) pipelineIfMoved(before int, cmd tea.Cmd) tea.Cmd {
	if m.steps.Index() == before {
		return tea.Batch(cmd, m.stateCmd())
	}
	m.pipe = nil
	return tea.Batch(cmd, m.stateCmd(), m.pipelineCmd())
}

// exports reports whether k asks to export the open session (which has
// a transcript path).
func (m Model) exports(k tea.KeyPressMsg) bool {
	return (key.Matches(k, m.keys.Export) || key.Matches(k, m.keys.ExportHTML)) && m.tl.Path != ""
}

// exportCmd asks the root to export the session at path: Markdown for
// the Export key, HTML for ExportHTML.
func exportCmd(k tea.KeyPressMsg, keys keymap.KeyMap, path string) tea.Cmd {
	format := "md"
	if key.Matches(k, keys.ExportHTML) {
		format = "html"
	}
	return func() tea.Msg { return msgs.ExportSession{Path: path, Format: format} }
}

// jumpBoundary moves to the next (+1) or previous (-1) boundary step.
func (m *Model) jumpBoundary(dir int) {
	steps := m.steps.Items()
	for i := m.steps.Index() + dir; i >= 0 && i < len(steps); i += dir {
		if steps[i].Kind == timeline.StepBoundary {
			m.steps.Select(i)
			return
		}
	}
}

// stateCmd computes what the model saw at the selected step.
func (m *Model) stateCmd() tea.Cmd {
	tl, k := m.tl, m.steps.Index()
	if tl == nil || k < 0 || k == m.stateFor {
		return nil
	}
	return func() tea.Msg { return StateMsg{k: k, tl: tl, state: tl.State(k)} }
}

// pipelineCmd runs the five-stage pipeline on what the model saw at the
// selected step, off the update loop. Nothing is written anywhere.
func (m *Model) pipelineCmd() tea.Cmd {
	tl, k, wi, now, off := m.tl, m.steps.Index(), m.window, m.now, m.autocompactOff
	if tl == nil || k < 0 {
		return nil
	}
	return func() tea.Msg {
		st := tl.State(k)
		in := compact.InputFromResume(tl.Transcript(), st)
		cfg := compact.DefaultConfig(windows[wi].w)
		cfg.NewUUID = func() string { return "00000000-0000-4000-8000-000000000000" }
		cfg.AutocompactOff = off
		res, err := compact.Run(in, cfg, &compact.State{}, now)
		return PipelineMsg{k: k, tl: tl, window: wi, res: res, err: err}
	}
}
