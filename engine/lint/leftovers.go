package lint

import (
	"fmt"
	"time"
)

// Leftover is something an interrupted memscope write left: a hidden
// copy of a file (the atomic writer's temporary file, a staged file, the
// copy set aside while a file was replaced or removed), a write probe,
// or an empty folder a change made. A copy holds the old or the new
// content of a file; the change itself either landed or was rolled back
// (the journal says which), so it is only clutter, but it is the user's
// text and memscope never deletes it silently. engine/leftover finds
// them (Input.Leftovers).
const Leftover Kind = "leftover-copy"

// LeftoverCopy is one of memscope's leftovers: Path (relative to the
// memory folder when inside it, else absolute), What it is.
type LeftoverCopy struct {
	Path, What string
	ModTime    time.Time
}

// lintLeftovers reports the leftovers found (Input.Leftovers).
func (l *linter) lintLeftovers() {
	for _, c := range l.in.Leftovers {
		when := ""
		if !c.ModTime.IsZero() {
			when = " (" + c.ModTime.UTC().Format(time.DateTime) + ")"
		}
		l.add(Finding{Kind: Leftover, Severity: SevWarning, Path: c.Path,
			Message: fmt.Sprintf("%s%s; memscope's own, not needed: remove it with lint --remove-leftovers, or D in the Health pane", c.What, when)})
	}
}

// Interrupted is a change memscope began and did not finish (a
// file-history restore whose journal entry is still pending): some of
// its files may be changed and others not.
const Interrupted Kind = "interrupted-change"

// InterruptedChange is one such change: Path is its journal, What says
// which change and how to put it back.
type InterruptedChange struct {
	Path, What string
}

// lintInterrupted reports the interrupted changes (Input.Interrupted).
func (l *linter) lintInterrupted() {
	for _, c := range l.in.Interrupted {
		l.add(Finding{Kind: Interrupted, Severity: SevWarning, Path: c.Path, Message: c.What})
	}
}
