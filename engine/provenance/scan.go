package provenance

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Outcome is what became of a write tool call.
type Outcome string

// The outcomes of a write.
const (
	// OutcomeOK: the tool_result came back without is_error.
	OutcomeOK Outcome = "ok"
	// OutcomeError: the tool_result is an error (the file was not
	// written: "File has not been read yet", "String to replace not
	// found", a denied permission…).
	OutcomeError Outcome = "error"
	// OutcomeNoResult: no tool_result on disk (the session was stopped
	// mid-call, or the result line was never written).
	OutcomeNoResult Outcome = "no result"
)

// Agent is the subagent that made a write; nil means the main agent.
type Agent struct {
	ID string `json:"id"`
	// Type and Description come from agent-<id>.meta.json when the client
	// wrote one.
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	// Transcript is the subagent's transcript (home-relative).
	Transcript string `json:"transcript"`
	// Task is the first line of the prompt the main agent gave it.
	Task string `json:"task,omitempty"`
}

// Prompt is the user prompt a write came from: the nearest real prompt
// (extract.PromptText) up the message chain.
type Prompt struct {
	UUID string    `json:"uuid"`
	Line int       `json:"line"`
	Time time.Time `json:"time,omitzero"`
	// Text is the prompt's first line, at most PromptMax characters.
	Text string `json:"text"`
}

// PromptMax bounds Prompt.Text, in characters.
const PromptMax = 200

// Write is one Write, Edit or MultiEdit call on a memory file.
type Write struct {
	// Folder indexes the folders scanned; Kind, Agent (the agent type of
	// agent memory) and Rel say which file; Path is file_path as the
	// tool named it.
	Folder     int    `json:"-"`
	Kind       Kind   `json:"kind"`
	AgentType  string `json:"agentType,omitempty"`
	Rel        string `json:"file"`
	Path       string `json:"filePath"`
	Tool       string `json:"tool"`
	ToolUseID  string `json:"toolUseId"`
	SessionID  string `json:"sessionId"`
	Transcript string `json:"transcript"`
	// MessageUUID and Line are the assistant record holding the call.
	MessageUUID string    `json:"messageUuid"`
	Line        int       `json:"line"`
	Time        time.Time `json:"time,omitzero"`
	// By is the subagent that made the call; nil for the main agent.
	By *Agent `json:"subagent,omitempty"`
	// Turn is where Replay shows the call: the record itself for the
	// main agent, the main agent's call that spawned the subagent for a
	// subagent (zero when it is not on disk).
	Turn TurnRef `json:"turn"`
	// Prompt is the user prompt that led to the call; nil when the chain
	// reaches none (a broken chain, a subagent whose parent session is
	// gone).
	Prompt *Prompt `json:"prompt,omitempty"`
	Result Outcome `json:"result"`
	Error  string  `json:"error,omitempty"`
	// Bytes is the size of the text the call carried: content for Write,
	// new_string (summed over edits) for Edit and MultiEdit.
	Bytes int `json:"bytes"`
	// ResultTime is the tool_result's time (the file was written just
	// before it); zero without a result.
	ResultTime time.Time `json:"resultTime,omitzero"`
	probe      probe
}

// TurnRef names a record of a main transcript, where Replay can step to.
type TurnRef struct {
	Transcript string `json:"transcript,omitempty"`
	UUID       string `json:"uuid,omitempty"`
	Line       int    `json:"line,omitempty"`
}

// OK reports whether the call wrote the file.
func (w *Write) OK() bool { return w.Result == OutcomeOK }

// Report is what Scan found.
type Report struct {
	// Writes are every write to a memory file, oldest first.
	Writes []Write `json:"writes"`
	// Transcripts counts the transcripts scanned; Decoded those whose
	// chain was decoded for their calls; Bytes the transcripts' bytes (a
	// scan through a FirstCache reads again only what changed, but counts
	// the same).
	Transcripts int   `json:"transcripts"`
	Decoded     int   `json:"decoded"`
	Bytes       int64 `json:"bytes"`
	// Problems are transcripts that could not be read, and lines that
	// could not be decoded.
	Problems []model.Problem `json:"problems,omitempty"`
}

