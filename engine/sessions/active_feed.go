package sessions

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/model"
)

// ActiveHandoff hands the Projects list the last activity (LastActive)
// of each transcript the app's shared pass read (engine/homepass: the
// Overview's), so a cold start does not read the transcripts' ends for
// the list before the pass reads them whole: the list is first shown
// with the transcripts' modification times (the clock LastActive falls
// back to), and filled in when the pass ends (Ended). The pass's
// consumer (Feed) rides: it never makes the pass read a file. It keeps
// what it found in the list's cache (LastActiveAll's), so the next start
// reads nothing for it. It is safe for concurrent use; the zero value is
// not: use NewActiveHandoff.
type ActiveHandoff struct {
	mu    sync.Mutex
	got   map[string]diskcache.Entry[Active]
	ended chan struct{}
	once  sync.Once
}

// NewActiveHandoff returns a handoff no pass fed yet.
func NewActiveHandoff() *ActiveHandoff {
	return &ActiveHandoff{got: map[string]diskcache.Entry[Active]{}, ended: make(chan struct{})}
}

// Ended is closed when the first pass fed by Feed ended: every
// transcript it read whole was handed over. Nothing waits for it: the
// list takes the pass's answers once it ended (the app asks when a line
// of the pass's is counted), or reads the ends itself when no pass is
// under way (LastActiveFrom), never while one reads them.
func (h *ActiveHandoff) Ended() <-chan struct{} { return h.ended }

// HasEnded reports whether Ended is closed.
func (h *ActiveHandoff) HasEnded() bool {
	if h == nil {
		return false
	}
	select {
	case <-h.ended:
		return true
	default:
		return false
	}
}

// end says the pass ended.
func (h *ActiveHandoff) end() { h.once.Do(func() { close(h.ended) }) }

// take is the last activity the pass found for t, when t is listed as
// the pass read it (size and modification time) and the pass read it
// whole; the stamp it was read at.
func (h *ActiveHandoff) take(t model.TranscriptFile) (diskcache.Entry[Active], bool) {
	h.mu.Lock()
	e, ok := h.got[t.Path]
	h.mu.Unlock()
	return e, ok && e.Stamp.Size == t.Size && e.Stamp.ModTime == t.ModTime.UnixNano()
}

// Take is the last activity the pass found for transcript t (as
// LastActive has it), when t is listed as the pass read it whole; ok
// false when the pass has none (not read yet, not whole, no record in
// the end's first window, written since). For the Replay list, whose
// followers the same pass builds (Handoff): this feed ends each file
// before that one's (the pass ends a file's riders in the order it was
// given them, this one first), so a follower taken has its activity here.
func (h *ActiveHandoff) Take(t model.TranscriptFile) (Active, bool) {
	if h == nil {
		return Active{}, false
	}
	e, ok := h.take(t)
	return e.Value, ok
}

// Feed is the pass's consumer (nil for a nil handoff): it reads the
// lines of each transcript's last 64 KiB as LastActive reads them, and
// keeps the newest record's time of a transcript read whole (one whose
// end holds none is left to the list, which reads further back). Its
// Done keeps them in cache (nil: none) for the home at homeDir and ends
// the handoff's wait.
func (h *ActiveHandoff) Feed(cache *diskcache.Store, homeDir string) homepass.Consumer {
	if h == nil {
		return nil
	}
	return &activeFeed{h: h, cache: cache, homeDir: homeDir}
}

type activeFeed struct {
	h       *ActiveHandoff
	cache   *diskcache.Store
	homeDir string
	// read counts the lines the feed read itself (tests).
	read atomic.Int64
}

// Skip: a file the pass does not read is the list's (homepass.Rider).
func (f *activeFeed) Skip(model.TranscriptFile) {}

func (f *activeFeed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	start := max(st.Size-lastActiveWindows[0], 0)
	return &activeFile{f: f, path: t.Path, st: st, start: start}
}

// Done keeps what the pass found in the list's cache and ends the wait.
func (f *activeFeed) Done() error {
	defer f.h.end()
	f.h.mu.Lock()
	add := make(map[string]diskcache.Entry[Active], len(f.h.got))
	for k, v := range f.h.got {
		add[k] = v
	}
	f.h.mu.Unlock()
	return keepActive(f.cache, f.homeDir, add)
}

// activeFile is the feed's reading of one transcript: the lines that
// start after start (LastActive's first window, its first line, cut by
// the window, skipped; every line when the file is smaller). Their
// newest record time is the summary's Last of those lines: read here
// (Line, with w) or, when stat's summary reads the file in the same
// pass, taken from it line by line (LineRecord, homepass.Recording), only
// the lines it left to the transcript reader read here, one at a time.
type activeFile struct {
	f     *activeFeed
	path  string
	st    model.FileStamp
	start int64
	// w is a worker of the pool, taken at the first line read here.
	w   *scanWorker
	out FileScan
	// recorded says the lines came by LineRecord: last is their newest
	// record time.
	recorded bool
	last     time.Time
}

// skip says the line is before the window.
func (a *activeFile) skip(l model.Line) bool { return a.start > 0 && l.Offset <= a.start }

// worker is a's worker (taken from the pool at the first call).
func (a *activeFile) worker() *scanWorker {
	if a.w == nil {
		a.w = summaryWorker(a.path)
	}
	return a.w
}

func (a *activeFile) Line(l model.Line) {
	if a.skip(l) {
		return
	}
	a.f.read.Add(1)
	a.worker().line(&a.out, l)
}

// LineRecord takes stat's summary's reading of the line
// (homepass.Recording): the time of its record; a line it left to the
// transcript reader is read here alone, as Line would read it.
func (a *activeFile) LineRecord(l model.Line, r *model.SummaryRecord, how homepass.Read) {
	a.recorded = true
	if a.skip(l) {
		return
	}
	var t time.Time
	switch how {
	case homepass.ReadRecord:
		t = r.Timestamp
	case homepass.ReadByModel:
		a.f.read.Add(1)
		w := a.worker()
		w.z.Reset(a.path)
		w.line(&a.out, l)
		t = w.z.Summary(0).Last
	}
	// The summary's rule for its Last (model.Summarizer).
	if !t.IsZero() && t.After(a.last) {
		a.last = t
	}
}

func (a *activeFile) End(_ int64, err error, whole bool) {
	t := a.last
	if w := a.w; w != nil {
		if !a.recorded {
			t = w.z.Summary(0).Last
		}
		workers.Put(w)
		a.w = nil
	}
	if err != nil || !whole {
		return
	}
	if t.IsZero() {
		return
	}
	a.f.h.mu.Lock()
	a.f.h.got[a.path] = diskcache.Entry[Active]{Stamp: a.st, Value: Active{Time: t, Clock: ClockRecord}}
	a.f.h.mu.Unlock()
}

// keepActive adds add to the last activities kept in cache for the home
// at homeDir (nil cache, or nothing to add: nothing is written).
func keepActive(cache *diskcache.Store, homeDir string, add map[string]diskcache.Entry[Active]) error {
	if cache == nil || len(add) == 0 {
		return nil
	}
	name := diskcache.Name(lastActiveKind, homeDir)
	kept, _ := diskcache.Load[map[string]diskcache.Entry[Active]](cache, lastActiveKind, name)
	if kept == nil {
		kept = map[string]diskcache.Entry[Active]{}
	}
	for k, v := range add {
		kept[k] = v
	}
	return diskcache.Save(cache, lastActiveKind, name, kept)
}
