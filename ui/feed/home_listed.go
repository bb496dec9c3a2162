package feed

import "github.com/memscope/memscope/model"

// The start's one listing of the home, shared by the Projects list's
// first read and the Overview's lines: the list counted each project's
// memory files through the home itself (a stat each, some 2 400 a warm
// start on W) a moment before the Overview's listing stat'ed them again
// (issue 28).

// ListFrom makes the start's whole read (Init) list the home through
// listed's answer (the Overview's Listed): the home listed once
// (model.ListOnce) that the Overview's lines count from next, so the
// projects' memory files, projects/ and the session folders are listed
// and looked at once between them. listed is called where the read
// starts (Init), not in its Cmd. Later reads (ctrl+r, a project folder
// come or gone, a changed memory folder's row) read the home as it is
// then.
func (h *Home) ListFrom(listed func(*model.Home) *model.Home) { h.listed = listed }

// Listed is the home listed once that the next lines counted from home
// count from (Load): the one kept for home, made now when none is. A
// change or ctrl+r drops it (Changed, Invalidate), as it drops the one
// Load makes, so a reader handed it at the start shares it only with
// the lines of that moment.
func (o *Overview) Listed(home *model.Home) *model.Home {
	if o.listed == nil || o.from != home {
		o.listed, o.from = home.ListedOnce(), home
	}
	return o.listed
}

// Held is the home listed once for the lines counting now: the one kept
// for home while a line counts from it (no change, ctrl+r or the lines'
// end has dropped it since); nil otherwise. A reader of that moment
// shares its listing; a later one, or one while no line runs (the
// Overview not shown: its lines wait, and the listing the start made
// could be kept long after), reads the home as it is.
func (o *Overview) Held(home *model.Home) *model.Home {
	if o.listed == nil || o.from != home || !o.countingNow() {
		return nil
	}
	return o.listed
}

// countingNow says a line is being counted (not only stale).
func (o *Overview) countingNow() bool {
	for _, running := range o.running {
		if running {
			return true
		}
	}
	return false
}
