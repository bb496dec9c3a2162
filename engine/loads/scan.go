package loads

import (
	"hash/maphash"
	"io/fs"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/model"
)

// Event is one load a transcript records: a process start's instructions
// (every file then loaded) or a file joining mid-session.
type Event struct {
	Session    string    `json:"session"`
	Transcript string    `json:"transcript"`
	Line       int       `json:"line"`
	UUID       string    `json:"uuid"`
	Time       time.Time `json:"time"`
	// MidSession marks a nested_memory attachment.
	MidSession bool        `json:"midSession,omitempty"`
	Files      []EventFile `json:"files"`
}

// EventFile is one file of an event, as recorded.
type EventFile struct {
	// Path is the path the client wrote (on the machine that ran it).
	Path string `json:"path"`
	// Label is the client's word for whose file it is: User, Project,
	// Local, Managed, AutoMem, TeamMem, …
	Label string   `json:"label"`
	Globs []string `json:"globs,omitempty"`
	Bytes int      `json:"bytes"`
	// ReplacesPath is the main-checkout file a worktree copy replaced
	// (nested_memory.replacesPath, 2.1.332).
	ReplacesPath string `json:"replacesPath,omitempty"`
	// index is the entries of a loaded MEMORY.md, shared by the events
	// that loaded the same text.
	index *loadedIndex
}

// loadedIndex is a MEMORY.md text as the client sent it, reduced to its
// index entries.
type loadedIndex struct {
	text    string
	entries []*model.IndexEntry
}

// Cache keeps each transcript's events by path, size and modification
// time, so a reload reads only the transcripts that changed. It is safe
// for concurrent use; the zero value is not: use NewCache.
type Cache struct {
	mu    sync.Mutex
	files map[string]cached
	// reading are the transcripts being read now: a build asking for one
	// meanwhile (the Overview's lint beside the project feed's loads)
	// waits for that read instead of reading it too.
	reading map[string]chan struct{}
	// waits, when set (a test's), is told the transcript a build is
	// about to wait for another build's read of.
	waits   func(path string)
	indexes map[uint64]*loadedIndex
	seed    maphash.Seed
	// disk is where the cache is kept across runs (NewCacheOn; nil:
	// nowhere), in the file diskName; onDisk are the entries it held not
	// yet used (loaded once, diskOnce), texts its MEMORY.md texts; dirty
	// says a transcript was read since (Save writes).
	disk     *diskcache.Store
	diskName string
	diskOnce sync.Once
	onDisk   map[string]diskFile
	texts    []*loadedIndex
	dirty    bool
	// clock is the time a read is stamped at (stampBefore).
	clock func() time.Time
	// due says the app's shared pass is about to claim the project's
	// transcripts (Feed): a read waits for its claims first.
	due homepass.Due
}

type cached struct {
	size   int64
	mod    time.Time
	events []Event
	probs  []model.Problem
	// err is why the transcript could not be read (kept, so a build from
	// the cache says what a read would).
	err error
	// stamp is the file's, taken before it was read and still its own
	// after (zero: not kept on disk).
	stamp model.FileStamp
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{files: map[string]cached{}, reading: map[string]chan struct{}{}, indexes: map[uint64]*loadedIndex{}, seed: maphash.MakeSeed()}
}

// events returns tf's events, from the cache when tf has not changed
// (or, cachedOnly, whatever the cache holds for it); fresh is false when
// those are not what a read of tf now gives (cachedOnly, and tf is not
// in the cache or changed since).
func (c *Cache) events(home fs.FS, tf model.TranscriptFile, cachedOnly bool) (evs []Event, probs []model.Problem, fresh bool, err error) {
	if !c.restore(home, tf) && !cachedOnly {
		// Not on disk: the shared pass may be about to read it.
		c.due.Wait()
	}
	c.mu.Lock()
	for {
		hit, ok := c.files[tf.Path]
		same := ok && hit.size == tf.Size && hit.mod.Equal(tf.ModTime)
		if same || ok && cachedOnly {
			c.mu.Unlock()
			return hit.events, hit.probs, same, hit.err
		}
		if cachedOnly {
			c.mu.Unlock()
			return nil, nil, false, nil
		}
		wait, busy := c.reading[tf.Path]
		if !busy {
			break
		}
		// Another build reads it now: its answer is this one's when it
		// read the same version (else this reads it after).
		c.mu.Unlock()
		if c.waits != nil {
			c.waits(tf.Path)
		}
		<-wait
		c.mu.Lock()
	}
	done := make(chan struct{})
	c.reading[tf.Path] = done
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.reading, tf.Path)
		c.mu.Unlock()
		close(done)
	}()
	var st model.FileStamp
	stamp, keep := model.FileStamp{}, false
	if c.disk != nil {
		stamp, keep = stampBefore(home, tf, c.clock())
	}
	loads, err := model.ReadLoads(home, tf.Path)
	if err != nil {
		c.mu.Lock()
		c.files[tf.Path] = cached{size: tf.Size, mod: tf.ModTime, err: err}
		c.mu.Unlock()
		return nil, nil, true, err
	}
	evs = c.eventsOf(tf, loads.Records)
	if keep && model.Unchanged(home, tf.Path, stamp) {
		st = stamp
	}
	c.mu.Lock()
	c.files[tf.Path] = cached{size: tf.Size, mod: tf.ModTime, events: evs, probs: loads.Problems, stamp: st}
	c.dirty = c.dirty || st.Known()
	c.mu.Unlock()
	return evs, loads.Problems, true, nil
}

// eventsOf are the events of transcript tf's load records.
func (c *Cache) eventsOf(tf model.TranscriptFile, records []*model.Record) []Event {
	var evs []Event
	for _, r := range records {
		ev := Event{Session: r.SessionID, Transcript: tf.Path, Line: r.Line, UUID: r.UUID, Time: r.Timestamp,
			MidSession: r.AttachmentType == model.AttachmentNestedMemory}
		if ev.Session == "" {
			ev.Session = tf.SessionID
		}
		for _, f := range r.AttachmentFiles {
			ef := EventFile{Path: f.Path, Label: f.Type, Globs: f.Globs, Bytes: f.Bytes, ReplacesPath: f.ReplacesPath}
			if f.IsMemory() {
				ef.index = c.index(f.Text)
			}
			ev.Files = append(ev.Files, ef)
		}
		evs = append(evs, ev)
	}
	return evs
}

// index parses a loaded MEMORY.md text once per distinct text.
func (c *Cache) index(text string) *loadedIndex {
	h := maphash.String(c.seed, text)
	c.mu.Lock()
	defer c.mu.Unlock()
	if ix, ok := c.indexes[h]; ok {
		return ix
	}
	ix := &loadedIndex{text: text}
	for _, l := range model.ParseMemoryIndex([]byte(text)).Lines {
		if l.Entry != nil {
			ix.entries = append(ix.entries, l.Entry)
		}
	}
	c.indexes[h] = ix
	return ix
}
