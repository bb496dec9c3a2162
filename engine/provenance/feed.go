package provenance

import (
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Feed is the first pass, for folders, as a consumer of the shared
// reader (engine/homepass): each transcript the cache has no entry of
// covering folders is read for them (and for the folders its old entry
// looked for) and its entry kept in c, in memory and, at Done, on disk,
// so a Scan after (the review inbox, the Overview's review line, the
// Projects list's counts, for any of those folders) reads none of them.
// A transcript another scan is reading now is left to it.
func (c *FirstCache) Feed(folders []Folder) homepass.Consumer {
	// Asked until Done, as a Scan asks: a Scan meanwhile reads what it
	// reads for these folders too.
	return &firstFeed{c: c, folders: folders, done: c.ask(folders)}
}

type firstFeed struct {
	c       *FirstCache
	folders []Folder
	// claims are the reads Start claimed (a scan meanwhile waits for
	// them), each released when its file is read or found in cache.
	claims map[string]func()
	// seen are the transcripts asked (what Done's save keeps).
	seen []model.TranscriptFile
	done func()
}

// wanted says the feed reads t at all.
func (f *firstFeed) wanted(t model.TranscriptFile) bool {
	return f.c != nil && len(f.folders) > 0 && !t.ModTime.IsZero() && (t.Kind == model.TranscriptMain || t.Kind == model.TranscriptSubagent)
}

// Start claims the read of every file the feed may read (those no scan
// reads now): a scan of the app's panes running meanwhile waits for the
// shared reader instead of reading the file again.
func (f *firstFeed) Start(files []model.TranscriptFile) {
	if f.claims != nil {
		return // started already
	}
	f.claims = map[string]func(){}
	for _, t := range files {
		if !f.wanted(t) {
			continue
		}
		if release, ok := f.c.tryClaim(t.Path); ok {
			f.claims[t.Path] = release
		}
	}
}

// claim takes t's claim from Start (or claims it now).
func (f *firstFeed) claim(t model.TranscriptFile) (func(), bool) {
	f.c.mu.Lock()
	release, ok := f.claims[t.Path]
	delete(f.claims, t.Path)
	f.c.mu.Unlock()
	if ok {
		return release, true
	}
	return f.c.tryClaim(t.Path)
}

func (f *firstFeed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	c := f.c
	if !f.wanted(t) {
		return nil
	}
	c.load()
	c.mu.Lock()
	f.seen = append(f.seen, t)
	c.mu.Unlock()
	release, ok := f.claim(t)
	if !ok {
		return nil // another scan reads it now
	}
	e, same := c.get(t)
	if !same {
		e, same = c.fromDiskAt(t, st)
	}
	if same && covers(e.folders, f.folders) {
		release()
		return nil
	}
	c.mu.Lock()
	look := c.lookFor(t, f.folders)
	c.mu.Unlock()
	return &firstFile{c: c, t: t, st: st, look: look, fr: newFirstReader(t, look), release: release}
}

// Done saves the entries read (with those of the last scan).
func (f *firstFeed) Done() error {
	f.done()
	c := f.c
	if c == nil {
		return nil
	}
	// Files the reader never asked about (not stamped).
	c.mu.Lock()
	left := f.claims
	f.claims = nil
	c.mu.Unlock()
	for _, release := range left {
		release()
	}
	if c.disk == nil {
		return nil
	}
	c.mu.Lock()
	seen := make(map[string]bool, len(f.seen)+len(c.disk.seen))
	for p := range c.disk.seen {
		seen[p] = true
	}
	for _, t := range f.seen {
		seen[t.Path] = true
	}
	c.disk.seen = seen
	c.mu.Unlock()
	return c.Save()
}

type firstFile struct {
	c       *FirstCache
	t       model.TranscriptFile
	st      model.FileStamp
	look    []Folder
	fr      *firstReader
	release func()
}

func (ff *firstFile) Line(l model.Line) { ff.fr.line(l) }

// LineTop takes the members the shared pass's checker walked
// (homepass.Walking): firstReader.lineTop.
func (ff *firstFile) LineTop(l model.Line, top *jsonscan.Top) { ff.fr.lineTop(l, top) }

func (ff *firstFile) End(_ int64, err error, whole bool) {
	defer ff.release()
	if err != nil {
		return
	}
	st := ff.st
	if !whole || ff.c.disk == nil {
		// Written while it was read: kept for this run only.
		st = model.FileStamp{}
	}
	ff.c.mu.Lock()
	ff.c.m[ff.t.Path] = cachedFirst{size: ff.t.Size, mod: ff.t.ModTime, stamp: st, folders: ff.look, pass: ff.fr.p}
	ff.c.markDirty()
	ff.c.mu.Unlock()
}

// tryClaim is claim without the wait: ok is false when another read of
// key runs.
func (c *FirstCache) tryClaim(key string) (release func(), ok bool) {
	c.mu.Lock()
	if _, busy := c.busy[key]; busy {
		c.mu.Unlock()
		return nil, false
	}
	c.mu.Unlock()
	return c.claim(key)
}

// fromDiskAt is fromDisk for a file already stamped (st, taken before
// any read).
func (c *FirstCache) fromDiskAt(t model.TranscriptFile, st model.FileStamp) (cachedFirst, bool) {
	if c.disk == nil {
		return cachedFirst{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.disk.loaded[t.Path]
	if !ok || st.Size != t.Size || !st.Equal(s.Stamp) {
		return cachedFirst{}, false
	}
	delete(c.disk.loaded, t.Path)
	e := s.entry(t)
	if old, ok := c.m[t.Path]; !ok || old.size != t.Size || !old.mod.Equal(t.ModTime) {
		c.m[t.Path] = e
	}
	return e, true
}
