package live

import (
	"cmp"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// DefaultBlockLookback is how far back written transcripts feed the
// 5-hour block. A block chain only reaches further back when usage never
// paused for five hours in that time.
const DefaultBlockLookback = 24 * time.Hour

// Options configure a Tracker.
type Options struct {
	// Home is the Claude home.
	Home *model.Home
	// Root is an fs.FS rooted at "/" (model.RootName) through which
	// memory folders are read; nil follows no memory folder.
	Root fs.FS
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Alive reports whether a process exists (nil: model.ProcessAlive).
	Alive func(pid int) bool
	// Recent is the -p window (default DefaultRecent).
	Recent time.Duration
	// BlockLookback is how far back the 5-hour block looks (default
	// DefaultBlockLookback).
	BlockLookback time.Duration
	// Cache, when set, keeps what the tracker read of the transcripts it
	// follows for the 5-hour block only across runs (UsageKind): a start
	// reads none of them that is unchanged. nil: none.
	Cache *diskcache.Store
	// Session configures each session's state. When its MemoryDir is nil
	// and Root is set, the client's rules find the memory folder
	// (MemoryDirResolver with Session.Getenv); when its Autocompact is nil
	// and Root is set, the settings files say whether autocompact is on
	// (AutocompactResolver).
	Session SessionOptions
}

// Snapshot is what is happening in a home at one moment: what the Live
// view shows and what Diff compares.
type Snapshot struct {
	Time time.Time `json:"time"`
	// Running are the sessions running now (FindRunning); Stale the
	// process files left by processes that are gone.
	Running []Running           `json:"running"`
	Stale   []model.LiveSession `json:"stale"`
	// Sessions are the statuses of the running sessions that have a
	// transcript, in Running's order.
	Sessions []SessionStatus `json:"sessions"`
	// Block is the current 5-hour usage block; nil when none is active.
	Block *Block `json:"block,omitempty"`
	// Memory are the memory folders of the running sessions, by folder.
	Memory []MemoryState `json:"memory"`
	// Pastes is the status of each paste history refers to, for the
	// paste-missing event. The Tracker does not fill it (the paste
	// inventory has its own cache): set it with PasteStates; nil means
	// pastes are not watched.
	Pastes map[model.PasteHash]model.PasteStatus `json:"pastes,omitempty"`
	// Read is the bytes read from transcripts to make this snapshot.
	Read     int64           `json:"read"`
	Problems []model.Problem `json:"problems,omitempty"`
	// Behind are the transcripts not read to their end yet (each
	// snapshot after the first reads at most a window of a file): take
	// another snapshot soon to read on.
	Behind []string `json:"behind,omitempty"`
}

// Session returns the status of the session with id, if it is running.
func (s Snapshot) Session(id string) (SessionStatus, bool) {
	i := slices.IndexFunc(s.Sessions, func(st SessionStatus) bool { return st.SessionID == id })
	if i < 0 {
		return SessionStatus{}, false
	}
	return s.Sessions[i], true
}

// PasteStates is the status of every paste an inventory resolved.
func PasteStates(inv *model.PasteInventory) map[model.PasteHash]model.PasteStatus {
	out := make(map[model.PasteHash]model.PasteStatus, len(inv.Resolutions))
	for _, r := range inv.Resolutions {
		out[r.Hash] = r.Status
	}
	return out
}

// followed is one transcript being read incrementally.
type followed struct {
	file model.TranscriptFile
	tail model.TailState
	// sess is the state of a main transcript; nil for a subagent's,
	// whose own state is agent.
	sess  *Session
	agent *agentState
	usage []UsageEntry
	// first is the earliest timestamp read, which orders files for the
	// block's deduplication as ccusage orders them.
	first time.Time
	// usageOnly says the follower was started from the on-disk cache
	// (Options.Cache), for the block only (no session of the file's was
	// running): sess and agent are nil, and its lines are decoded for
	// their usage alone. kept is the file's entry for the cache (nil:
	// none to keep: last read while its session could run, or not
	// settled).
	usageOnly bool
	kept      *usageEntry
	// probs are the problems the reads since the file's start found,
	// kept with its entry (with a cache only): a start that takes the
	// entry reports them as a read of the whole file would.
	probs []model.Problem
}

// Tracker follows a home: the running sessions' transcripts (and every
// transcript written within the block lookback, for the 5-hour block) are
// read incrementally, each byte once. It is safe for one goroutine at a
// time; calls are serialised.
type Tracker struct {
	mu sync.Mutex
	o  Options
	// list is the home's transcripts by path; at indexes it.
	list   []model.TranscriptFile
	at     map[string]int
	files  map[string]*followed
	memory map[string]MemoryState
	// caughtUp is set after the first snapshot, which reads every file
	// whole; later ones read at most model.TailWindow of each file, so
	// one that grew by gigabytes does not hold back the others.
	caughtUp bool
	// disk are the cache's entries not yet taken by a follower (loaded
	// at the first snapshot); diskDirty says a follower's entry changed
	// since the cache was written. wall is the machine's clock, for the
	// settle rule (time.Now; tests set it).
	disk      map[string]usageEntry
	diskDirty bool
	wall      func() time.Time
}

// NewTracker returns a tracker of o.Home. Nothing is read until Refresh.
func NewTracker(o Options) *Tracker {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.BlockLookback <= 0 {
		o.BlockLookback = DefaultBlockLookback
	}
	if o.Session.MemoryDir == nil && o.Root != nil {
		o.Session.MemoryDir = MemoryDirResolver(o.Root, o.Home.Dir, "", o.Session.Getenv)
	}
	if o.Session.Autocompact == nil && o.Root != nil {
		o.Session.Autocompact = AutocompactResolver(o.Root, o.Home.Dir)
	}
	if o.Session.Settings == nil && o.Root != nil {
		o.Session.Settings = SettingsResolver(o.Root, o.Home.Dir)
	}
	return &Tracker{o: o, at: map[string]int{}, files: map[string]*followed{}, memory: map[string]MemoryState{}, wall: time.Now}
}

// Refresh lists the home's transcripts again, reads what was appended to
// the ones it follows, and returns the snapshot. The listing walks every
// project folder: call it at start and now and then; after a file event,
// Update is cheaper.
func (t *Tracker) Refresh() Snapshot { return t.RefreshFrom(t.o.Home.FS) }

// RefreshFrom is Refresh with the transcripts listed from fsys: the
// tracker's home listed once (model.ListOnce of its FS) whose walk other
// readers of the same moment share, so the app's start walks the
// session folders once between the Live pane and the Overview's lines
// (issue 28). What is appended is read from the home as it is now, and
// later calls list the home again.
func (t *Tracker) RefreshFrom(fsys fs.FS) Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	sf, probs := model.FindSessionFiles(fsys)
	t.setList(sf.Transcripts)
	snap := t.snapshot()
	snap.Problems = append(probs, snap.Problems...)
	return snap
}

