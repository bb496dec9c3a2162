package feed

import (
	"errors"
	"io/fs"
	"maps"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// historyDigestKind names and versions the digest of history.jsonl kept
// across runs: what the Overview's lines take from history (Held), so a
// start reads only what was appended since and the History pane decodes
// the file when it is first shown.
const historyDigestKind = "history-digest.1"

// historyDigest is history.jsonl as the Overview's lines read it (the
// cleanup forecast's dangling pastes and lost sessions, stat's counts):
// each entry's line, time, project, session and pastes (no inline
// content), the prompt only for the first entry of each session (a lost
// session's first words), and the file's problems, with where the read
// stopped (State: the file's stamp, head and offset). A file truncated,
// rewritten or replaced since is read whole (HistoryTail.Read).
type historyDigest struct {
	State    model.TailState
	Entries  []model.HistoryEntry
	Problems []model.Problem
}

// digestEntries is entries as a digest keeps them.
func digestEntries(entries []model.HistoryEntry) []model.HistoryEntry {
	out := make([]model.HistoryEntry, len(entries))
	first := map[model.SessionID]bool{}
	for i := range entries {
		e := &entries[i]
		d := model.HistoryEntry{Timestamp: e.Timestamp, Project: e.Project, SessionID: e.SessionID, Line: e.Line, Format: e.Format}
		if e.SessionID != "" && !first[e.SessionID] {
			first[e.SessionID] = true
			d.Display = e.Display
		}
		if len(e.PastedContents) > 0 {
			d.PastedContents = maps.Clone(e.PastedContents)
			for id, p := range d.PastedContents {
				p.Content = ""
				d.PastedContents[id] = p
			}
		}
		out[i] = d
	}
	return out
}

// saveDigest keeps the digest of a read of the whole file. A cache that
// cannot be written costs the next start its speed, never its answer.
func saveDigest(cache *diskcache.Store, name string, read model.HistoryRead) {
	if cache == nil {
		return
	}
	_ = diskcache.Save(cache, historyDigestKind, name, historyDigest{State: read.Tail.State, Entries: digestEntries(read.Entries), Problems: read.Problems})
}

// loadDigest is the start's read: the digest an earlier run kept and
// what was appended to the file since (HistoryRead.digest), or, without
// a digest that still describes the file, the whole file as load reads
// it.
func (h *History) loadDigest() tea.Cmd {
	fsys, tail, cache := h.home.FS, h.tail, h.cache
	name := diskcache.Name(historyDigestKind, h.home.Dir)
	whole := h.load(true)
	return func() tea.Msg {
		d, ok := diskcache.Load[historyDigest](cache, historyDigestKind, name)
		if !ok || d.State == (model.TailState{}) {
			return whole()
		}
		tail.State = d.State
		read, err := tail.Read(fsys, model.HistoryPath)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return HistoryRead{err: err}
			}
			// Gone since: as load says it.
			tail.State = model.TailState{}
			return whole()
		}
		if read.Full {
			// Truncated, rewritten or replaced: read whole, as load does.
			saveDigest(cache, name, read)
			return wholeRead(read, false)
		}
		if len(read.Entries) > 0 || len(read.Problems) > 0 {
			d.Entries = append(d.Entries, digestEntries(read.Entries)...)
			d.Problems = append(d.Problems, read.Problems...)
			d.State = read.Tail.State
			_ = diskcache.Save(cache, historyDigestKind, name, d)
		}
		read.Entries, read.Problems, read.Full = d.Entries, d.Problems, true
		return HistoryRead{read: read, digest: true}
	}
}
