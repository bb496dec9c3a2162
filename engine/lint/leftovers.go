package lint

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"
)

// Leftover is a hidden copy an interrupted memscope write left in the
// memory folder: the atomic writer's temporary file, a staged file, or
// the copy set aside while a file was replaced or removed. It holds the
// old or the new content of a file; the change itself either landed or
// was rolled back (the journal says which), so the copy is only clutter,
// but it is the user's text and memscope never deletes it silently.
const Leftover Kind = "leftover-copy"

// LeftoverAge is how old a hidden copy must be before lint reports it: a
// younger one may belong to a write in progress in another memscope.
const LeftoverAge = 10 * time.Minute

// isLeftoverName reports whether base is a name memscope gives its hidden
// copies: "." + the file's name + ".memscope-" + a tag and a number.
func isLeftoverName(base string) bool {
	return strings.HasPrefix(base, ".") && strings.Contains(base, ".memscope-")
}

// LeftoverCopy is one of memscope's own copies outside the memory
// folder: Path (absolute) holds a copy of Of; Why says what left it.
type LeftoverCopy struct {
	Path, Of, Why string
	Size          int64
	ModTime       time.Time
}

// IsLeftoverName reports whether the file name base is one memscope gives
// its own hidden copies (so removing it can never remove the user's
// data).
func IsLeftoverName(base string) bool { return isLeftoverName(base) }

// lintLeftovers reports the hidden copies anywhere under the memory
// folder (the trash and the journal's folder included), and those found
// elsewhere (Input.Elsewhere).
func (l *linter) lintLeftovers() {
	for _, c := range l.in.Elsewhere {
		l.add(Finding{Kind: Leftover, Severity: SevWarning, Path: c.Path,
			Message: fmt.Sprintf("a copy of %s left by %s (%d bytes, %s); the change itself landed or was rolled back — look at it, then delete it (lint --remove-leftovers)",
				c.Of, c.Why, c.Size, c.ModTime.UTC().Format(time.DateTime))})
	}
	if l.in.MemoryFS == nil {
		return
	}
	fs.WalkDir(l.in.MemoryFS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isLeftoverName(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil || !l.in.Now.IsZero() && l.in.Now.Sub(info.ModTime()) < LeftoverAge {
			return nil
		}
		what := "an empty write probe memscope left (model.ProbeWritable)"
		// ".<name>.memscope-…" copies <name>; ".memscope-…" is a probe.
		if i := strings.Index(d.Name()[1:], ".memscope-"); i > 0 {
			what = "a copy of " + path.Join(path.Dir(p), d.Name()[1:1+i]) + " left by an interrupted memscope write"
		}
		l.add(Finding{Kind: Leftover, Severity: SevWarning, Path: p,
			Message: fmt.Sprintf("%s (%d bytes, %s); the change itself landed or was rolled back — look at it, then delete it (lint --remove-leftovers)",
				what, info.Size(), info.ModTime().UTC().Format(time.DateTime))})
		return nil
	})
}
