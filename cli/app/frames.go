package app

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// frameInterval is Bubble Tea's renderer's: it draws the last View it
// was handed at most 60 times a second (its default frame rate).
const frameInterval = time.Second / 60

// frameTick is the message that draws a state whose View was put off.
type frameTick struct{}

// frameViews is the app's model with its Views put off within a frame.
// Bubble Tea computes a View after every message, but its renderer
// draws only the last one handed to it in each frame interval: a
// start-up's hundreds of data messages compute Views never drawn. A
// message that is not input (a key, the mouse, a paste, a resize: those
// are drawn at once), coming within frameInterval of the last View
// computed, schedules a frameTick for the end of that interval, and the
// Views until that tick hand the renderer the last one computed; the
// tick's View is computed from the state then. So the last frame is
// always the current state, one frame later at most. It adds no state
// the model sees.
type frameViews struct {
	inner tea.Model
	now   func() time.Time
	// view is the last View computed, at last; has says there is one;
	// ticking says a frameTick is on its way; input says the last
	// message was input.
	view         tea.View
	last         time.Time
	has, ticking bool
	input        bool
}

func newFrameViews(m tea.Model, now func() time.Time) *frameViews {
	return &frameViews{inner: m, now: now}
}

func (f *frameViews) Init() tea.Cmd { return f.inner.Init() }

func (f *frameViews) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(frameTick); ok {
		f.ticking = false
		return f, nil
	}
	var cmd tea.Cmd
	f.inner, cmd = f.inner.Update(msg)
	f.input = isInput(msg)
	if f.input || f.ticking || !f.has {
		return f, cmd
	}
	if wait := frameInterval - f.now().Sub(f.last); wait > 0 {
		f.ticking = true
		cmd = tea.Batch(cmd, tea.Tick(wait, func(time.Time) tea.Msg { return frameTick{} }))
	}
	return f, cmd
}

// View is the inner model's, or the last one computed while a frameTick
// is on its way and the last message was not input.
func (f *frameViews) View() tea.View {
	if f.has && f.ticking && !f.input {
		return f.view
	}
	f.view, f.last, f.has = f.inner.View(), f.now(), true
	return f.view
}

// isInput reports the messages a person sends, drawn at once.
func isInput(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg, tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg, tea.WindowSizeMsg, tea.FocusMsg, tea.BlurMsg:
		return true
	}
	return false
}