// Update reads what changed at the given home paths (slash-separated,
// relative to the home, as a file watcher reports them): a transcript is
// read from where it stopped (and followed from now on if it is new);
// the process files and the memory folders followed are always looked
// at again, since they are small. It returns the snapshot.
func (t *Tracker) Update(paths ...string) Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	var probs []model.Problem
	changed := false // a transcript came or went: the list is redone
	for _, p := range paths {
		f, ok := transcriptAt(p)
		if !ok {
			continue
		}
		i, known := t.at[p]
		info, err := fs.Stat(t.o.Home.FS, p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if known {
				t.list[i].Path, changed = "", true
			}
			continue
		case err != nil:
			probs = append(probs, model.Problem{File: p, Kind: model.ProblemUnreadable, Reason: err.Error()})
			continue
		}
		f.Size, f.ModTime = info.Size(), info.ModTime()
		if known {
			t.list[i] = f
		} else {
			t.list, changed = append(t.list, f), true
		}
	}
	if changed {
		t.setList(slices.DeleteFunc(t.list, func(f model.TranscriptFile) bool { return f.Path == "" }))
	}
	snap := t.snapshot()
	snap.Problems = append(probs, snap.Problems...)
	return snap
}

// setList makes files (any order) the listing.
func (t *Tracker) setList(files []model.TranscriptFile) {
	slices.SortFunc(files, func(a, b model.TranscriptFile) int { return strings.Compare(a.Path, b.Path) })
	t.list = files
	clear(t.at)
	for i, f := range files {
		t.at[f.Path] = i
	}
}

// transcriptAt tells a transcript's kind and ids from its home path.
func transcriptAt(p string) (model.TranscriptFile, bool) {
	parts := strings.Split(p, "/")
	if parts[0] != "projects" || !strings.HasSuffix(p, ".jsonl") {
		return model.TranscriptFile{}, false
	}
	switch {
	case len(parts) == 3:
		return model.TranscriptFile{Path: p, ProjectSlug: parts[1], SessionID: strings.TrimSuffix(parts[2], ".jsonl"), Kind: model.TranscriptMain}, true
	case len(parts) == 5 && parts[3] == "subagents":
		agent := strings.TrimPrefix(strings.TrimSuffix(parts[4], ".jsonl"), "agent-")
		return model.TranscriptFile{Path: p, ProjectSlug: parts[1], SessionID: parts[2], AgentID: agent, Kind: model.TranscriptSubagent}, true
	}
	return model.TranscriptFile{}, false
}

