package feed

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/inventory"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/projects"
)

// Home feeds the Projects pane: the home's project list with the size of
// each memory folder and when each project was last active, listed whole
// at start (and on ctrl+r, or when a project folder comes or goes), else
// brought up to date row by row from the sessions and memory folders
// that changed. One read runs at a time (Flight), later requests merged
// behind it.
type Home struct {
	// home is read at each load (a test swaps its FS to count reads).
	home *model.Home
	// cache keeps the transcripts' last activities across runs (nil:
	// none; enginesessions.LastActiveAll).
	cache  *diskcache.Store
	flight Flight[HomeReq]
	whole  bool // the running read lists every project

	rows     []projects.Row
	problems []model.Problem
	// files are each project's transcripts, by slug, newest first: a
	// changed session updates its project's row from them.
	files map[string][]model.TranscriptFile
	// active is when each of those transcripts was last active, by path
	// (enginesessions.LastActive).
	active map[string]enginesessions.Active
	// handoff, when set (TakeActiveFrom), hands the first whole read the
	// last activities the Overview's shared pass finds; start is the
	// folder memscope started in; handed says the first read took it.
	handoff *enginesessions.ActiveHandoff
	start   string
	handed  bool
	// pending are the transcripts whose last activity the start's list
	// left to the pass (FillActive); picked is the project that list
	// opened as the most recently active, checked when they come.
	pending []model.TranscriptFile
	picked  string
	// listed, when set (ListFrom), is the home listed once the start's
	// whole read lists through.
	listed func(*model.Home) *model.Home
}

// NewHome returns the feed of home, its first whole read counted as
// running: Init starts it. cache (nil: none) keeps the transcripts'
// last activities across runs.
func NewHome(home *model.Home, cache *diskcache.Store) *Home {
	h := &Home{home: home, cache: cache, whole: true}
	h.flight.Begin()
	return h
}

// SessionKey names one session of one project.
type SessionKey struct{ Slug, ID string }

// HomeReq asks for the project list: all of it (Full), or the rows of
// the projects whose sessions or memory folder changed.
type HomeReq struct {
	Full bool
	// OpenAll loads the open project's memory and sessions afterwards
	// (start-up, ctrl+r); otherwise they load when another project opens.
	OpenAll  bool
	Sessions map[SessionKey]bool
	Memory   map[string]bool
}

// MergeHome is the request that does what a and b ask.
func MergeHome(a, b HomeReq) HomeReq {
	a.Full, a.OpenAll = a.Full || b.Full, a.OpenAll || b.OpenAll
	if len(b.Sessions) > 0 {
		a.Sessions = maps.Clone(a.Sessions)
		if a.Sessions == nil {
			a.Sessions = map[SessionKey]bool{}
		}
		maps.Copy(a.Sessions, b.Sessions)
	}
	if len(b.Memory) > 0 {
		a.Memory = maps.Clone(a.Memory)
		if a.Memory == nil {
			a.Memory = map[string]bool{}
		}
		maps.Copy(a.Memory, b.Memory)
	}
	return a
}

// HomeListed is the whole project list.
type HomeListed struct {
	rows     []projects.Row
	problems []model.Problem
	files    map[string][]model.TranscriptFile
	// active is when each transcript was last active, by path.
	active  map[string]enginesessions.Active
	openAll bool
	// pending are the transcripts whose last activity the shared pass
	// hands over (their modification times until then).
	pending []model.TranscriptFile
}

// Problems are what the list's read could not make sense of.
func (msg HomeListed) Problems() []model.Problem { return msg.problems }

// HomeDelta carries the changed parts of some project rows.
type HomeDelta struct {
	// sessions are the transcripts of each changed session now (none
	// when it is gone).
	sessions map[SessionKey][]model.TranscriptFile
	memory   map[string]memoryState
	// paths are projects' real folders, probed for rows that had none.
	paths    map[string]string
	problems []model.Problem
	// active is when each changed session's transcripts were last
	// active, by path.
	active map[string]enginesessions.Active
}

// memoryState is the size of one project's memory folder.
type memoryState struct {
	exists bool
	count  inventory.MemoryCount
}

// HomeOut is what a read means to the shell: the Projects pane's rows,
// the project to open (a whole list picks it), whether the open
// project's memory and sessions are to be read (OpenAll), and the next
// read.
type HomeOut struct {
	Rows    projects.RowsMsg
	Open    string
	OpenAll bool
	Cmd     tea.Cmd
}

// Rows are the project rows last read.
func (h *Home) Rows() []projects.Row { return h.rows }

// Path is the real folder of the project with this slug, "" when the
// transcripts do not say.
func (h *Home) Path(slug string) string {
	if i := h.rowIndex(slug); i >= 0 {
		return h.rows[i].Project.Path
	}
	return ""
}

// ReadingAll reports whether a read of the whole list runs.
func (h *Home) ReadingAll() bool { return h.flight.Running() && h.whole }