// Options configure Scan.
type Options struct {
	// Home is the Claude home; Transcripts its transcripts (main and
	// subagent, model.FindTranscripts). Seed-layout transcripts are
	// skipped.
	Home        fs.FS
	Transcripts []model.TranscriptFile
	Folders     []Folder
	// Workers read files in parallel (GOMAXPROCS when 0).
	Workers int
	// Cache keeps first-pass results between scans (nil: none), so a
	// scan after a change reads only the transcripts that changed.
	Cache *FirstCache
}

// FirstCache keeps each transcript's two passes by its version (size and
// mtime): the first pass with the folders it looked for, and what the
// second pass found of the tool_use ids asked of it. The app rescans the
// home after every memory change, and reads again only what was appended
// to or rewritten. Scans for other folders (the Projects list's counts
// over every project, the open project's inbox with its agent memory)
// share an entry: folders it looked for are answered from it, others are
// looked for together with those (up to maxCachedFolders), so the next
// scan of either kind reads nothing. One entry per transcript; safe for
// concurrent use.
type FirstCache struct {
	mu sync.Mutex
	m  map[string]cachedFirst
	// disk keeps the entries across runs (NewFirstCacheOn); nil: none.
	disk *disk
	// busy are the transcripts a scan reads now, each closed when done.
	busy map[string]chan struct{}
	// asking counts, per folder, the scans running now that ask for it:
	// a transcript read for one is read for all of them (the app's start
	// asks the open project's inbox, its Overview line and every
	// project's count at once), so each is read once.
	asking   map[Folder]int
	askOrder []Folder
	// claiming and waits, when set (a test's), are told the key of a read
	// about to be claimed (its entry was not in the cache), and of a read
	// that waits for another's.
	claiming, waits func(key string)
}

// ask notes a scan for folders running until done is called.
func (c *FirstCache) ask(folders []Folder) (done func()) {
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.asking == nil {
		c.asking = map[Folder]int{}
	}
	for _, f := range folders {
		if c.asking[f] == 0 {
			c.askOrder = append(c.askOrder, f)
		}
		c.asking[f]++
	}
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, f := range folders {
			if c.asking[f]--; c.asking[f] <= 0 {
				delete(c.asking, f)
			}
		}
		c.askOrder = slices.DeleteFunc(c.askOrder, func(f Folder) bool { return c.asking[f] == 0 })
	}
}

// lookFor is what a read of t asked for folders looks for: those, the
// folders t's entry looked for before (the other kind of scan comes
// back), and those of the other scans running; folders alone when that
// passes maxCachedFolders. Under c.mu.
func (c *FirstCache) lookFor(t model.TranscriptFile, folders []Folder) []Folder {
	look := folders
	if old, ok := c.m[t.Path]; ok {
		look = union(old.folders, look)
	}
	look = union(look, c.askOrder)
	if len(look) > maxCachedFolders {
		return folders
	}
	return look
}

// maxCachedFolders bounds the folders an entry looks for: past it, a
// transcript is read again for the folders asked only.
const maxCachedFolders = 64

type cachedFirst struct {
	size int64
	mod  time.Time
	// stamp is the file's, taken before it was read, when the entry may
	// be kept on disk (zero otherwise).
	stamp   model.FileStamp
	folders []Folder
	pass    firstPass
	// links are the second pass's answers, by every id asked (found or
	// not); nil before one.
	links map[string]link
}

// NewFirstCache returns an empty cache.
func NewFirstCache() *FirstCache { return &FirstCache{m: map[string]cachedFirst{}} }

// get returns t's entry when it is of t's version.
func (c *FirstCache) get(t model.TranscriptFile) (cachedFirst, bool) {
	c.mu.Lock()
	e, ok := c.m[t.Path]
	c.mu.Unlock()
	return e, ok && e.size == t.Size && e.mod.Equal(t.ModTime)
}