// snapshot follows what the listing says changed and builds the
// snapshot. t.mu is held.
func (t *Tracker) snapshot() Snapshot {
	now := t.o.Now()
	files := t.list
	if files == nil {
		files = []model.TranscriptFile{} // nil would make FindRunning list the home
	}
	run := FindRunning(RunningOptions{FS: t.o.Home.FS, Now: now, Alive: t.o.Alive, Recent: t.o.Recent, Transcripts: files})
	snap := Snapshot{Time: now, Running: run.Sessions, Stale: run.Stale, Sessions: []SessionStatus{}, Memory: []MemoryState{}, Problems: run.Problems}

	// Follow the running sessions' transcripts and their subagents', and
	// everything written within the lookback (the block needs it).
	cutoff := now.Add(-t.o.BlockLookback)
	running := map[string]bool{}
	for _, r := range run.Sessions {
		if r.Transcript != "" {
			running[r.Transcript] = true
		}
	}
	main := map[string]string{} // "slug/session" → main transcript path
	want := map[string]model.TranscriptFile{}
	for _, f := range files {
		if f.Kind == model.TranscriptSeed {
			continue
		}
		if f.Kind == model.TranscriptMain {
			main[f.ProjectSlug+"/"+f.SessionID] = f.Path
		}
		if running[f.Path] || !f.ModTime.Before(cutoff) {
			want[f.Path] = f
		}
	}
	for _, f := range files {
		if f.Kind == model.TranscriptSubagent && running[main[f.ProjectSlug+"/"+f.SessionID]] {
			want[f.Path] = f
		}
	}
	for p := range t.files {
		if _, ok := want[p]; !ok {
			delete(t.files, p)
		}
	}
	t.loadUsage()
	// Main transcripts first, so subagents find their session.
	order := slices.Collect(maps.Values(want))
	slices.SortFunc(order, func(a, b model.TranscriptFile) int {
		return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), strings.Compare(a.Path, b.Path))
	})
	for _, f := range order {
		var parent *Session
		if f.Kind == model.TranscriptSubagent {
			if m := t.files[main[f.ProjectSlug+"/"+f.SessionID]]; m != nil {
				parent = m.sess
			}
		}
		// A running session's transcripts (and its subagents') are
		// decoded for its status; the others in the lookback feed the
		// block only, and can be kept in the on-disk cache.
		canRun := running[f.Path] || f.Kind == model.TranscriptSubagent && running[main[f.ProjectSlug+"/"+f.SessionID]]
		n, more, probs := t.follow(f, parent, cutoff, canRun)
		snap.Read += n
		snap.Problems = append(snap.Problems, probs...)
		if more {
			snap.Behind = append(snap.Behind, f.Path)
		}
	}
	t.caughtUp = true
	// What the first snapshot did not take is of files no longer in the
	// lookback, or gone.
	t.disk = map[string]usageEntry{}

	// The block, from every followed file's usage, deduplicated in
	// ccusage's file order.
	var fl []*followed
	for _, f := range t.files {
		f.usage = slices.DeleteFunc(f.usage, func(e UsageEntry) bool { return e.Time.Before(cutoff) })
		fl = append(fl, f)
	}
	var all []UsageEntry
	for _, f := range orderForDedupe(fl) {
		all = append(all, f.usage...)
	}
	// all is this call's own: deduplicate and sort it in place.
	all = dedupeInto(all[:0], all)
	slices.SortStableFunc(all, func(a, b UsageEntry) int { return a.Time.Compare(b.Time) })
	if bs := blocksOfSorted(all, now); len(bs) > 0 && bs[len(bs)-1].Active {
		snap.Block = &bs[len(bs)-1]
	}
	t.saveUsage()

	// Statuses and memory folders of the running sessions, with their
	// subagents.
	agents := map[string][]*followed{} // "slug/session" → its subagents
	for _, f := range t.files {
		if f.agent != nil {
			k := f.file.ProjectSlug + "/" + f.file.SessionID
			agents[k] = append(agents[k], f)
		}
	}
	dirs := map[string]bool{}
	for _, r := range run.Sessions {
		f := t.files[r.Transcript]
		if f == nil || f.sess == nil {
			if r.CWD != "" && t.o.Session.MemoryDir != nil {
				if d := t.o.Session.MemoryDir(r.CWD); d != "" {
					dirs[d] = true
				}
			}
			continue
		}
		if t.o.Root != nil {
			// The client's own environment where its process shows it;
			// else the limits assume the settings files only.
			getenv, from, _ := model.ReadProcEnviron(t.o.Root, r.PID)
			f.sess.SetEnv(getenv, from)
		}
		st := f.sess.Status(now)
		for _, a := range agents[f.file.ProjectSlug+"/"+f.file.SessionID] {
			a.agent.readMeta(t.o.Home.FS, a.file.Path)
			st.Subagents = append(st.Subagents, a.agent.status(a.file, now))
		}
		sortSubagents(st.Subagents)
		snap.Sessions = append(snap.Sessions, st)
		if st.MemoryDir != "" {
			dirs[st.MemoryDir] = true
		}
	}
	if t.o.Root != nil {
		for d := range t.memory {
			if !dirs[d] {
				delete(t.memory, d)
			}
		}
		for _, d := range slices.Sorted(maps.Keys(dirs)) {
			ms, probs := ReadMemoryState(t.o.Root, d, t.memory[d])
			t.memory[d] = ms
			snap.Memory = append(snap.Memory, ms)
			snap.Problems = append(snap.Problems, probs...)
		}
	}
	return snap
}

