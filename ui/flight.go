package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/ui/feed"
)

// flight runs one of the root's stores' loads one at a time
// (feed.Flight), starting them as the root's methods.
type flight[R any] struct{ feed.Flight[R] }

// request starts r with load on m, or queues it behind the running load
// (nil then: its result comes when the running one is done). load is a
// method expression, so m is copied only when a load starts.
func (f *flight[R]) request(m *Model, r R, merge func(waiting, r R) R, load func(Model, R) tea.Cmd) tea.Cmd {
	if !f.Start(r, merge) {
		return nil
	}
	return load(*m, r)
}

// finish ends the running load and starts the waiting request, if any,
// with load on m.
func (f *flight[R]) finish(m *Model, load func(Model, R) tea.Cmd) tea.Cmd {
	if r, ok := f.Done(); ok {
		return load(*m, r)
	}
	return nil
}
