package loads

import (
	"io/fs"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// DiskKind versions the loads cache file (diskcache.Name(DiskKind, the
// home's folder)): what each transcript's events were when last read.
const DiskKind = "loads.1"

// maxDiskFiles bounds the transcripts the cache file keeps besides those
// this run used (a transcript deleted long ago does not stay forever).
const maxDiskFiles = 20000

// diskCache is the cache file: each transcript's events by path, the
// MEMORY.md texts they loaded kept once (Texts, referred to by index).
type diskCache struct {
	Texts []string
	Files map[string]diskFile
}

// diskFile is one transcript's events, read from the version of the file
// stamped Stamp (taken from its information: size, mtime, change time,
// inode).
type diskFile struct {
	Stamp  model.FileStamp
	Events []diskEvent
	Probs  []model.Problem
}

type diskEvent struct {
	Session, Transcript, UUID string
	Line                      int
	Time                      time.Time
	MidSession                bool
	Files                     []diskEventFile
}

type diskEventFile struct {
	Path, Label, ReplacesPath string
	Globs                     []string
	Bytes                     int
	// Text is the index of the loaded MEMORY.md's text in Texts, plus
	// one (0: not a memory file).
	Text int
}

// NewCacheOn returns a cache that starts from what an earlier run kept in
// s for the home at homeDir, and keeps what it reads there (Save). A
// transcript's kept events answer only when the file's information
// (size, mtime, change time, inode: one stat, no read) is as it was when
// they were read, even for a build that reads no transcript
// (Options.CachedOnly); a build that reads saves what it read (Save).
// s nil: NewCache.
func NewCacheOn(s *diskcache.Store, homeDir string) *Cache {
	c := NewCache()
	if s != nil {
		c.disk, c.diskName, c.clock = s, diskcache.Name(DiskKind, homeDir), time.Now
	}
	return c
}

// kept loads the cache file once (nil when there is none).
func (c *Cache) kept() map[string]diskFile {
	c.diskOnce.Do(func() {
		if c.disk == nil {
			return
		}
		d, ok := diskcache.Load[diskCache](c.disk, DiskKind, c.diskName)
		if !ok {
			return
		}
		texts := make([]*loadedIndex, len(d.Texts))
		for i, t := range d.Texts {
			texts[i] = c.index(t)
		}
		c.mu.Lock()
		c.onDisk, c.texts = d.Files, texts
		c.mu.Unlock()
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.onDisk
}

// restore puts tf's kept events in the cache when the file is as it was
// when they were read: one stat. It reports whether it did.
func (c *Cache) restore(home fs.FS, tf model.TranscriptFile) bool {
	if c.disk == nil || len(c.kept()) == 0 {
		return false
	}
	c.mu.Lock()
	d, ok := c.onDisk[tf.Path]
	hit, cur := c.files[tf.Path]
	c.mu.Unlock()
	if !ok || cur && hit.size == tf.Size && hit.mod.Equal(tf.ModTime) ||
		!d.Stamp.Known() || d.Stamp.Size != tf.Size || d.Stamp.ModTime != tf.ModTime.UnixNano() {
		return false
	}
	info, err := fs.Stat(home, tf.Path)
	if err != nil || !model.StampOf(info).Same(d.Stamp) {
		return false
	}
	e := cached{size: tf.Size, mod: tf.ModTime, probs: d.Probs, stamp: d.Stamp}
	for _, de := range d.Events {
		ev := Event{Session: de.Session, Transcript: de.Transcript, Line: de.Line, UUID: de.UUID, Time: de.Time, MidSession: de.MidSession}
		for _, f := range de.Files {
			ef := EventFile{Path: f.Path, Label: f.Label, Globs: f.Globs, Bytes: f.Bytes, ReplacesPath: f.ReplacesPath}
			if f.Text > 0 && f.Text <= len(c.texts) {
				ef.index = c.texts[f.Text-1]
			}
			ev.Files = append(ev.Files, ef)
		}
		e.events = append(e.events, ev)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if hit, cur := c.files[tf.Path]; cur && hit.size == tf.Size && hit.mod.Equal(tf.ModTime) {
		return true // read meanwhile
	}
	c.files[tf.Path] = e
	delete(c.onDisk, tf.Path)
	return true
}

// settled is how long before a read a transcript's last change must be
// for its events to be kept on disk. A file's stamp is its information
// alone (no head hash), and a change time only moves by the kernel
// clock's tick: a write in the same tick as the one stamped, after the
// read, would leave the stamp as it was (git's "racily clean" entries).
// A file whose last change is older than this by the time it is stamped
// cannot be written again within that change's tick.
const settled = time.Second

// stampBefore is tf's stamp from its information, taken before it is
// read, when it can be kept on disk: its platform gives a change time,
// it is the version the listing saw, and it changed last at least
// settled before now.
func stampBefore(home fs.FS, tf model.TranscriptFile, now time.Time) (model.FileStamp, bool) {
	info, err := fs.Stat(home, tf.Path)
	if err != nil {
		return model.FileStamp{}, false
	}
	st := model.StampOf(info)
	return st, st.Known() && st.Size == tf.Size && st.ModTime == tf.ModTime.UnixNano() &&
		now.Sub(time.Unix(0, st.ChangeTime)) >= settled
}

// Save keeps, when its cache is on disk (NewCacheOn), the events read
// since it was loaded or last saved with those kept before: the next
// run's builds read only the transcripts that changed. Nothing is
// written when nothing new was read. Safe beside builds.
func (c *Cache) Save() error {
	if c.disk == nil {
		return nil
	}
	c.kept()
	c.mu.Lock()
	if !c.dirty {
		c.mu.Unlock()
		return nil
	}
	c.dirty = false
	d := diskCache{Files: make(map[string]diskFile, len(c.files)+len(c.onDisk))}
	text := map[*loadedIndex]int{}
	for p, e := range c.files {
		if e.stamp.Known() && e.err == nil {
			d.Files[p] = c.diskFileOf(e, text, &d.Texts)
		}
	}
	// The kept entries not used by this run follow, their texts as the
	// cache file numbered them renumbered in the file being written.
	for p, f := range c.onDisk {
		if len(d.Files) >= maxDiskFiles {
			break
		}
		if _, ok := d.Files[p]; !ok {
			f.Events = renumber(f.Events, c.texts, text, &d.Texts)
			d.Files[p] = f
		}
	}
	c.mu.Unlock()
	return diskcache.Save(c.disk, DiskKind, c.diskName, d)
}

// diskFileOf is e as the cache file keeps it, its texts added to texts.
func (c *Cache) diskFileOf(e cached, text map[*loadedIndex]int, texts *[]string) diskFile {
	f := diskFile{Stamp: e.stamp, Probs: e.probs}
	for _, ev := range e.events {
		de := diskEvent{Session: ev.Session, Transcript: ev.Transcript, UUID: ev.UUID, Line: ev.Line, Time: ev.Time, MidSession: ev.MidSession}
		for _, ef := range ev.Files {
			de.Files = append(de.Files, diskEventFile{Path: ef.Path, Label: ef.Label, ReplacesPath: ef.ReplacesPath, Globs: ef.Globs, Bytes: ef.Bytes,
				Text: textIndex(ef.index, text, texts)})
		}
		f.Events = append(f.Events, de)
	}
	return f
}

// renumber gives events' text indexes (into loaded, as the cache file
// had them) in the file being written.
func renumber(events []diskEvent, loaded []*loadedIndex, text map[*loadedIndex]int, texts *[]string) []diskEvent {
	out := make([]diskEvent, len(events))
	for i, ev := range events {
		out[i] = ev
		out[i].Files = make([]diskEventFile, len(ev.Files))
		for j, f := range ev.Files {
			if f.Text > 0 && f.Text <= len(loaded) {
				f.Text = textIndex(loaded[f.Text-1], text, texts)
			} else {
				f.Text = 0
			}
			out[i].Files[j] = f
		}
	}
	return out
}

// textIndex is ix's text's index in texts plus one, adding it once (0
// for nil).
func textIndex(ix *loadedIndex, text map[*loadedIndex]int, texts *[]string) int {
	if ix == nil {
		return 0
	}
	if n, ok := text[ix]; ok {
		return n
	}
	*texts = append(*texts, ix.text)
	text[ix] = len(*texts)
	return len(*texts)
}
