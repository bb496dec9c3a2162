package feed

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// historyDigestKind names and versions the digest of history.jsonl kept
// across runs: what the Overview's lines take from history (Held), so a
// start reads only what was appended since and the History pane decodes
// the file when it is first shown.
const historyDigestKind = "history-digest.2"

// historyDigest is history.jsonl as the Overview's lines read it (the
// cleanup forecast's dangling pastes and lost sessions, stat's counts):
// each entry's line, time, project, session and pastes (no inline
// content), the prompt only for the first entry of each session (a lost
// session's first words), and the file's problems, with where the read
// stopped (State: the file's stamp, head and offset). A file truncated,
// rewritten or replaced since is read whole (HistoryTail.Read).
//
// The entries are packed (Packed: varints per entry, strings by their
// index in Strings): gob decoding 100 000 entries one by one, their
// times and paste maps, cost as much as decoding history.jsonl.
type historyDigest struct {
	State    model.TailState
	Problems []model.Problem
	Count    int
	Strings  []string
	Packed   []byte
	// Times are the entries' times that are neither zero nor UTC, by
	// entry; Displays the prompts kept, by entry.
	Times    map[int]time.Time
	Displays map[int]string
	// Pastes are the entries' pastes in entry order (Packed counts each
	// entry's), under their keys PasteKeys.
	Pastes    []model.PastedContent
	PasteKeys []model.PasteID
}

// Times in Packed.
const (
	timeZero = iota
	timeUTC
	timeOther
)

// packDigest is the digest of a read's entries and problems.
func packDigest(state model.TailState, entries []model.HistoryEntry, problems []model.Problem) historyDigest {
	d := historyDigest{State: state, Problems: problems, Count: len(entries), Times: map[int]time.Time{}, Displays: map[int]string{}}
	index := map[string]uint64{}
	str := func(s string) uint64 {
		k, ok := index[s]
		if !ok {
			k = uint64(len(d.Strings))
			index[s] = k
			d.Strings = append(d.Strings, s)
		}
		return k
	}
	first := map[model.SessionID]bool{}
	b := make([]byte, 0, len(entries)*16)
	for i := range entries {
		e := &entries[i]
		b = binary.AppendUvarint(b, uint64(e.Line))
		b = binary.AppendUvarint(b, str(e.Project))
		b = binary.AppendUvarint(b, str(string(e.SessionID)))
		b = binary.AppendUvarint(b, str(string(e.Format)))
		switch {
		case e.Timestamp.IsZero():
			b = append(b, timeZero)
		case e.Timestamp.Location() == time.UTC:
			b = append(b, timeUTC)
			b = binary.AppendVarint(b, e.Timestamp.UnixNano())
		default:
			b = append(b, timeOther)
			d.Times[i] = e.Timestamp
		}
		if e.SessionID != "" && !first[e.SessionID] {
			first[e.SessionID] = true
			d.Displays[i] = e.Display
		}
		b = binary.AppendUvarint(b, uint64(len(e.PastedContents)))
		for _, id := range slices.Sorted(maps.Keys(e.PastedContents)) {
			p := e.PastedContents[id]
			p.Content = ""
			d.Pastes, d.PasteKeys = append(d.Pastes, p), append(d.PasteKeys, id)
		}
	}
	d.Packed = b
	return d
}

// entries unpacks the digest's entries; ok is false when it does not
// decode (then it is not used).
func (d historyDigest) entries() (out []model.HistoryEntry, ok bool) {
	out = make([]model.HistoryEntry, d.Count)
	b, np := d.Packed, 0
	next := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			ok = false
			return 0
		}
		b = b[n:]
		return v
	}
	str := func() string {
		k := next()
		if k >= uint64(len(d.Strings)) {
			ok = false
			return ""
		}
		return d.Strings[k]
	}
	ok = true
	for i := range out {
		e := &out[i]
		e.Line = int(next())
		e.Project, e.SessionID, e.Format = str(), model.SessionID(str()), model.HistoryFormat(str())
		if len(b) == 0 {
			return nil, false
		}
		kind := b[0]
		b = b[1:]
		switch kind {
		case timeUTC:
			v, n := binary.Varint(b)
			if n <= 0 {
				return nil, false
			}
			b = b[n:]
			e.Timestamp = time.Unix(0, v).UTC()
		case timeOther:
			e.Timestamp = d.Times[i]
		}
		e.Display = d.Displays[i]
		if n := int(next()); n > 0 {
			if np+n > len(d.Pastes) || np+n > len(d.PasteKeys) {
				return nil, false
			}
			e.PastedContents = make(map[model.PasteID]model.PastedContent, n)
			for j := np; j < np+n; j++ {
				e.PastedContents[d.PasteKeys[j]] = d.Pastes[j]
			}
			np += n
		}
		if !ok {
			return nil, false
		}
	}
	return out, ok && len(b) == 0
}

// saveDigest keeps the digest of a read of the whole file. A cache that
// cannot be written costs the next start its speed, never its answer.
func saveDigest(cache *diskcache.Store, name string, read model.HistoryRead) {
	if cache == nil {
		return
	}
	_ = diskcache.Save(cache, historyDigestKind, name, packDigest(read.Tail.State, read.Entries, read.Problems))
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
		var entries []model.HistoryEntry
		if ok && d.State != (model.TailState{}) {
			entries, ok = d.entries()
		}
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
			entries = append(entries, read.Entries...)
			d.Problems = append(d.Problems, read.Problems...)
			_ = diskcache.Save(cache, historyDigestKind, name, packDigest(read.Tail.State, entries, d.Problems))
		}
		read.Entries, read.Problems, read.Full = entries, d.Problems, true
		return HistoryRead{read: read, digest: true}
	}
}
