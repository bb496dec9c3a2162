package app

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// viewCount is a model whose View shows the messages it was given and
// counts the Views it computed.
type viewCount struct{ msgs, views int }

func (c *viewCount) Init() tea.Cmd                       { return nil }
func (c *viewCount) Update(tea.Msg) (tea.Model, tea.Cmd) { c.msgs++; return c, nil }
func (c *viewCount) View() tea.View                      { c.views++; return c.fresh() }
func (c *viewCount) fresh() tea.View                     { return tea.NewView(fmt.Sprint("messages ", c.msgs)) }

// dataMsg stands for a load's result: not input.
type dataMsg struct{}

// A burst of data messages within one frame interval computes one View
// (the program calls View after each: on the code before, the app's
// model computed every one of them, 1 + 200 here), and the tick the
// burst scheduled draws the current state: the last frame is the one a
// fresh View draws. A key during a burst is drawn at once.
func TestFrameViewsBurst(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	inner := &viewCount{}
	f := newFrameViews(inner, func() time.Time { return now })
	f.View() // the first frame
	var ticks []tea.Cmd
	for range 200 {
		_, cmd := f.Update(dataMsg{})
		if cmd != nil {
			ticks = append(ticks, cmd)
		}
		f.View()
		now = now.Add(frameInterval / 1000)
	}
	if inner.views != 1 {
		t.Errorf("a burst of 200 messages in a frame computed %d Views, want 1 (the first frame's)", inner.views)
	}
	if len(ticks) != 1 {
		t.Fatalf("the burst scheduled %d commands, want one tick", len(ticks))
	}
	// The inner model gives no command: the burst's is the tick alone.
	msg := ticks[0]()
	if _, ok := msg.(frameTick); !ok {
		t.Fatalf("the burst's command sent %T, want frameTick", msg)
	}
	f.Update(msg)
	if got, want := f.View().Content, inner.fresh().Content; got != want {
		t.Fatalf("after the burst's tick the screen is %q, want %q", got, want)
	}
	// A key while a tick is on its way is drawn at once.
	f.Update(dataMsg{})
	f.View()
	f.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if got, want := f.View().Content, inner.fresh().Content; got != want {
		t.Fatalf("after a key the screen is %q, want %q", got, want)
	}
	if inner.msgs != 202 || unwrap(f) != tea.Model(inner) {
		t.Fatalf("the model got %d messages, want 202", inner.msgs)
	}
}

// A message a frame interval or more after the last View computed is
// drawn at once, with no tick.
func TestFrameViewsQuiet(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	inner := &viewCount{}
	f := newFrameViews(inner, func() time.Time { return now })
	f.View()
	for i := range 3 {
		now = now.Add(frameInterval)
		if _, cmd := f.Update(dataMsg{}); cmd != nil {
			t.Fatalf("message %d: a tick scheduled after a quiet frame", i)
		}
		if got, want := f.View().Content, inner.fresh().Content; got != want {
			t.Fatalf("message %d: screen %q, want %q", i, got, want)
		}
	}
}
