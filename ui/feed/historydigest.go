package feed

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// historyDigestKind names and versions the digest of history.jsonl kept
// across runs: what the Overview's lines take from history (Held), so a
// start reads only what was appended since and the History pane decodes
// the file when it is first shown.
const historyDigestKind = "history-digest.3"

// historyDigest is history.jsonl as the Overview's lines read it (the
// cleanup forecast's dangling pastes and lost sessions, stat's counts):
// the sums of its entries (model.HistorySums: counts, one sum per
// session, the pastes kept by hash), and the file's problems, with where
// the read stopped (State: the file's stamp, head and offset). A file
// truncated, rewritten or replaced since is read whole (HistoryTail.Read).
//
// The sessions and pastes are packed (Packed: varints, strings as
// offset and length in Strings, which holds each distinct string once),
// so reading the digest back makes two slices and no string: its cost
// follows the sessions and pastes, not the entries.
type historyDigest struct {
	State    model.TailState
	Problems []model.Problem
	// Entries, Unattributed and Inline are the sums' counts; Sessions and
	// Pastes how many of each Packed holds.
	Entries, Unattributed, Inline int
	Sessions, Pastes              int
	Strings                       string
	Packed                        []byte
	// Times are the times that are neither zero nor UTC (nor fit
	// UnixNano), in the order Packed names them.
	Times []time.Time
}

// Times in Packed.
const (
	timeZero = iota
	timeUTC
	timeOther
)

// digestPacker packs a digest.
type digestPacker struct {
	d     *historyDigest
	b     []byte
	index map[string][2]int
	strs  []byte
}

func (p *digestPacker) uint(v uint64) { p.b = binary.AppendUvarint(p.b, v) }

func (p *digestPacker) str(s string) {
	at, ok := p.index[s]
	if !ok {
		at = [2]int{len(p.strs), len(s)}
		p.index[s] = at
		p.strs = append(p.strs, s...)
	}
	p.uint(uint64(at[0]))
	p.uint(uint64(at[1]))
}

func (p *digestPacker) time(t time.Time) {
	switch {
	case t.IsZero():
		p.b = append(p.b, timeZero)
	case t.Location() == time.UTC && time.Unix(0, t.UnixNano()).UTC() == t:
		p.b = append(p.b, timeUTC)
		p.b = binary.AppendVarint(p.b, t.UnixNano())
	default:
		p.b = append(p.b, timeOther)
		p.d.Times = append(p.d.Times, t)
	}
}

// packDigest is the digest of a read's sums and problems.
func packDigest(state model.TailState, sums *model.HistorySums, problems []model.Problem) historyDigest {
	d := historyDigest{State: state, Problems: problems, Entries: sums.Entries, Unattributed: sums.Unattributed, Inline: sums.Inline,
		Sessions: len(sums.Sessions), Pastes: len(sums.Pastes)}
	p := digestPacker{d: &d, index: map[string][2]int{}, b: make([]byte, 0, 64*len(sums.Sessions)+24*len(sums.Pastes))}
	for i := range sums.Sessions {
		s := &sums.Sessions[i]
		p.str(string(s.ID))
		p.str(s.Project)
		p.str(s.Display)
		p.uint(uint64(s.Line))
		p.time(s.First)
		p.time(s.Last)
		p.uint(uint64(s.Prompts))
	}
	for i := range sums.Pastes {
		r := &sums.Pastes[i]
		p.uint(uint64(r.Line))
		p.b = binary.AppendVarint(p.b, int64(r.ID))
		p.str(string(r.Hash))
		p.str(r.Project)
		p.str(string(r.SessionID))
		p.time(r.Time)
	}
	d.Strings, d.Packed = string(p.strs), p.b
	return d
}

// digestReader unpacks a digest; bad says it does not decode.
type digestReader struct {
	d     *historyDigest
	b     []byte
	times int
	bad   bool
}

