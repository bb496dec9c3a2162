package store

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

func renumber(ix *model.MemoryIndex) {
	for i := range ix.Lines {
		ix.Lines[i].Number = i + 1
	}
}

// indexEOL is the line ending the index mostly uses (LF for a new one).
func indexEOL(ix *model.MemoryIndex) model.LineEnding {
	crlf := 0
	for _, l := range ix.Lines {
		if l.EOL == model.EndCRLF {
			crlf++
		}
	}
	if crlf*2 > len(ix.Lines) {
		return model.EndCRLF
	}
	return model.EndLF
}

// indexInsertPoint is the number of the line after which a new entry
// goes so that it loads: after the last entry the client still loads, or
// after everything that loads when no entry does (0 for an empty index).
func indexInsertPoint(ix *model.MemoryIndex) int {
	c := memindex.CapIndex(ix.Bytes())
	limit := len(ix.Lines)
	if c.Truncated {
		limit = c.CutFileLine - 1
	}
	at := 0
	for _, l := range ix.Lines {
		if l.Number > limit {
			break
		}
		if l.Entry != nil {
			at = l.Number
		}
	}
	if at == 0 {
		at = min(limit, len(ix.Lines))
		for at > 0 && strings.TrimSpace(ix.Lines[at-1].Text) == "" {
			at--
		}
	}
	return at
}

// insertIndexLines puts texts after line `after` (0: at the top).
func insertIndexLines(ix *model.MemoryIndex, after int, texts []string) {
	eol := indexEOL(ix)
	news := make([]model.IndexLine, len(texts))
	for i, t := range texts {
		news[i] = model.IndexLine{Text: t, EOL: eol, Entry: model.ParseIndexEntry(t)}
	}
	keepEnding(ix, func() {
		ix.Lines = append(ix.Lines[:after], append(news, ix.Lines[after:]...)...)
	})
}

// keepEnding runs edit with every line terminated and then leaves the
// last line unterminated again if the file's last line was, so an edit
// never adds or drops the file's final newline.
func keepEnding(ix *model.MemoryIndex, edit func()) {
	open := len(ix.Lines) > 0 && ix.Lines[len(ix.Lines)-1].EOL == model.EndNone
	if open {
		ix.Lines[len(ix.Lines)-1].EOL = indexEOL(ix)
	}
	edit()
	if open && len(ix.Lines) > 0 {
		ix.Lines[len(ix.Lines)-1].EOL = model.EndNone
	}
	renumber(ix)
}

// entryLineFor is the index line for a topic file, the way the client's
// backfill writes it.
func entryLineFor(f *model.MemoryFile) string { return memindex.BackfillLine(f) }

// indexLineLinking returns the first line whose entry links rel, or 0.
func indexLineLinking(ix *model.MemoryIndex, rel string) int {
	for _, l := range ix.Lines {
		if t, ok := memindex.EntryTarget(l.Entry); ok && t == rel {
			return l.Number
		}
	}
	return 0
}

// shortText cuts s for a summary.
func shortText(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

// readIndex loads MEMORY.md into the workset and parses it; a missing
// file is an empty index.
func (w *workset) readIndex() (*model.MemoryIndex, error) {
	data, _, err := w.get(model.MemoryIndexName)
	if err != nil {
		return nil, err
	}
	return model.ParseMemoryIndex(data), nil
}

// putIndex stores ix as the new MEMORY.md.
func (w *workset) putIndex(ix *model.MemoryIndex) error {
	renumber(ix)
	return w.put(model.MemoryIndexName, ix.Bytes())
}

// AddIndexEntry adds the index line of the topic file at p, the way the
// client's backfill writes it, after the last entry that loads. It fails
// when an entry already links the file.
func (s *Store) AddIndexEntry(p string, o WriteOptions) (Change, error) {
	rel, f, err := s.topicFile(p)
	if err != nil {
		return Change{}, err
	}
	w := s.newWorkset()
	ix, err := w.readIndex()
	if err != nil {
		return Change{}, err
	}
	if n := indexLineLinking(ix, rel); n > 0 {
		return Change{}, fmt.Errorf("%s is already in the index (line %d)", rel, n)
	}
	if !memindex.LinkableName(rel) {
		return Change{}, fmt.Errorf("%q cannot be linked from the index: brackets, parentheses or a line break in its name would break the line (the client skips it too); rename it first", rel)
	}
	insertIndexLines(ix, indexInsertPoint(ix), []string{entryLineFor(f)})
	if err := w.putIndex(ix); err != nil {
		return Change{}, err
	}
	return s.commit(OpIndexAdd, "add "+rel+" to the index", w, o)
}

// RemoveIndexLine removes line n (1-based) of MEMORY.md as the store read
// it.
func (s *Store) RemoveIndexLine(n int, o WriteOptions) (Change, error) {
	w := s.newWorkset()
	ix, err := w.readIndex()
	if err != nil {
		return Change{}, err
	}
	if n < 1 || n > len(ix.Lines) {
		return Change{}, fmt.Errorf("MEMORY.md has no line %d (it has %d)", n, len(ix.Lines))
	}
	removed := ix.Lines[n-1]
	keepEnding(ix, func() { ix.Lines = append(ix.Lines[:n-1], ix.Lines[n:]...) })
	if err := w.putIndex(ix); err != nil {
		return Change{}, err
	}
	return s.commit(OpIndexRemove, fmt.Sprintf("remove line %d of MEMORY.md: %s", n, shortText(removed.Text)), w, o)
}

// MoveIndexLine moves line from to position to (both 1-based, in the
// file as the store read it), shifting the lines between.
func (s *Store) MoveIndexLine(from, to int, o WriteOptions) (Change, error) {
	w := s.newWorkset()
	ix, err := w.readIndex()
	if err != nil {
		return Change{}, err
	}
	n := len(ix.Lines)
	if from < 1 || from > n || to < 1 || to > n {
		return Change{}, fmt.Errorf("MEMORY.md has lines 1 to %d; cannot move %d to %d", n, from, to)
	}
	l := ix.Lines[from-1]
	keepEnding(ix, func() {
		l.EOL = ix.Lines[from-1].EOL
		rest := append(append([]model.IndexLine{}, ix.Lines[:from-1]...), ix.Lines[from:]...)
		ix.Lines = append(rest[:to-1:to-1], append([]model.IndexLine{l}, rest[to-1:]...)...)
	})
	if err := w.putIndex(ix); err != nil {
		return Change{}, err
	}
	return s.commit(OpIndexMove, fmt.Sprintf("move line %d of MEMORY.md to line %d: %s", from, to, shortText(l.Text)), w, o)
}

// RebuildIndex writes MEMORY.md as the client's backfill would build it
// from the topic files (BackfillIndex), replacing what is there; undo
// brings the old index back.
func (s *Store) RebuildIndex(o WriteOptions) (Change, error) {
	b := memindex.BackfillIndex(s.mem.Files)
	w := s.newWorkset()
	if err := w.put(model.MemoryIndexName, []byte(b.Text)); err != nil {
		return Change{}, err
	}
	return s.commit(OpIndexBuild, fmt.Sprintf("rebuild MEMORY.md from %s as the client's backfill does (%d skipped)", format.Count(b.Lines, "topic file", "topic files"), len(b.Skipped)), w, o)
}