// Init lists the projects and then reads the open one: the start-up read
// NewHome counted.
func (h *Home) Init() tea.Cmd { return h.load(HomeReq{Full: true, OpenAll: true}) }

// Request starts a read, or queues it behind the running one.
func (h *Home) Request(r HomeReq) tea.Cmd {
	if !h.flight.Start(r, MergeHome) {
		return nil
	}
	return h.load(r)
}

// allTranscripts is the transcripts of the projects ps in their order,
// in one list allocated once (grown by append, the home's thousands of
// transcripts were copied a dozen times on each start).
func allTranscripts(ps []model.Project, files map[string][]model.TranscriptFile) []model.TranscriptFile {
	n := 0
	for _, p := range ps {
		n += len(files[p.Slug])
	}
	all := make([]model.TranscriptFile, 0, n)
	for _, p := range ps {
		all = append(all, files[p.Slug]...)
	}
	return all
}

// load lists the projects with the size of their memory, or reads the
// changed parts of some rows.
func (h *Home) load(r HomeReq) tea.Cmd {
	fsys := h.home.FS
	h.whole = r.Full
	if r.Full {
		cache, homeDir := h.cache, h.home.Dir
		// Only the start's read takes the pass's last activities.
		handoff, start := h.handoff, h.start
		if h.handed || cache == nil {
			handoff = nil
		}
		if !h.handed && h.listed != nil {
			// The start's read lists the home once with the Overview's
			// lines: their listing answers for the memory files it counts.
			fsys = h.listed(h.home).FS
		}
		h.handed = true
		return func() tea.Msg {
			ps, files, probs := model.ListProjectsFiles(fsys)
			rows := make([]projects.Row, len(ps))
			all := allTranscripts(ps, files)
			var active map[string]enginesessions.Active
			var pending []model.TranscriptFile
			switch {
			case handoff != nil && startsIn(fsys, ps, start):
				active, pending = enginesessions.LastActiveKnown(fsys, all, cache, homeDir)
			case handoff != nil:
				// The project opened is the most recently active: only
				// the ends that can make one so are read first.
				active, pending = enginesessions.LastActiveNewest(fsys, all, cache, homeDir)
			default:
				active = enginesessions.LastActiveAll(fsys, all, cache, homeDir)
			}
			for i, p := range ps {
				rows[i] = projects.Row{Project: p, Unreviewed: -1}
				if p.HasMemory {
					rows[i].Memory = inventory.CountMemory(fsys, p.Dir+"/memory")
				}
				rows[i].LastActive = lastActive(files[p.Slug], active)
			}
			return HomeListed{rows: rows, problems: probs, files: files, active: active, openAll: r.OpenAll, pending: pending}
		}
	}
	// Rows without a real path probe it again from their transcripts,
	// which the command gets a copy of.
	probe := map[string][]model.TranscriptFile{}
	// A transcript of a changed session that is as it was listed (a
	// subagent's, when the main one was appended to) keeps its last
	// activity: it is not read again.
	known := map[string]knownActive{}
	for k := range r.Sessions {
		if i := h.rowIndex(k.Slug); i >= 0 && h.rows[i].Project.Path == "" {
			probe[k.Slug] = slices.Clone(h.files[k.Slug])
		}
		for _, t := range withSession(h.files[k.Slug], k.ID) {
			if a, ok := h.active[t.Path]; ok {
				known[t.Path] = knownActive{file: t, active: a}
			}
		}
	}
	return func() tea.Msg {
		out := HomeDelta{sessions: map[SessionKey][]model.TranscriptFile{}, memory: map[string]memoryState{}, paths: map[string]string{}, active: map[string]enginesessions.Active{}}
		for k := range r.Sessions {
			ts, probs := model.FindSessionTranscripts(fsys, k.Slug, k.ID)
			out.sessions[k] = ts
			for _, t := range ts {
				if k, ok := known[t.Path]; ok && SameListing(k.file, t) {
					out.active[t.Path] = k.active
					continue
				}
				out.active[t.Path] = enginesessions.LastActive(fsys, t)
			}
			out.problems = append(out.problems, probs...)
			if old, ok := probe[k.Slug]; ok {
				all := append(withoutSession(old, k.ID), ts...)
				(&model.Project{}).SetTranscripts(all)
				out.paths[k.Slug] = model.ProbeProjectPath(fsys, all)
			}
		}
		for slug := range r.Memory {
			dir := "projects/" + slug + "/memory"
			var st memoryState
			if info, err := fs.Stat(fsys, dir); err == nil && info.IsDir() {
				st.exists = true
				st.count = inventory.CountMemory(fsys, dir)
			}
			out.memory[slug] = st
		}
		return out
	}
}

// knownActive is a transcript as last listed and when it was last
// active then.
type knownActive struct {
	file   model.TranscriptFile
	active enginesessions.Active
}