// first is t's first pass for folders, through the cache (c may be nil).
// One scan of a transcript runs at a time: a scan that finds another
// reading the same file waits for it and takes its entry when it covers
// the folders asked (the app's start asks the same file for the open
// project's inbox, its Overview line and every project's count at once).
func (c *FirstCache) first(home fs.FS, t model.TranscriptFile, folders []Folder) firstPass {
	if c == nil || t.ModTime.IsZero() {
		return scanFirst(home, t, folders).place(folders, folders)
	}
	for {
		var st model.FileStamp
		stamped := false
		e, same := c.get(t)
		if !same {
			e, same, st, stamped = c.fromDisk(home, t)
		}
		if same && covers(e.folders, folders) {
			return e.pass.place(e.folders, folders)
		}
		release, ok := c.claim(t.Path)
		if !ok {
			continue
		}
		// Another read of t may have ended between the look above and
		// the claim: its entry answers.
		if e, same := c.get(t); same && covers(e.folders, folders) {
			release()
			return e.pass.place(e.folders, folders)
		}
		c.mu.Lock()
		look := c.lookFor(t, folders)
		c.mu.Unlock()
		defer release()
		return c.scanFirst(home, t, look, folders, st, stamped)
	}
}

// claim marks key (a transcript's read) as running and returns what ends
// it; when another read of key runs, it waits for it to end and returns
// ok false: the caller looks in the cache again.
func (c *FirstCache) claim(key string) (release func(), ok bool) {
	if c.claiming != nil {
		c.claiming(key)
	}
	c.mu.Lock()
	if wait, busy := c.busy[key]; busy {
		c.mu.Unlock()
		if c.waits != nil {
			c.waits(key)
		}
		<-wait
		return nil, false
	}
	done := make(chan struct{})
	if c.busy == nil {
		c.busy = map[string]chan struct{}{}
	}
	c.busy[key] = done
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.busy, key)
		close(done)
		c.mu.Unlock()
	}, true
}

// scanFirst reads t's first pass for look (folders, the ones asked, and
// those asked before) and keeps it; st is t's stamp when stamped.
func (c *FirstCache) scanFirst(home fs.FS, t model.TranscriptFile, look, folders []Folder, st model.FileStamp, stamped bool) firstPass {
	if len(look) > maxCachedFolders {
		look = folders
	}
	if !stamped {
		st, stamped = c.stamped(home, t)
	}
	p := scanFirst(home, t, look)
	if p.err == nil {
		if !stamped || !model.Unchanged(home, t.Path, st) {
			// Written while it was read: kept for this run only.
			st = model.FileStamp{}
		}
		c.mu.Lock()
		c.m[t.Path] = cachedFirst{size: t.Size, mod: t.ModTime, stamp: st, folders: look, pass: p}
		c.markDirty()
		c.mu.Unlock()
	}
	return p.place(look, folders)
}

// links is t's second pass for the ids wanted, through the cache (c may
// be nil): read again only when t changed or an id was not asked yet.
func (c *FirstCache) links(home fs.FS, t model.TranscriptFile, wanted map[string]bool) (map[string]link, []model.Problem) {
	if c == nil || t.ModTime.IsZero() {
		return readLinks(home, t, wanted)
	}
	var e cachedFirst
	var same bool
	for {
		e, same = c.get(t)
		if !same {
			e, same, _, _ = c.fromDisk(home, t)
		}
		if same && e.links != nil && hasAll(e.links, wanted) {
			return e.links, nil
		}
		// One read of a transcript at a time (see first).
		release, ok := c.claim("links\x00" + t.Path)
		if ok {
			defer release()
			// As in first: a read that ended since the look answers.
			e, same = c.get(t)
			if same && e.links != nil && hasAll(e.links, wanted) {
				return e.links, nil
			}
			break
		}
	}
	ask := maps.Clone(wanted)
	if same {
		for id := range e.links {
			ask[id] = true
		}
	}
	ls, probs := readLinks(home, t, ask)
	if ls == nil || len(probs) > 0 {
		return ls, probs
	}
	c.mu.Lock()
	if e, ok := c.m[t.Path]; ok && e.size == t.Size && e.mod.Equal(t.ModTime) {
		e.links = ls
		c.m[t.Path] = e
		c.markDirty()
	}
	c.mu.Unlock()
	return ls, nil
}

