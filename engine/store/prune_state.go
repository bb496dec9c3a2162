package store

import (
	"bytes"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// pruneState is the work of applying prune actions: file changes go to
// the workset; MEMORY.md edits are kept against the numbers of the lines
// as planned (drop, replace, insert) so actions compose in any subset,
// and are written once at the end.
type pruneState struct {
	w   *workset
	now time.Time
	// unstamped: new files are written without stamps (Plan.unstamped).
	unstamped bool
	// ix is MEMORY.md as planned on; nil when there is none.
	ix      *model.MemoryIndex
	drop    map[int]bool
	replace map[int]string
	// inserts are new index lines, placed after line insertAt.
	inserts  []string
	insertAt int
	// rebuilt, when set, is a whole new MEMORY.md.
	rebuilt []byte
}

// newPruneState starts from the plan's index ix (nil when there is none)
// and its insert point; MEMORY.md is read through w all the same, so a
// changed file is refused before anything is planned on it.
func newPruneState(w *workset, now time.Time, ix *model.MemoryIndex, insertAt int) (*pruneState, error) {
	st := &pruneState{w: w, now: now, drop: map[int]bool{}, replace: map[int]string{}, ix: ix, insertAt: insertAt}
	data, exists, err := w.get(model.MemoryIndexName)
	if err != nil {
		return nil, err
	}
	if exists != (ix != nil) || exists && !ix.BytesEqual(data) {
		return nil, ErrPlanStale
	}
	return st, nil
}

// gone reports whether the change removed rel, which existed before.
func (st *pruneState) gone(rel string) bool {
	f, ok := st.w.files[rel]
	return ok && f.baseExists && !f.exists
}

// keepLine reports whether an index line survives: a line linking a file
// the change removed goes with it.
func (st *pruneState) keepLine(text string) bool {
	t, ok := memindex.EntryTarget(model.ParseIndexEntry(text))
	return !ok || !st.gone(t)
}

// finish writes MEMORY.md with every edit.
func (st *pruneState) finish() error {
	if st.rebuilt != nil {
		return st.w.put(model.MemoryIndexName, st.rebuilt)
	}
	if st.ix == nil {
		return nil
	}
	eol := indexEOL(st.ix)
	out := &model.MemoryIndex{BOM: st.ix.BOM}
	emit := func(text string, end model.LineEnding) {
		if st.keepLine(text) {
			out.Lines = append(out.Lines, model.IndexLine{Text: text, EOL: end})
		}
	}
	if st.insertAt == 0 {
		for _, t := range st.inserts {
			emit(t, eol)
		}
	}
	for i, l := range st.ix.Lines {
		n := i + 1
		if !st.drop[n] {
			text := l.Text
			if r, ok := st.replace[n]; ok {
				text = r
			}
			emit(text, l.EOL)
		}
		if n == st.insertAt {
			for _, t := range st.inserts {
				emit(t, eol)
			}
		}
	}
	// The file keeps its final newline, or its lack of one.
	open := len(st.ix.Lines) > 0 && st.ix.Lines[len(st.ix.Lines)-1].EOL == model.EndNone
	for i := range out.Lines {
		last := i == len(out.Lines)-1
		switch {
		case last && open:
			out.Lines[i].EOL = model.EndNone
		case out.Lines[i].EOL == model.EndNone:
			out.Lines[i].EOL = eol
		}
	}
	data := out.Bytes()
	if bytes.Equal(data, st.ix.Bytes()) {
		return nil
	}
	return st.w.put(model.MemoryIndexName, data)
}
