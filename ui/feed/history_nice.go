package feed

import tea "charm.land/bubbletea/v2"

// backgroundNice is how much higher than the app's the nice value of
// the History pane's deferred whole read of history.jsonl is
// (lowPriority): a tenth of the processor's share of the app's other
// threads when they want the same core, so a key's Update and View are
// not kept waiting behind it.
const backgroundNice = 10

// lowPriority runs fn on a thread of its own whose nice value is raised
// by backgroundNice (to 19 at most; Linux), and returns what fn returns. The thread is not handed
// back to the Go scheduler: its niceness could not be undone without
// privilege, so it ends with the goroutine that ran fn. A panic in fn
// panics the caller.
func lowPriority(fn func() tea.Msg) tea.Msg {
	type result struct {
		msg   tea.Msg
		panic any // non-nil when fn panicked (panic(nil) recovers a *runtime.PanicNilError)
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{panic: r}
			}
		}()
		lockNiceThread(backgroundNice)
		ch <- result{msg: fn()}
	}()
	r := <-ch
	if r.panic != nil {
		panic(r.panic)
	}
	return r.msg
}