func hasAll(ls map[string]link, wanted map[string]bool) bool {
	for id := range wanted {
		if _, ok := ls[id]; !ok {
			return false
		}
	}
	return true
}

// covers reports whether every folder of want is in have.
func covers(have, want []Folder) bool {
	for _, f := range want {
		if !slices.Contains(have, f) {
			return false
		}
	}
	return true
}

// union is a then the folders of b it lacks.
func union(a, b []Folder) []Folder {
	out := slices.Clone(a)
	for _, f := range b {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// folderMatch is a folder (by index) holding a call's file, and the
// file's path inside it.
type folderMatch struct {
	folder int
	rel    string
}

// toolCall is a write call found by the first pass.
type toolCall struct {
	id, name, path string
	// folder and rel place the call in the folders a scan asked for
	// (place); in lists every folder looked for that holds the file.
	folder int
	rel    string
	in     []folderMatch
	line   int
	bytes  int
	probe  probe
}

// firstPass is what one byte-first read of a transcript found.
type firstPass struct {
	calls []toolCall
	// spawns maps a subagent id to the tool_use id of the call that
	// started it, from Task results (toolUseResult.agentId): the link
	// when the subagent has no meta file.
	spawns map[string]string
	bytes  int64
	err    error
}

// place is p, read for the folders looked, for the folders asked (a
// subset): each call in the first asked folder holding its file, calls
// in none of them left out.
func (p firstPass) place(looked, asked []Folder) firstPass {
	idx := make([]int, len(asked))
	for j, f := range asked {
		idx[j] = slices.Index(looked, f)
	}
	out := p
	out.calls = nil
	for _, c := range p.calls {
	placed:
		for j, li := range idx {
			for _, m := range c.in {
				if m.folder == li {
					c.folder, c.rel = j, m.rel
					out.calls = append(out.calls, c)
					break placed
				}
			}
		}
	}
	return out
}

// Scan finds every write to a memory file of o.Folders in o.Transcripts.
func Scan(o Options) Report {
	var files []model.TranscriptFile
	for _, t := range o.Transcripts {
		if t.Kind == model.TranscriptMain || t.Kind == model.TranscriptSubagent {
			files = append(files, t)
		}
	}
	r := Report{Writes: []Write{}, Transcripts: len(files)}
	if len(o.Folders) == 0 || len(files) == 0 {
		return r
	}
	o.Cache.load()
	o.Cache.scanned(files)
	defer o.Cache.ask(o.Folders)()
	// A cache not written costs the next run its time only.
	defer func() { _ = o.Cache.Save() }()
	passes := make([]firstPass, len(files))
	// Smallest first: the app's shared pass (engine/homepass) reads the
	// biggest first and claims, when it starts, every file no scan reads
	// at that moment; a scan that began before it (the Projects list's
	// counts, the review inbox) then holds its smallest files, which the
	// pass reads a second time for its other passes, not its biggest (on
	// W the 15 biggest transcripts, 70 MB, were read twice).
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(files[a].Size, files[b].Size) })
	model.ParallelN(len(files), o.Workers, func(k int) {
		i := order[k]
		passes[i] = o.Cache.first(o.Home, files[i], o.Folders)
	})
	// The second pass: transcripts with calls, and the main transcript of
	// every session a subagent with calls belongs to.
	mains := map[string]int{} // session → index of its main transcript
	for i, t := range files {
		r.Bytes += passes[i].bytes
		if passes[i].err != nil {
			r.Problems = append(r.Problems, model.Problem{File: t.Path, Kind: model.ProblemUnreadable, Reason: passes[i].err.Error()})
		}
		if t.Kind == model.TranscriptMain {
			mains[t.ProjectSlug+"/"+t.SessionID] = i
		}
	}
	var todo []int
	need := map[int]bool{}
	metas := map[int]model.SubagentMeta{}
	for i, t := range files {
		if len(passes[i].calls) == 0 {
			continue
		}
		need[i] = true
		if t.Kind == model.TranscriptSubagent {
			metas[i] = readMeta(o.Home, t)
			if m, ok := mains[t.ProjectSlug+"/"+t.SessionID]; ok {
				need[m] = true
			}
		}
	}
	for i := range files {
		if need[i] {
			todo = append(todo, i)
		}
	}
	// Which tool_use ids each main transcript must place: its own calls
	// and the calls that spawned its subagents.
	wanted := map[int]map[string]bool{}
	for _, i := range todo {
		w := map[string]bool{}
		for _, c := range passes[i].calls {
			w[c.id] = true
		}
		wanted[i] = w
	}
	for i, m := range metas {
		t := files[i]
		mi, ok := mains[t.ProjectSlug+"/"+t.SessionID]
		if !ok {
			continue
		}
		id := m.ToolUseID
		if id == "" {
			id = passes[mi].spawns[t.AgentID]
		}
		m.ToolUseID = id
		metas[i] = m
		if id != "" {
			wanted[mi][id] = true
		}
	}
	links := make([]map[string]link, len(files))
	var mu sync.Mutex
	model.ParallelN(len(todo), o.Workers, func(k int) {
		i := todo[k]
		ls, probs := o.Cache.links(o.Home, files[i], wanted[i])
		links[i] = ls
		if len(probs) > 0 {
			mu.Lock()
			r.Problems = append(r.Problems, probs...)
			mu.Unlock()
		}
	})
	r.Decoded = len(todo)
	for _, i := range todo {
		t, ls := files[i], links[i]
		if ls == nil || len(passes[i].calls) == 0 {
			continue
		}
		var agent *Agent
		var main map[string]link
		mainPath := t.Path
		if t.Kind == model.TranscriptSubagent {
			m := metas[i]
			agent = &Agent{ID: t.AgentID, Type: m.AgentType, Description: m.Description, Transcript: t.Path}
			if mi, ok := mains[t.ProjectSlug+"/"+t.SessionID]; ok {
				main, mainPath = links[mi], files[mi].Path
			}
		}
		for _, call := range passes[i].calls {
			w := Write{Folder: call.folder, Kind: o.Folders[call.folder].Kind, AgentType: o.Folders[call.folder].Agent(call.rel),
				Rel: call.rel, Path: call.path, Tool: call.name, ToolUseID: call.id, SessionID: t.SessionID,
				Transcript: t.Path, Line: call.line, Bytes: call.bytes, Result: OutcomeNoResult}
			l := ls[call.id]
			if l.found {
				w.MessageUUID, w.Time = l.use.uuid, l.use.time
				if l.use.session != "" {
					w.SessionID = l.use.session
				}
			}
			if l.answered {
				w.Result, w.Error, w.ResultTime = l.result.outcome, l.result.text, l.result.time
			}
			w.probe = call.probe
			switch {
			case agent == nil && l.use.sidechain:
				// A subagent's turn kept in the main transcript (older
				// clients): its chain ends at its task, not at a prompt.
				w.By = &Agent{ID: l.use.agent, Transcript: t.Path, Task: l.task}
				w.Turn = TurnRef{Transcript: t.Path, UUID: w.MessageUUID, Line: call.line}
			case agent == nil:
				w.Turn = TurnRef{Transcript: t.Path, UUID: w.MessageUUID, Line: call.line}
				w.Prompt = l.promptCopy()
			default:
				a := *agent
				a.Task = l.task
				w.By = &a
				if s, ok := main[metas[i].ToolUseID]; ok && s.found {
					w.Turn = TurnRef{Transcript: mainPath, UUID: s.use.uuid, Line: s.use.line}
					w.Prompt = s.promptCopy()
				}
			}
			r.Writes = append(r.Writes, w)
		}
	}
	sort.SliceStable(r.Writes, func(a, b int) bool {
		wa, wb := r.Writes[a], r.Writes[b]
		if !wa.Time.Equal(wb.Time) {
			return wa.Time.Before(wb.Time)
		}
		if wa.Transcript != wb.Transcript {
			return wa.Transcript < wb.Transcript
		}
		return wa.Line < wb.Line
	})
	r.Problems = sessions.SortProblems(r.Problems)
	return r
}

