package loads

import (
	"time"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/model"
)

// Feed is the cache's read of project slug's transcripts as a consumer
// of the shared reader (engine/homepass): each transcript of the project
// the cache does not hold (by size and modification time) is scanned for
// its loads from the lines the reader hands every pass, and kept, so a
// Build after (the project feed's loads, the Overview's Lint line) reads
// none of them. Start claims those reads: a Build meanwhile waits for
// the reader instead of reading the file again, and the reader takes
// them first (homepass.Firster) so that wait is short. It rides
// (homepass.Rider): a file the other passes do not need read is left to
// the Build. A nil Feed (no slug) wants nothing.
func (c *Cache) Feed(slug string) homepass.Consumer {
	if c == nil || slug == "" {
		return nil
	}
	return &feed{c: c, slug: slug, claims: map[string]chan struct{}{}}
}

type feed struct {
	c    *Cache
	slug string
	// claims are the reads Start claimed, each released when its file
	// was read or found not wanted.
	claims map[string]chan struct{}
}

func (f *feed) wanted(t model.TranscriptFile) bool { return t.ProjectSlug == f.slug }

// First says the reader reads t before the others: a Build may wait for
// it.
func (f *feed) First(t model.TranscriptFile) bool { return f.wanted(t) }

// Start claims the read of every transcript of the project the cache
// does not hold and no Build reads now.
func (f *feed) Start(files []model.TranscriptFile) {
	c := f.c
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range files {
		if !f.wanted(t) {
			continue
		}
		if hit, ok := c.files[t.Path]; ok && hit.size == t.Size && hit.mod.Equal(t.ModTime) {
			continue
		}
		if _, busy := c.reading[t.Path]; busy {
			continue
		}
		done := make(chan struct{})
		c.reading[t.Path], f.claims[t.Path] = done, done
	}
	c.due.Started()
}

// Expect says a pass with the cache's Feed is about to start: a Build
// meanwhile waits for its claims (at most homepass.DueWait) rather than
// read first what the pass claims a moment later. Resolve ends the wait
// (the pass will not run); the Feed's Start ends it too.
func (c *Cache) Expect() {
	if c != nil {
		c.due.Expect()
	}
}

// Resolve ends Expect's wait.
func (c *Cache) Resolve() {
	if c != nil {
		c.due.Resolve()
	}
}

// release ends t's claim (a Build waiting for it reads the cache again).
func (f *feed) release(path string) {
	c := f.c
	c.mu.Lock()
	done, ok := f.claims[path]
	delete(f.claims, path)
	if ok && c.reading[path] == done {
		delete(c.reading, path)
	}
	c.mu.Unlock()
	if ok {
		close(done)
	}
}

func (f *feed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	if !f.wanted(t) {
		return nil
	}
	f.c.mu.Lock()
	_, claimed := f.claims[t.Path]
	f.c.mu.Unlock()
	if !claimed {
		return nil // in the cache, or a Build reads it
	}
	return &feedFile{f: f, t: t, st: st, sc: model.NewLoadsScanner(t.Path)}
}

// Skip releases t's claim: the reader does not read it (no other pass
// wants it: a warm start), so a Build reads it (homepass.Rider).
func (f *feed) Skip(t model.TranscriptFile) {
	if f.wanted(t) {
		f.release(t.Path)
	}
}

// Done releases the claims of files the reader did not read (it could
// not stamp them): a Build waiting for one reads it itself.
func (f *feed) Done() error {
	f.c.mu.Lock()
	var left []string
	for p := range f.claims {
		left = append(left, p)
	}
	f.c.mu.Unlock()
	for _, p := range left {
		f.release(p)
	}
	return nil
}

// feedFile scans one transcript's lines for its loads.
type feedFile struct {
	f  *feed
	t  model.TranscriptFile
	st model.FileStamp
	sc *model.LoadsScanner
}

func (ff *feedFile) Line(l model.Line) { ff.sc.Line(l) }

// End keeps the events of a file read whole and unchanged, under the
// size and modification time it was stamped with (what a Build's
// listing compares); a file written meanwhile is left to the next Build.
func (ff *feedFile) End(_ int64, err error, whole bool) {
	if err == nil && whole {
		c := ff.f.c
		evs := c.eventsOf(ff.t, ff.sc.Records)
		// Kept on disk too (NewCacheOn) when its last change had settled
		// (as a Build's read, stampBefore): the next start reads it not.
		var st model.FileStamp
		if c.disk != nil && ff.st.Known() && c.clock().Sub(time.Unix(0, ff.st.ChangeTime)) >= settled {
			st = ff.st
		}
		c.mu.Lock()
		c.files[ff.t.Path] = cached{size: ff.st.Size, mod: time.Unix(0, ff.st.ModTime), events: evs, probs: ff.sc.Problems, stamp: st}
		c.dirty = c.dirty || st.Known()
		c.mu.Unlock()
	}
	ff.f.release(ff.t.Path)
}
