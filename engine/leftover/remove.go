package leftover

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/model"
)

// Removed is what Remove did with one leftover.
type Removed struct {
	Path string `json:"path"`
	// Skipped says why it was left, "" when it was removed.
	Skipped string `json:"skipped,omitempty"`
}

// Remove deletes the leftovers items (as Find returned them) through w.
// Each is checked again first, so nothing else is ever removed: its
// name must still be one memscope gives its copies (a folder must still
// be empty: only an empty folder can be removed), and no running write
// may be using it now (see Find). It stops at the first removal that
// fails, returning what was done so far.
func Remove(w model.WriteFS, items []Item, alive func(int) bool, busy func(string) bool) ([]Removed, error) {
	if alive == nil {
		alive = model.ProcessAlive
	}
	if busy == nil {
		busy = journal.Busy
	}
	// Folders deepest first, so a folder that held only empty folders
	// is empty when its turn comes.
	items = slices.Clone(items)
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].Kind == KindEmptyFolder && items[j].Kind == KindEmptyFolder {
			return items[i].Path > items[j].Path
		}
		return items[i].Kind != KindEmptyFolder && items[j].Kind == KindEmptyFolder
	})
	out := make([]Removed, 0, len(items))
	for _, it := range items {
		r := Removed{Path: it.Path}
		switch it.Kind {
		case KindCopy, KindProbe:
			c, ok := model.ParseOwnCopy(filepath.Base(it.Path))
			switch {
			case !ok:
				r.Skipped = "not a name memscope gives its copies"
			case c.PID != 0 && alive(c.PID) && (c.Tag == "probe" || it.journal == anyWrite || busy(it.journal)):
				r.Skipped = fmt.Sprintf("process %d is writing now", c.PID)
			}
		case KindEmptyFolder, KindJournal:
			if it.journal != "" && busy(it.journal) {
				r.Skipped = "a change is under way there"
			}
		default:
			r.Skipped = "unknown kind " + string(it.Kind)
		}
		if r.Skipped == "" {
			if st, err := w.Stat(it.Path); errors.Is(err, fs.ErrNotExist) {
				r.Skipped = "already gone"
			} else if err == nil && st.IsDir() != (it.Kind == KindEmptyFolder) {
				r.Skipped = "no longer what was found"
			}
		}
		if r.Skipped == "" {
			if err := w.Remove(it.Path); err != nil {
				if it.Kind == KindEmptyFolder && !errors.Is(err, fs.ErrNotExist) && !model.IsReadOnly(err) {
					// Written into since: it is no longer empty.
					r.Skipped = "no longer empty"
				} else {
					return out, fmt.Errorf("remove leftover %s: %w", it.Path, err)
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}