var (
	toolUseBytes    = []byte(`"tool_use"`)
	toolResultBytes = []byte(`"toolUseResult"`)
	agentIDBytes    = []byte(`"agentId":"`)
)

// scanFirst reads t once: lines that name a memory folder and hold a
// tool_use are decoded for their write calls; in a main transcript,
// Task results (toolUseResult with an agentId) are decoded for the
// subagents they started.
func scanFirst(home fs.FS, t model.TranscriptFile, folders []Folder) firstPass {
	f, err := model.OpenRegular(home, t.Path)
	if err != nil {
		return firstPass{err: err}
	}
	defer f.Close()
	fr := newFirstReader(t, folders)
	lr := model.NewLineReader(f)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		fr.line(line)
	}
	if err := lr.Err(); err != nil {
		fr.p.err = fmt.Errorf("read %s: %w", t.Path, err)
	}
	return fr.p
}

// firstReader is the first pass over one transcript, a line at a time
// (scanFirst's, and the shared pass's: FirstCache.Feed).
type firstReader struct {
	p       firstPass
	folders []Folder
	markers []jsonscan.Finder
	anchor  jsonscan.Finder
	main    bool
	// searched counts the bytes the Finders searched.
	searched int64
	// top finds toolUseResult and message among a line's members
	// (lineTop), once a shape of line.
	top jsonscan.Members
}

