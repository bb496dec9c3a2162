package provenance

import (
	"io/fs"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// cacheKind names and versions the first passes kept across runs (the
// one engine/diskcache store, beside stat's): bump it when what an entry
// holds changes meaning.
const cacheKind = "provenance.1"

// disk is where a FirstCache keeps its entries across runs.
type disk struct {
	store *diskcache.Store
	name  string
	once  sync.Once
	// loaded are the entries read at the first scan, by path, each used
	// only once the file's stamp is found Equal to its own (stat's rule).
	loaded map[string]savedFirst
	// seen are the transcripts of the last scan: Save keeps only them.
	seen  map[string]bool
	dirty bool
	save  sync.Mutex
}

// NewFirstCacheOn is NewFirstCache kept in store (nil: in memory only)
// for the Claude home at homeDir: the first scan reads what an earlier
// run saved, and every scan that read a transcript saves. An entry from
// disk is used only for the very file it came from (model.FileStamp,
// head hash included, the rule stat's cache follows), so the app's start
// and `memscope review`/`origin` read only transcripts that changed
// since any of them last ran. Nothing is read here: the store is opened
// by the first scan, off the caller's goroutine.
func NewFirstCacheOn(store *diskcache.Store, homeDir string) *FirstCache {
	c := NewFirstCache()
	if store != nil {
		c.disk = &disk{store: store, name: diskcache.Name(cacheKind, homeDir)}
	}
	return c
}

// load reads the saved entries once.
func (c *FirstCache) load() {
	if c == nil || c.disk == nil {
		return
	}
	c.disk.once.Do(func() {
		saved, _ := diskcache.Load[map[string]savedFirst](c.disk.store, cacheKind, c.disk.name)
		c.mu.Lock()
		c.disk.loaded = saved
		c.mu.Unlock()
	})
}

// stamped is t's stamp when the cache keeps entries on disk (taken
// before t is read), ok false otherwise or when t cannot be stamped: its
// entry then stays in memory only.
func (c *FirstCache) stamped(home fs.FS, t model.TranscriptFile) (model.FileStamp, bool) {
	if c == nil || c.disk == nil {
		return model.FileStamp{}, false
	}
	st, err := model.StampFile(home, t.Path)
	return st, err == nil && st.Size == t.Size
}

// fromDisk installs t's saved entry when the file is still the one it
// was read from; ok is false when there is none. A stamp it took (stamped
// true) is t's, taken before any read: a miss reuses it rather than
// stamping the file again.
func (c *FirstCache) fromDisk(home fs.FS, t model.TranscriptFile) (e cachedFirst, ok bool, st model.FileStamp, stamped bool) {
	if c.disk == nil {
		return cachedFirst{}, false, st, false
	}
	c.mu.Lock()
	s, ok := c.disk.loaded[t.Path]
	c.mu.Unlock()
	if !ok {
		return cachedFirst{}, false, st, false
	}
	st, err := model.StampFile(home, t.Path)
	c.mu.Lock()
	// Used once or never: a file changed since is read again, and its
	// new entry replaces this one.
	delete(c.disk.loaded, t.Path)
	c.mu.Unlock()
	stamped = err == nil && st.Size == t.Size
	if !stamped || !st.Equal(s.Stamp) {
		return cachedFirst{}, false, st, stamped
	}
	e = s.entry(t)
	c.mu.Lock()
	if old, ok := c.m[t.Path]; !ok || old.size != t.Size || !old.mod.Equal(t.ModTime) {
		c.m[t.Path] = e
	}
	c.mu.Unlock()
	return e, true, st, stamped
}

// scanned notes the transcripts of a scan (what Save keeps).
func (c *FirstCache) scanned(files []model.TranscriptFile) {
	if c == nil || c.disk == nil {
		return
	}
	seen := make(map[string]bool, len(files))
	for _, t := range files {
		seen[t.Path] = true
	}
	c.mu.Lock()
	c.disk.seen = seen
	c.mu.Unlock()
}

// markDirty says an entry kept on disk changed.
func (c *FirstCache) markDirty() {
	if c.disk != nil {
		c.disk.dirty = true // under c.mu
	}
}

// Save writes the entries of the last scan's transcripts to the store,
// when one changed since the last save. Scan calls it; an error (the
// cache folder is not writable) costs only the next run's time.
func (c *FirstCache) Save() error {
	if c == nil || c.disk == nil {
		return nil
	}
	c.disk.save.Lock()
	defer c.disk.save.Unlock()
	c.mu.Lock()
	if !c.disk.dirty {
		c.mu.Unlock()
		return nil
	}
	out := make(map[string]savedFirst, len(c.m))
	for p, e := range c.m {
		if c.disk.seen[p] && e.stamp.Size == e.size && (e.stamp.HeadLen > 0 || e.stamp.Size == 0) {
			out[p] = saveEntry(e)
		}
	}
	c.disk.dirty = false
	c.mu.Unlock()
	return diskcache.Save(c.disk.store, cacheKind, c.disk.name, out)
}

// savedFirst is a cachedFirst as the cache file holds it (gob: exported
// fields).
type savedFirst struct {
	Stamp   model.FileStamp
	Folders []savedFolder
	Calls   []savedCall
	Spawns  map[string]string
	Bytes   int64
	// Links are the second pass's answers; nil before one.
	Links map[string]savedLink
}

type savedFolder struct {
	Kind        Kind
	Dir, Suffix string
}

type savedCall struct {
	ID, Name, Path string
	In             []savedMatch
	Line, Bytes    int
	Body           *[32]byte
	Text           []byte
}

type savedMatch struct {
	Folder int
	Rel    string
}

type savedLink struct {
	UUID, Session, Agent string
	Line                 int
	Time                 time.Time
	Sidechain, Found     bool
	Outcome              Outcome
	ResultText           string
	ResultTime           time.Time
	Answered             bool
	Prompt               *Prompt
	Task                 string
}

func saveEntry(e cachedFirst) savedFirst {
	s := savedFirst{Stamp: e.stamp, Spawns: e.pass.spawns, Bytes: e.pass.bytes}
	for _, f := range e.folders {
		s.Folders = append(s.Folders, savedFolder{Kind: f.Kind, Dir: f.Dir, Suffix: f.Suffix})
	}
	for _, c := range e.pass.calls {
		sc := savedCall{ID: c.id, Name: c.name, Path: c.path, Line: c.line, Bytes: c.bytes, Body: c.probe.body, Text: c.probe.text}
		for _, m := range c.in {
			sc.In = append(sc.In, savedMatch{Folder: m.folder, Rel: m.rel})
		}
		s.Calls = append(s.Calls, sc)
	}
	if e.links != nil {
		s.Links = make(map[string]savedLink, len(e.links))
		for id, l := range e.links {
			s.Links[id] = savedLink{UUID: l.use.uuid, Session: l.use.session, Agent: l.use.agent, Line: l.use.line, Time: l.use.time,
				Sidechain: l.use.sidechain, Found: l.found, Outcome: l.result.outcome, ResultText: l.result.text, ResultTime: l.result.time,
				Answered: l.answered, Prompt: l.prompt, Task: l.task}
		}
	}
	return s
}

// entry is s as the in-memory entry of t (whose stamp is s's).
func (s savedFirst) entry(t model.TranscriptFile) cachedFirst {
	e := cachedFirst{size: t.Size, mod: t.ModTime, stamp: s.Stamp, pass: firstPass{spawns: s.Spawns, bytes: s.Bytes}}
	for _, f := range s.Folders {
		e.folders = append(e.folders, Folder{Kind: f.Kind, Dir: f.Dir, Suffix: f.Suffix})
	}
	for _, sc := range s.Calls {
		c := toolCall{id: sc.ID, name: sc.Name, path: sc.Path, line: sc.Line, bytes: sc.Bytes, probe: probe{body: sc.Body, text: sc.Text}}
		for _, m := range sc.In {
			c.in = append(c.in, folderMatch{folder: m.Folder, rel: m.Rel})
		}
		e.pass.calls = append(e.pass.calls, c)
	}
	if s.Links != nil {
		e.links = make(map[string]link, len(s.Links))
		for id, l := range s.Links {
			e.links[id] = link{use: use{uuid: l.UUID, session: l.Session, agent: l.Agent, line: l.Line, time: l.Time, sidechain: l.Sidechain},
				found: l.Found, result: result{outcome: l.Outcome, text: l.ResultText, time: l.ResultTime}, answered: l.Answered,
				prompt: l.Prompt, task: l.Task}
		}
	}
	return e
}
