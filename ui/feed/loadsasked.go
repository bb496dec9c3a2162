package feed

import (
	"reflect"

	tea "charm.land/bubbletea/v2"

	engineloads "github.com/memscope/memscope/engine/loads"
)

// sameLoads reports whether two loads reports say the same (nil says
// nothing), whether or not each was complete: the one comparison
// LoadsDone makes, against the project's loads and against the loads a
// load was asked for.
func sameLoads(a, b *engineloads.Report) bool {
	if a == nil || b == nil {
		return false
	}
	x, y := *a, *b
	x.Partial, y.Partial = false, false
	return reflect.DeepEqual(x, y)
}

// askedFor reports whether a project load already asked for serves msg,
// and otherwise notes msg as the loads the load about to be requested
// serves. A loads read comes after every project load and after each
// session's list that may have loaded files (the start-up sends both),
// so two reads can say the same new thing: the first asks for a load;
// that load reads the transcripts through the cache the read filled
// before its message came, so it has what the second says too. Asking
// again would only queue a third load of the same. Once no load runs
// (Loaded), a read that differs from the project's loads asks again.
func (p *Project) askedFor(msg LoadsRead) bool {
	if a := p.asked; a != nil && a.slug == msg.slug && p.flight.Running() && sameLoads(a.report, msg.report) {
		return true
	}
	p.asked = &msg
	return false
}

// before keeps msg for later when it is the first word on a project whose
// first load runs: the start-up's loads reads (after the sessions' list)
// can come before the project's load, which reads the loads through the
// same cache and so may well say the same (every one of them, from a
// cache kept on disk). Asking at once would queue a second load of the
// project, always; held until that load lands (earlyLoads), the read
// asks for one only when the load says something else. A load of the
// project already kept, or one waiting behind the running one, is
// answered at once as before.
func (p *Project) before(msg LoadsRead) bool {
	if p.cur.Slug == msg.slug || !p.flight.Running() || p.flight.waiting || p.early.loading != msg.slug {
		return false
	}
	p.early.msg = &msg
	return true
}

// earlyRead is the project the running load reads, and a loads read of
// it held until that load lands (before).
type earlyRead struct {
	loading string
	msg     *LoadsRead
}

// earlyLoads hands back, once a load landed, the loads read held for it
// (before): the read is taken again against what the load kept.
func (p *Project) earlyLoads() tea.Cmd {
	msg := p.early.msg
	if msg == nil {
		return nil
	}
	p.early.msg = nil
	return func() tea.Msg { return *msg }
}