// The strings the first pass looks for, each from its rarest byte on.
var (
	agentIDFinder    = jsonscan.NewFinder(string(agentIDBytes))
	toolResultFinder = jsonscan.NewFinder(string(toolResultBytes))
	toolUseFinder    = jsonscan.NewFinder(string(toolUseBytes))
)

// finders are the Finders of the markers met so far: a scan of every
// project's folders makes dozens for each transcript.
var finders sync.Map

func markerFinder(m string) jsonscan.Finder {
	if f, ok := finders.Load(m); ok {
		return f.(jsonscan.Finder)
	}
	f := jsonscan.NewFinder(m)
	finders.Store(m, f)
	return f
}

func newFirstReader(t model.TranscriptFile, folders []Folder) *firstReader {
	fr := &firstReader{folders: folders, main: t.Kind == model.TranscriptMain}
	var markers [][]byte
	for _, f := range folders {
		for _, m := range f.markers() {
			markers = append(markers, []byte(m))
			fr.markers = append(fr.markers, markerFinder(m))
		}
	}
	if a := commonSuffix(markers); len(a) > 0 {
		fr.anchor = markerFinder(string(a))
	}
	return fr
}

// anyMarker says whether d holds a folder's marker.
func (fr *firstReader) anyMarker(d []byte) bool {
	for _, m := range fr.markers {
		if fr.in(m, d) {
			return true
		}
	}
	return false
}

// in is f.In(d), counting the bytes searched (the tests' measure of
// what a line costs the pass).
func (fr *firstReader) in(f jsonscan.Finder, d []byte) bool {
	fr.searched += int64(len(d))
	return f.In(d)
}

// line reads one line.
func (fr *firstReader) line(line model.Line) {
	d := line.Bytes
	fr.p.bytes += int64(len(d)) + 1
	if line.TooLong {
		return
	}
	// The rarer string first: most lines are rejected by one search.
	if fr.main && fr.in(agentIDFinder, d) && fr.in(toolResultFinder, d) {
		noteSpawn(&fr.p, d)
	}
	if len(fr.markers) == 0 || !fr.in(fr.anchor, d) || !fr.in(toolUseFinder, d) || !fr.anyMarker(d) {
		return
	}
	fr.p.calls = append(fr.p.calls, writeCalls(d, line.Number, fr.folders)...)
}