// lastActive is when a project was last active: the newest of its
// transcripts' (enginesessions.LastActive, by path in active).
func lastActive(ts []model.TranscriptFile, active map[string]enginesessions.Active) enginesessions.Active {
	as := make([]enginesessions.Active, 0, len(ts))
	for _, t := range ts {
		as = append(as, active[t.Path])
	}
	return enginesessions.Newest(as...)
}

// withSession returns the transcripts of session id in ts.
func withSession(ts []model.TranscriptFile, id string) []model.TranscriptFile {
	var out []model.TranscriptFile
	for _, t := range ts {
		if t.SessionID == id {
			out = append(out, t)
		}
	}
	return out
}

// withoutSession returns ts without the transcripts of session id.
func withoutSession(ts []model.TranscriptFile, id string) []model.TranscriptFile {
	out := make([]model.TranscriptFile, 0, len(ts))
	for _, t := range ts {
		if t.SessionID != id {
			out = append(out, t)
		}
	}
	return out
}

// rowIndex is the index of project slug's row, or -1.
func (h *Home) rowIndex(slug string) int {
	for i, r := range h.rows {
		if r.Project.Slug == slug {
			return i
		}
	}
	return -1
}

// done ends a read and starts the one waiting.
func (h *Home) done() tea.Cmd {
	if r, ok := h.flight.Done(); ok {
		return h.load(r)
	}
	return nil
}

// Delta updates the rows of the projects that changed. A session of a
// project the list does not have yet asks for the whole list.
func (h *Home) Delta(msg HomeDelta, now time.Time) HomeOut {
	out := HomeOut{Cmd: h.done()}
	rows := slices.Clone(h.rows)
	if h.files == nil {
		h.files = map[string][]model.TranscriptFile{}
	}
	unknown := false
	touched := map[string]bool{}
	if h.active == nil {
		h.active = map[string]enginesessions.Active{}
	}
	for k, ts := range msg.sessions {
		for _, t := range withSession(h.files[k.Slug], k.ID) {
			delete(h.active, t.Path)
		}
		h.files[k.Slug] = append(withoutSession(h.files[k.Slug], k.ID), ts...)
		touched[k.Slug] = true
	}
	maps.Copy(h.active, msg.active)
	for slug := range touched {
		i := h.rowIndex(slug)
		if i < 0 {
			unknown = true
			continue
		}
		rows[i].Project.SetTranscripts(h.files[slug])
		rows[i].LastActive = lastActive(h.files[slug], h.active)
		if p := msg.paths[slug]; p != "" && rows[i].Project.Path == "" {
			rows[i].Project.Path = p
		}
	}
	for slug, st := range msg.memory {
		i := h.rowIndex(slug)
		if i < 0 {
			unknown = true
			continue
		}
		rows[i].Project.HasMemory = st.exists
		rows[i].Memory = st.count
	}
	h.rows = rows
	out.Rows = projects.RowsMsg{Rows: rows, Now: now}
	if unknown {
		out.Cmd = tea.Batch(out.Cmd, h.Request(HomeReq{Full: true}))
	}
	return out
}

// Listed takes a fresh project list and picks the project to open: open
// (the one open now), else the project of the folder start (memscope's
// start folder, Options.Project), else the most recently active.
func (h *Home) Listed(msg HomeListed, open, start string, now time.Time) HomeOut {
	out := HomeOut{Cmd: h.done(), OpenAll: msg.openAll}
	// Review counts stay until they are counted again.
	counted := map[string]int{}
	for _, r := range h.rows {
		counted[r.Project.Slug] = r.Unreviewed
	}
	for i, r := range msg.rows {
		if n, ok := counted[r.Project.Slug]; ok {
			msg.rows[i].Unreviewed = n
		}
	}
	h.rows, h.problems, h.files, h.active = msg.rows, msg.problems, msg.files, msg.active
	want := open
	if want == "" && start != "" {
		want = h.projectFor(start)
	}
	h.picked = ""
	if want == "" && len(msg.rows) > 0 {
		want = newestRow(msg.rows)
		if len(msg.pending) > 0 {
			h.picked = want
		}
	}
	for i := range h.rows {
		h.rows[i].Current = start != "" && h.rows[i].Project.Path == start
	}
	out.Open = want
	out.Rows = projects.RowsMsg{Rows: h.rows, Now: now}
	h.pending = msg.pending
	return out
}

// newestRow is the slug of the most recently active of rows (the first
// of those as recent).
func newestRow(rows []projects.Row) string {
	newest := rows[0]
	for _, r := range rows {
		if r.LastActive.Time.After(newest.LastActive.Time) {
			newest = r
		}
	}
	return newest.Project.Slug
}

// projectFor finds the project of folder dir: the project started there,
// else the nearest folder above it that has one (started in repo/sub,
// the project may be repo).
func (h *Home) projectFor(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for _, r := range h.rows {
			if r.Project.Path == d {
				return r.Project.Slug
			}
		}
		if slug, ok := model.FindProjectDir(h.home.FS, d); ok {
			return slug
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