// orderForDedupe sorts files as ccusage reads them, which decides the
// file a copied response counts in: by earliest timestamp, files without
// one last, then by path.
func orderForDedupe(fl []*followed) []*followed {
	slices.SortFunc(fl, func(a, b *followed) int {
		if a.first.IsZero() != b.first.IsZero() {
			if a.first.IsZero() {
				return 1
			}
			return -1
		}
		return cmp.Or(a.first.Compare(b.first), strings.Compare(a.file.Path, b.file.Path))
	})
	return fl
}

func kindRank(k model.TranscriptKind) int {
	if k == model.TranscriptMain {
		return 0
	}
	return 1
}

// follow reads what was appended to f, and all of it again when the file
// was replaced: all of it on the first snapshot, a window after. It
// returns the bytes read and whether there is more to read.
func (t *Tracker) follow(f model.TranscriptFile, parent *Session, cutoff time.Time, canRun bool) (read int64, more bool, probs []model.Problem) {
	fw := t.files[f.Path]
	if fw != nil && fw.usageOnly && canRun {
		// Started from the cache, and now a session of the file's runs:
		// its state needs the whole file.
		fw = nil
	}
	if fw == nil && !canRun {
		if fw = t.seed(f); fw != nil {
			probs = slices.Clone(fw.probs)
		}
	}
	if fw == nil {
		fw = &followed{}
		if f.Kind == model.TranscriptMain {
			fw.sess = NewSession(f.Path, t.o.Session)
		} else {
			fw.agent = &agentState{}
		}
	}
	t.files[f.Path] = fw
	fw.file = f
	// The listing says nothing changed since the last read.
	if fw.tail != (model.TailState{}) && fw.tail.Offset+fw.tail.Skip == f.Size && fw.tail.Size == f.Size && fw.tail.ModTime.Equal(f.ModTime) {
		return 0, false, probs
	}
	var window int64
	if t.caughtUp {
		window = model.TailWindow
	}
	fw.kept = nil
	var st model.FileStamp
	keepable := false
	if !canRun {
		st, keepable = t.stampBefore(f)
	}
	for attempt := 0; attempt < 2; attempt++ {
		res, err := model.TailTranscriptWithin(t.o.Home.FS, f.Path, fw.tail, window, ScanOptions, func(rec *model.Record, line []byte) error {
			switch {
			case fw.sess != nil:
				fw.sess.Add(rec, line)
			case fw.agent != nil:
				fw.agent.add(rec)
				if parent != nil {
					parent.AddUsage(rec)
				}
			}
			if e, ok := UsageOf(rec); ok && !e.Time.Before(cutoff) {
				fw.usage = append(fw.usage, e)
			}
			if !rec.Timestamp.IsZero() && (fw.first.IsZero() || rec.Timestamp.Before(fw.first)) {
				fw.first = rec.Timestamp
			}
			return nil
		})
		read += res.Read
		probs = append(probs, res.Problems...)
		if t.o.Cache != nil {
			fw.probs = append(fw.probs, res.Problems...)
		}
		if err != nil {
			probs = append(probs, model.Problem{File: f.Path, Kind: model.ProblemUnreadable, Reason: err.Error()})
			return read, false, probs
		}
		fw.tail, more = res.State, res.More
		if res.Reset == "" {
			break
		}
		// Replaced, truncated or rewritten: start this file over.
		switch {
		case fw.sess != nil:
			fw.sess.Reset()
		case fw.agent != nil:
			fw.agent = &agentState{}
		}
		fw.usage, fw.first, fw.probs = nil, time.Time{}, nil
	}
	if keepable {
		t.keep(fw, st, more)
	}
	return read, more, probs
}
