package sessions

import (
	"sync"
	"time"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/model"
)

// Handoff hands the followers a shared read of the home built (engine/
// homepass: the app's Overview pass) to the Replay list's load of the
// same project, so a cold start reads each of the open project's
// transcripts once, not once for the pass and again for the list. The
// pass claims a project's transcripts at its start (Feed); a load asking
// for one of them (Take) meanwhile waits for its read and takes the
// follower, which has read the file to its end as Update would have; a
// transcript no pass claimed, or one written since the pass read it, is
// the load's to read. It is safe for concurrent use; the zero value is
// not: use NewHandoff.
type Handoff struct {
	mu    sync.Mutex
	files map[string]*handed
	// due says a pass is about to claim (Expect): Take waits for its
	// claims before it looks.
	due homepass.Due
}

// Expect says a pass with h's Feed is about to start: a Take meanwhile
// waits for its claims (at most homepass.DueWait) rather than return
// nothing for a transcript the pass claims a moment later. Resolve ends
// the wait (the pass will not run); the Feed's Start ends it too.
func (h *Handoff) Expect() {
	if h != nil {
		h.due.Expect()
	}
}

// Resolve ends Expect's wait.
func (h *Handoff) Resolve() {
	if h != nil {
		h.due.Resolve()
	}
}

// handed is one transcript's follower, being built or built.
type handed struct {
	done chan struct{}
	// f is the follower once its file was read whole (nil: the load
	// reads it), for the file's size and modification time then.
	f    *Follower
	size int64
	mod  time.Time
}

// NewHandoff returns a Handoff with nothing claimed.
func NewHandoff() *Handoff { return &Handoff{files: map[string]*handed{}} }

// Take is the follower the pass built for transcript t, when t is listed
// as the pass read it (size and modification time), waiting for a read
// under way; nil when there is none (the caller reads t itself). A
// follower is taken once.
func (h *Handoff) Take(t model.TranscriptFile) *Follower {
	if h == nil {
		return nil
	}
	h.due.Wait()
	h.mu.Lock()
	e, ok := h.files[t.Path]
	h.mu.Unlock()
	if !ok {
		return nil
	}
	<-e.done
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.files[t.Path] == e {
		delete(h.files, t.Path)
	}
	if e.f == nil || e.size != t.Size || !e.mod.Equal(t.ModTime) {
		return nil
	}
	return e.f
}

// Feed is the pass's consumer building followers of project slug's
// transcripts (nil for no slug or no Handoff). It rides (homepass.Rider):
// the pass reads no file for it alone.
func (h *Handoff) Feed(slug string) homepass.Consumer {
	if h == nil || slug == "" {
		return nil
	}
	return &handoffFeed{h: h, slug: slug, claims: map[string]*handed{}}
}

type handoffFeed struct {
	h      *Handoff
	slug   string
	claims map[string]*handed
}

func (f *handoffFeed) wanted(t model.TranscriptFile) bool { return t.ProjectSlug == f.slug }

// First: the Replay list's load waits for these (homepass.Firster).
func (f *handoffFeed) First(t model.TranscriptFile) bool { return f.wanted(t) }

// Start claims the project's transcripts no earlier pass holds a
// follower of still untaken, and ends an Expect's wait.
func (f *handoffFeed) Start(files []model.TranscriptFile) {
	f.h.mu.Lock()
	defer f.h.mu.Unlock()
	for _, t := range files {
		if !f.wanted(t) {
			continue
		}
		if _, ok := f.h.files[t.Path]; ok {
			continue
		}
		e := &handed{done: make(chan struct{})}
		f.h.files[t.Path], f.claims[t.Path] = e, e
	}
	f.h.due.Started()
}

func (f *handoffFeed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	f.h.mu.Lock()
	e, ok := f.claims[t.Path]
	delete(f.claims, t.Path)
	f.h.mu.Unlock()
	if !ok {
		return nil
	}
	fw := NewFollower()
	fw.startFeed(t.Path)
	return &handoffFile{e: e, f: fw, st: st}
}

// Skip releases t's claim: the pass does not read it (no other pass
// wants it: a warm start), so the load reads it (homepass.Rider).
func (f *handoffFeed) Skip(t model.TranscriptFile) {
	f.h.mu.Lock()
	e, ok := f.claims[t.Path]
	delete(f.claims, t.Path)
	f.h.mu.Unlock()
	if ok {
		close(e.done)
	}
}

// Done releases the claims of files the pass did not read.
func (f *handoffFeed) Done() error {
	f.h.mu.Lock()
	left := f.claims
	f.claims = map[string]*handed{}
	f.h.mu.Unlock()
	for _, e := range left {
		close(e.done)
	}
	return nil
}

type handoffFile struct {
	e  *handed
	f  *Follower
	st model.FileStamp
	// last is the number of the last line handed; open says it did not
	// end in a line break (a line being written: Update would stop
	// before it, so the follower is not handed on).
	last int
	open bool
}

func (hf *handoffFile) Line(l model.Line) {
	if !l.Terminated {
		hf.open = true
		return
	}
	hf.f.feedLine(l)
	hf.last = l.Number
}

// LineRecord takes stat's summary's reading of the line
// (homepass.Recording), as Line would read it.
func (hf *handoffFile) LineRecord(l model.Line, r *model.SummaryRecord, how homepass.Read) {
	if !l.Terminated {
		hf.open = true
		return
	}
	hf.f.feedRecord(l, r, how)
	hf.last = l.Number
}

// End hands the follower on when the file was read whole, unchanged, to
// a line break: its state is then what Update's read leaves.
func (hf *handoffFile) End(n int64, err error, whole bool) {
	if err == nil && whole && !hf.open && n == hf.st.Size {
		hf.f.endFeed(hf.st, hf.last)
		hf.e.f, hf.e.size, hf.e.mod = hf.f, hf.st.Size, time.Unix(0, hf.st.ModTime)
	}
	close(hf.e.done)
}