// lineTop is line for a line whose top-level members top holds (a line
// the shared pass's checker found one valid JSON object), searching only
// the members the decoders read: a spawn is the toolUseResult member's
// agentId (noteSpawn decodes nothing else of it), a write call is a
// block of the message member (writeCalls decodes nothing else), so a
// marker or "tool_use" in any other member (a tool result's copy of the
// file in toolUseResult, a snapshot, a summary) is not looked for. On a
// line written as Claude Code writes them (compact JSON, each member
// once, names unescaped) it finds what line finds; the whole line is
// searched by neither decoder's strings. Any other line is read by line.
func (fr *firstReader) lineTop(line model.Line, top *jsonscan.Top) {
	if line.TooLong || !top.Valid() {
		fr.line(line)
		return
	}
	d := line.Bytes
	fr.p.bytes += int64(len(d)) + 1
	at := fr.top.Of(top, "toolUseResult", "message")
	if fr.main {
		if res := top.Value(at[0]); len(res) > 0 && res[0] == '{' && fr.in(agentIDFinder, res) {
			noteSpawn(&fr.p, d)
		}
	}
	if len(fr.markers) == 0 {
		return
	}
	if msg := top.Value(at[1]); msg == nil || !fr.in(fr.anchor, msg) || !fr.in(toolUseFinder, msg) || !fr.anyMarker(msg) {
		return
	}
	fr.p.calls = append(fr.p.calls, writeCalls(d, line.Number, fr.folders)...)
}

// commonSuffix is the longest suffix every marker ends with ("memory/"
// for auto and agent memory folders alike): a line holding a marker holds
// it, so one search for it passes over the many lines (a tool call on
// any file) that name no folder, however many folders a scan looks for.
func commonSuffix(markers [][]byte) []byte {
	if len(markers) == 0 {
		return nil
	}
	s := markers[0]
	for _, m := range markers[1:] {
		n := 0
		for n < len(s) && n < len(m) && s[len(s)-1-n] == m[len(m)-1-n] {
			n++
		}
		s = s[len(s)-n:]
	}
	return s
}

// callLine is the part of an assistant line that names its write calls.
type callLine struct {
	Message struct {
		Content []struct {
			Type  string `json:"type"`
			ID    string `json:"id"`
			Name  string `json:"name"`
			Input struct {
				FilePath  string `json:"file_path"`
				Content   string `json:"content"`
				NewString string `json:"new_string"`
				Edits     []struct {
					NewString string `json:"new_string"`
				} `json:"edits"`
			} `json:"input"`
		} `json:"content"`
	} `json:"message"`
}

// writeCalls decodes the write calls on memory files of one line.
func writeCalls(d []byte, lineNo int, folders []Folder) []toolCall {
	var cl callLine
	if json.Unmarshal(d, &cl) != nil {
		return nil
	}
	var out []toolCall
	for _, b := range cl.Message.Content {
		if b.Type != string(model.BlockToolUse) || !model.IsWriteTool(b.Name) {
			continue
		}
		var in []folderMatch
		for fi, f := range folders {
			if rel, ok := f.Rel(b.Input.FilePath); ok {
				in = append(in, folderMatch{folder: fi, rel: rel})
			}
		}
		if len(in) == 0 {
			continue
		}
		n := len(b.Input.Content) + len(b.Input.NewString)
		for _, e := range b.Input.Edits {
			n += len(e.NewString)
		}
		pr := probe{}
		switch {
		case b.Name == "Write":
			pr = writeProbe(b.Input.Content)
		case len(b.Input.Edits) > 0:
			pr = editProbe(b.Input.Edits[len(b.Input.Edits)-1].NewString)
		default:
			pr = editProbe(b.Input.NewString)
		}
		out = append(out, toolCall{id: b.ID, name: b.Name, path: b.Input.FilePath, in: in, line: lineNo, bytes: n, probe: pr})
	}
	return out
}

// spawnLine is a Task tool's result: which call started which subagent.
type spawnLine struct {
	ToolUseResult json.RawMessage `json:"toolUseResult"`
	Message       struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

func noteSpawn(p *firstPass, d []byte) {
	var sl spawnLine
	if json.Unmarshal(d, &sl) != nil || len(sl.ToolUseResult) == 0 || sl.ToolUseResult[0] != '{' {
		return
	}
	var res struct {
		AgentID string `json:"agentId"`
	}
	var blocks []struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
	}
	if json.Unmarshal(sl.ToolUseResult, &res) != nil || res.AgentID == "" || json.Unmarshal(sl.Message.Content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if b.Type == string(model.BlockToolResult) && b.ToolUseID != "" {
			if p.spawns == nil {
				p.spawns = map[string]string{}
			}
			p.spawns[res.AgentID] = b.ToolUseID
			return
		}
	}
}
