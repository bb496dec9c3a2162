package model

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
)

// HistoryTail reads history.jsonl incrementally: each Read returns only
// the entries appended since the previous one, so following a busy
// client costs what it wrote, not the size of its history. The first
// Read, and any Read after the file was replaced, truncated or rewritten
// (see TailReset), returns the whole file with Full set. A HistoryTail is
// used by one goroutine at a time.
type HistoryTail struct {
	// State is where the next Read starts (plain data: see TailState).
	State TailState
	// Counts leaves out of the entries what a count does not read: the
	// entries the fast decoder reads have an empty Display, Project and
	// SessionID and their pastes no inline Content (each is still
	// checked, so the same lines are entries, the same problems are
	// reported and the same pastes referred to). For a reader that counts
	// entries and pastes (stat).
	Counts bool
	// Sums folds the entries into HistoryRead.Sums instead of returning
	// them (the Entries are empty), decoding only what the sums keep: a
	// prompt only for a session's first entry, no paste's inline
	// content. The same lines are entries and the same problems are
	// reported.
	Sums bool
	// hd decodes lines, sharing repeated project and session strings
	// across reads.
	hd *historyDecoder
}

// HistoryRead is what one Read found.
type HistoryRead struct {
	// Entries are the complete lines that parsed, in file order, with
	// line numbers continuing the earlier reads'.
	Entries  []HistoryEntry
	Problems []Problem
	// Sums, when set, stands for the entries (HistoryTail.Sums, or a
	// reader's digest of them: then Entries is empty).
	Sums *HistorySums
	// Full says Entries are the whole file: the first read, or a reread
	// after Reset. The caller replaces what it built before.
	Full bool
	// Reset is why the file was read again from its start ("" when it
	// was not).
	Reset TailReset
	// Tail is the last read's accounting (bytes read, pending line).
	Tail TailResult
}

// Read reads the entries appended to path in fsys since the last call.
// An unterminated last line (a write in progress) is left for a later
// call. A missing file is an error wrapping fs.ErrNotExist, and the next
// Read starts over.
func (t *HistoryTail) Read(fsys fs.FS, path string) (HistoryRead, error) {
	out, err := t.readFrom(fsys, path)
	if err == nil && out.Tail.Reset != "" {
		// The file is not the one read before: read it whole.
		reset := out.Tail.Reset
		out, err = t.readFrom(fsys, path)
		out.Reset = reset
	}
	if err != nil {
		t.State, t.hd = TailState{}, nil
	}
	return out, err
}

// readFrom reads from State on (the whole file from the zero state).
func (t *HistoryTail) readFrom(fsys fs.FS, path string) (HistoryRead, error) {
	out := HistoryRead{Full: t.State == TailState{}}
	if out.Full || t.hd == nil {
		t.hd = newHistoryDecoder(make(map[string]string))
	}
	t.hd.counts, t.hd.sums, t.hd.into = t.Counts, t.Sums, nil
	if t.Sums {
		out.Sums = &HistorySums{}
		t.hd.into = out.Sums
	} else if out.Full {
		// About 150 bytes a line: one allocation instead of a dozen, but
		// never more than 2^17 entries ahead: a huge file of one line must
		// not reserve gigabytes.
		if st, err := fs.Stat(fsys, path); err == nil && st.Size() > 0 {
			out.Entries = make([]HistoryEntry, 0, min(st.Size()/150+16, 1<<17))
		}
	}
	hs := historyScanner{name: path, hd: t.hd}
	res, err := TailLines(fsys, path, t.State, func(ln Line) error {
		t.hd.at = sessionUnknown
		if e, ok := hs.line(ln, &out.Problems); ok {
			if out.Sums != nil {
				out.Sums.addAt(&e, t.hd.at)
			} else {
				out.Entries = append(out.Entries, e)
			}
		}
		return nil
	})
	out.Tail = res
	t.State = res.State
	return out, err
}

// Pending decodes what follows the last complete line Read stopped at,
// the part Read leaves for later (a write in progress, or a file that
// ends without a newline), as ReadHistory would: an entry when it
// parses, else an incomplete-tail problem, with the line numbers a whole
// read gives. It returns nothing when Read reached the end of the file.
// It does not move State.
func (t *HistoryTail) Pending(fsys fs.FS, path string) ([]HistoryEntry, []Problem, error) {
	f, err := OpenRegular(fsys, path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if info.Size() <= t.State.Offset {
		return nil, nil, nil
	}
	if t.hd == nil {
		t.hd = newHistoryDecoder(make(map[string]string))
	}
	t.hd.counts, t.hd.sums, t.hd.into = t.Counts, false, nil
	hs := historyScanner{name: path, hd: t.hd}
	lr := &LineReader{r: bufio.NewReaderSize(io.NewSectionReader(readerAt(f), t.State.Offset, info.Size()-t.State.Offset), 4096), first: t.State.Offset == 0}
	var entries []HistoryEntry
	var probs []Problem
	for {
		ln, ok := lr.Next()
		if !ok {
			break
		}
		ln.Number += t.State.Lines
		if e, ok := hs.line(ln, &probs); ok {
			entries = append(entries, e)
		}
	}
	if err := lr.Err(); err != nil {
		return entries, probs, fmt.Errorf("read %s: %w", path, err)
	}
	return entries, probs, nil
}
