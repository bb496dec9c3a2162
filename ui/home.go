package ui

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/inventory"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/projects"
)

// homeReq asks for the project list: all of it (full), or the rows of
// the projects whose sessions or memory folder changed.
type homeReq struct {
	full bool
	// openAll loads the open project's memory and sessions afterwards
	// (start-up, ctrl+r); otherwise they load when another project opens.
	openAll  bool
	sessions map[sessionKey]bool
	memory   map[string]bool
}

func mergeHome(a, b homeReq) homeReq {
	a.full, a.openAll = a.full || b.full, a.openAll || b.openAll
	c := change{sessions: a.sessions, memory: a.memory}
	c.merge(change{sessions: b.sessions, memory: b.memory})
	a.sessions, a.memory = c.sessions, c.memory
	return a
}

type homeLoadedMsg struct {
	rows     []projects.Row
	problems []model.Problem
	files    map[string][]model.TranscriptFile
	// active is when each transcript was last active, by path.
	active  map[string]enginesessions.Active
	openAll bool
}

// homeDeltaMsg carries the changed parts of some project rows.
type homeDeltaMsg struct {
	// sessions are the transcripts of each changed session now (none
	// when it is gone).
	sessions map[sessionKey][]model.TranscriptFile
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

// requestHome starts a project list load, or queues it behind the
// running one.
func (m *Model) requestHome(r homeReq) tea.Cmd {
	return m.fl.home.request(m, r, mergeHome, Model.loadHomeCmd)
}

// loadHomeCmd lists the projects with the size of their memory, or reads
// the changed parts of some rows.
func (m Model) loadHomeCmd(r homeReq) tea.Cmd {
	fsys := m.opts.Home.FS
	if r.full {
		m.loading["home"] = true
		return func() tea.Msg {
			ps, files, probs := model.ListProjectsFiles(fsys)
			rows := make([]projects.Row, len(ps))
			active := map[string]enginesessions.Active{}
			for i, p := range ps {
				rows[i] = projects.Row{Project: p, Unreviewed: -1}
				if p.HasMemory {
					rows[i].Memory = inventory.CountMemory(fsys, p.Dir+"/memory")
				}
				for _, t := range files[p.Slug] {
					active[t.Path] = enginesessions.LastActive(fsys, t)
				}
				rows[i].LastActive = lastActive(files[p.Slug], active)
			}
			return homeLoadedMsg{rows: rows, problems: probs, files: files, active: active, openAll: r.openAll}
		}
	}
	// Rows without a real path probe it again from their transcripts,
	// which the command gets a copy of.
	probe := map[string][]model.TranscriptFile{}
	// A transcript of a changed session that is as it was listed (a
	// subagent's, when the main one was appended to) keeps its last
	// activity: it is not read again.
	known := map[string]knownActive{}
	for k := range r.sessions {
		if i := m.rowIndex(k.slug); i >= 0 && m.data.projects[i].Project.Path == "" {
			probe[k.slug] = slices.Clone(m.data.files[k.slug])
		}
		for _, t := range withSession(m.data.files[k.slug], k.id) {
			if a, ok := m.data.active[t.Path]; ok {
				known[t.Path] = knownActive{file: t, active: a}
			}
		}
	}
	return func() tea.Msg {
		out := homeDeltaMsg{sessions: map[sessionKey][]model.TranscriptFile{}, memory: map[string]memoryState{}, paths: map[string]string{}, active: map[string]enginesessions.Active{}}
		for k := range r.sessions {
			ts, probs := model.FindSessionTranscripts(fsys, k.slug, k.id)
			out.sessions[k] = ts
			for _, t := range ts {
				if k, ok := known[t.Path]; ok && feed.SameListing(k.file, t) {
					out.active[t.Path] = k.active
					continue
				}
				out.active[t.Path] = enginesessions.LastActive(fsys, t)
			}
			out.problems = append(out.problems, probs...)
			if old, ok := probe[k.slug]; ok {
				all := append(withoutSession(old, k.id), ts...)
				(&model.Project{}).SetTranscripts(all)
				out.paths[k.slug] = model.ProbeProjectPath(fsys, all)
			}
		}
		for slug := range r.memory {
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
func (m *Model) rowIndex(slug string) int {
	for i, r := range m.data.projects {
		if r.Project.Slug == slug {
			return i
		}
	}
	return -1
}

// homeDone ends a project list load and starts the one waiting.
func (m *Model) homeDone() tea.Cmd { return m.fl.home.finish(m, Model.loadHomeCmd) }

// applyHomeDelta updates the rows of the projects that changed. A session
// of a project the list does not have yet asks for the whole list.
func (m *Model) applyHomeDelta(msg homeDeltaMsg) tea.Cmd {
	rows := slices.Clone(m.data.projects)
	if m.data.files == nil {
		m.data.files = map[string][]model.TranscriptFile{}
	}
	unknown := false
	touched := map[string]bool{}
	if m.data.active == nil {
		m.data.active = map[string]enginesessions.Active{}
	}
	for k, ts := range msg.sessions {
		for _, t := range withSession(m.data.files[k.slug], k.id) {
			delete(m.data.active, t.Path)
		}
		m.data.files[k.slug] = append(withoutSession(m.data.files[k.slug], k.id), ts...)
		touched[k.slug] = true
	}
	maps.Copy(m.data.active, msg.active)
	for slug := range touched {
		i := m.rowIndex(slug)
		if i < 0 {
			unknown = true
			continue
		}
		rows[i].Project.SetTranscripts(m.data.files[slug])
		rows[i].LastActive = lastActive(m.data.files[slug], m.data.active)
		if p := msg.paths[slug]; p != "" && rows[i].Project.Path == "" {
			rows[i].Project.Path = p
		}
	}
	for slug, st := range msg.memory {
		i := m.rowIndex(slug)
		if i < 0 {
			unknown = true
			continue
		}
		rows[i].Project.HasMemory = st.exists
		rows[i].Memory = st.count
	}
	m.data.projects = rows
	m.p.projects, _ = m.p.projects.Update(projects.RowsMsg{Rows: rows, Now: m.opts.Now()})
	if unknown {
		return m.requestHome(homeReq{full: true})
	}
	return nil
}

// applyHome takes a fresh project list and picks the project to open: the
// one asked for, else the one already open, else the most recently
// active. It reports whether the open project changed.
func (m *Model) applyHome(msg homeLoadedMsg) bool {
	// Review counts stay until they are counted again.
	counted := map[string]int{}
	for _, r := range m.data.projects {
		counted[r.Project.Slug] = r.Unreviewed
	}
	for i, r := range msg.rows {
		if n, ok := counted[r.Project.Slug]; ok {
			msg.rows[i].Unreviewed = n
		}
	}
	m.data.projects = msg.rows
	m.data.problems = msg.problems
	m.data.files = msg.files
	m.data.active = msg.active
	was := m.data.open
	want := m.data.open
	if want == "" && m.opts.Project != "" {
		want = m.projectFor(m.opts.Project)
	}
	if want == "" && len(msg.rows) > 0 {
		newest := msg.rows[0]
		for _, r := range msg.rows {
			if r.LastActive.Time.After(newest.LastActive.Time) {
				newest = r
			}
		}
		want = newest.Project.Slug
	}
	for i := range m.data.projects {
		m.data.projects[i].Current = m.opts.Project != "" && m.data.projects[i].Project.Path == m.opts.Project
	}
	m.openProject(want)
	m.p.projects, _ = m.p.projects.Update(projects.RowsMsg{Rows: m.data.projects, Now: m.opts.Now()})
	return want != was
}

// projectFor finds the project of folder dir: the project started there,
// else the nearest folder above it that has one (started in repo/sub,
// the project may be repo).
func (m *Model) projectFor(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for _, r := range m.data.projects {
			if r.Project.Path == d {
				return r.Project.Slug
			}
		}
		if slug, ok := model.FindProjectDir(m.opts.Home.FS, d); ok {
			return slug
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
