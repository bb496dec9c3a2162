package secrets

import (
	"sync"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/model"
)

// Feed is Counts' reading of the transcripts as a consumer of the shared
// reader (engine/homepass): it counts the transcripts its cache does not
// answer for and keeps their counts there (Done), so Counts, after,
// reads none of them. The home's other stores are Counts' own.
type Feed struct {
	fill    *diskcache.Filling[counted]
	workers sync.Pool
}

// NewFeed is the secrets counts' consumer for the home at homeDir, kept
// in store.
func NewFeed(store *diskcache.Store, homeDir string) *Feed {
	return &Feed{fill: diskcache.LoadFillAs[keptCounts](store, countsKind, homeDir)}
}

// Want counts t unless the cache answers for it.
func (f *Feed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	if f.fill.Has(t.Path, st) {
		return nil
	}
	store := StoreTranscript
	if t.Kind == model.TranscriptSubagent {
		store = StoreSubagent
	}
	u := unit{store: store, name: t.Path, file: t.Path, inHome: true, format: formatOf(store, t.Path), size: t.Size, modTime: t.ModTime,
		session: model.SessionID(t.SessionID), agent: t.AgentID}
	if !u.byLine() || u.format == formatJournal {
		return nil // never for a transcript: left to Counts
	}
	w, _ := f.workers.Get().(*worker)
	if w == nil {
		w = newWorker()
	}
	return &feedFile{f: f, u: u, w: w, st: st, res: fileResult{read: true}}
}

// Done keeps what was counted.
func (f *Feed) Done() error { return f.fill.Save() }

type feedFile struct {
	f   *Feed
	u   unit
	w   *worker
	st  model.FileStamp
	res fileResult
}

// Line counts one line as scanLines does (only counting: every finding
// kept, none held).
func (ff *feedFile) Line(l model.Line) {
	ff.w.scanLine(ff.u, &ff.res, l, 0, func(*Finding) { ff.res.kept++ })
}

func (ff *feedFile) End(_ int64, err error, whole bool) {
	ff.f.workers.Put(ff.w)
	ff.w = nil
	if err != nil || !whole {
		return
	}
	c := counted{Read: true, Bytes: ff.res.bytes, Kept: ff.res.kept, Problems: problemsOf(ff.res.problems), Settled: settled(ff.st)}
	if wholeCount(c, ff.st.Size) {
		ff.f.fill.Add(ff.u.name, ff.st, c)
	}
}