func (r *digestReader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// int reads what binary.AppendVarint wrote: a zig-zag uint.
func (r *digestReader) int() int64 {
	u := r.uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *digestReader) str() string {
	at, n := r.uint(), r.uint()
	if at > uint64(len(r.d.Strings)) || n > uint64(len(r.d.Strings))-at {
		r.bad = true
		return ""
	}
	return r.d.Strings[at : at+n]
}

func (r *digestReader) time() time.Time {
	if len(r.b) == 0 {
		r.bad = true
		return time.Time{}
	}
	kind := r.b[0]
	r.b = r.b[1:]
	switch kind {
	case timeZero:
		return time.Time{}
	case timeUTC:
		return time.Unix(0, r.int()).UTC()
	case timeOther:
		if r.times < len(r.d.Times) {
			r.times++
			return r.d.Times[r.times-1]
		}
	}
	r.bad = true
	return time.Time{}
}

// sums unpacks the digest's sums; ok is false when it does not decode
// (then it is not used).
func (d *historyDigest) sums() (*model.HistorySums, bool) {
	// Every session and paste takes at least a byte: counts beyond what
	// Packed holds are not believed (nor allocated for).
	if d.Sessions < 0 || d.Pastes < 0 || d.Sessions > len(d.Packed) || d.Pastes > len(d.Packed) {
		return nil, false
	}
	s := &model.HistorySums{Entries: d.Entries, Unattributed: d.Unattributed, Inline: d.Inline,
		Sessions: make([]model.HistorySession, d.Sessions), Pastes: make([]model.HistoryPasteRef, d.Pastes)}
	r := digestReader{d: d, b: d.Packed}
	for i := range s.Sessions {
		e := &s.Sessions[i]
		e.ID, e.Project, e.Display = model.SessionID(r.str()), r.str(), r.str()
		e.Line = int(r.uint())
		e.First, e.Last = r.time(), r.time()
		e.Prompts = int(r.uint())
	}
	for i := range s.Pastes {
		p := &s.Pastes[i]
		p.Line = int(r.uint())
		p.ID = model.PasteID(r.int())
		p.Hash, p.Project, p.SessionID = model.PasteHash(r.str()), r.str(), model.SessionID(r.str())
		p.Time = r.time()
	}
	if r.bad || len(r.b) != 0 || r.times != len(d.Times) {
		return nil, false
	}
	return s, true
}

// saveDigest keeps the digest of a read of the whole file (its sums, or
// its entries summed). A cache that cannot be written costs the next
// start its speed, never its answer.
func saveDigest(cache *diskcache.Store, name string, read model.HistoryRead) {
	if cache == nil {
		return
	}
	sums := read.Sums
	if sums == nil {
		sums = model.SumHistory(read.Entries)
	}
	_ = diskcache.Save(cache, historyDigestKind, name, packDigest(read.Tail.State, sums, read.Problems))
}

// loadDigest is the start's read: the digest an earlier run kept and
// what was appended to the file since (HistoryRead.digest), or, without
// a digest that still describes the file, the whole file read for its
// sums alone (sumsRead); the entries the panes show are decoded when a
// pane that shows them is first shown.
func (h *History) loadDigest() tea.Cmd {
	fsys, tail, cache := h.home.FS, h.tail, h.cache
	name := diskcache.Name(historyDigestKind, h.home.Dir)
	whole := h.load(true)
	return func() tea.Msg {
		d, ok := diskcache.Load[historyDigest](cache, historyDigestKind, name)
		var sums *model.HistorySums
		if ok && d.State != (model.TailState{}) {
			sums, ok = d.sums()
		}
		if !ok || d.State == (model.TailState{}) {
			return sumsRead(fsys, tail, cache, name, whole)
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
			sums.Add(read.Entries)
			d.Problems = append(d.Problems, read.Problems...)
			_ = diskcache.Save(cache, historyDigestKind, name, packDigest(read.Tail.State, sums, d.Problems))
		}
		read.Entries, read.Sums, read.Problems, read.Full = nil, sums, d.Problems, true
		return HistoryRead{read: read, digest: true}
	}
}

// sumsRead reads the whole of history.jsonl for its sums alone
// (HistoryTail.Sums: no entry kept, a prompt made only for each
// session's first), keeps their digest and hands them on as a digest
// read; the feed's tail goes on from where it stopped. Without a file,
// or one that cannot be read, it is load's read (whole).
func sumsRead(fsys fs.FS, tail *model.HistoryTail, cache *diskcache.Store, name string, whole tea.Cmd) tea.Msg {
	t := model.HistoryTail{Sums: true}
	read, err := t.Read(fsys, model.HistoryPath)
	if err != nil {
		return whole()
	}
	tail.State = t.State
	saveDigest(cache, name, read)
	return HistoryRead{read: read, digest: true}
}
