package feed

import (
	"errors"
	"runtime"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// lowPriority hands back fn's message, and fn's panic to the caller —
// panic(nil) included, which recovers as a *runtime.PanicNilError: a
// panic must never turn into a nil message the pane would take as "read".
func TestLowPriorityReturnsAndPanics(t *testing.T) {
	if got := lowPriority(func() tea.Msg { return "read" }); got != "read" {
		t.Fatalf("lowPriority = %v, want fn's message", got)
	}
	for _, c := range []struct {
		name string
		fn   func() tea.Msg
		want func(any) bool
	}{
		{"value", func() tea.Msg { panic("boom") }, func(r any) bool { return r == "boom" }},
		{"nil", func() tea.Msg { panic(nil) }, func(r any) bool {
			var pn *runtime.PanicNilError
			err, ok := r.(error)
			return ok && errors.As(err, &pn)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got tea.Msg
			r := func() (r any) {
				defer func() { r = recover() }()
				got = lowPriority(c.fn)
				return nil
			}()
			if !c.want(r) {
				t.Fatalf("caller recovered %#v (message %v), want fn's panic", r, got)
			}
		})
	}
}
