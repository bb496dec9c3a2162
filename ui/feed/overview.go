package feed

import (
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/loads"
	engov "github.com/memscope/memscope/engine/overview"
	enginesessions "github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/overview"
)

// Overview feeds the Overview pane its lines (engine/overview), each
// computed in its own Cmd and handed over as its own message the moment
// it is in, so a quick line never waits for the slowest store. A line
// runs once at a time; a change while it runs makes it run again when it
// lands. Lines are read only while the pane is focused (Load).
type Overview struct {
	// stale are the lines the next Load counts; running those counting.
	stale, running map[engov.ID]bool
	// gen numbers each line's counts: a count started before the line
	// was invalidated is dropped.
	gen map[engov.ID]int
	// project is the project folder the project lines were counted for;
	// ready says the project is known (the home's projects are read).
	project string
	ready   bool
	// slots bounds the lines counting at once: the heavy lines (secrets,
	// stat, the review's provenance) each read every byte of their
	// stores with every CPU already, and their buffers add up.
	slots chan struct{}
	// pass is the one reading of the transcripts the lines share across
	// every Load (engov.Pass).
	pass *engov.Pass
	// history is history.jsonl as the History feed holds it, which the
	// lines that read it (engov.ReadsHistory) take; historyKnown says
	// the feed's read landed (history is nil when it holds none: the
	// lines read the file themselves). Until then those lines wait.
	history      *model.HistoryRead
	historyKnown bool
	// checked is the Project feed's check of the open project's memory
	// (ProjectChecked), which the lines that take it
	// (engov.TakesChecked) use when it is of the project they count;
	// checkWait says those lines wait for it (the start, ctrl+r, another
	// project: a project load is on its way); lintWait says the Lint line
	// still waits once it came, for a check with lint (LintToCome).
	checked             *engov.Checked
	checkWait, lintWait bool
	// listed is the home listed once (model.ListOnce) for every line
	// counted until the lines settle, from, the home it lists: the start's
	// lines count from several Loads (the project, history.jsonl) and
	// list projects/ once between them. A change, ctrl+r, or every line
	// counted drops it: the next count lists the home as it is then.
	listed, from *model.Home
	// liveFed says the app's Live feed counts the autocompact line from
	// each snapshot it takes (Counted): Load never counts it (a second
	// tracker would list the home and decode every recently written
	// transcript again); liveIn says a snapshot's count came.
	liveFed, liveIn bool
}

// MaxOverviewAtOnce is how many lines count at once.
const MaxOverviewAtOnce = 3

// OverviewLine is one line counted by a Load.
type OverviewLine struct {
	gen  int
	line engov.Line
}

// NewOverview returns a feed with every line stale.
func NewOverview() *Overview {
	o := &Overview{stale: map[engov.ID]bool{}, running: map[engov.ID]bool{}, gen: map[engov.ID]int{}, slots: make(chan struct{}, MaxOverviewAtOnce), pass: &engov.Pass{Followers: enginesessions.NewHandoff(), Active: enginesessions.NewActiveHandoff()}}
	o.Invalidate()
	return o
}

// Invalidate makes the next Load count ids again (every line when none
// are named: ctrl+r, which loads the open project again: the lines that
// take its check wait for it).
func (o *Overview) Invalidate(ids ...engov.ID) {
	if len(ids) == 0 {
		o.checkWait, o.lintWait = true, true
		o.listed = nil
		for _, sp := range engov.Specs {
			ids = append(ids, sp.ID)
		}
	}
	for _, id := range ids {
		if id == engov.Autocompact && o.liveFed && o.liveIn {
			// The Live feed's last snapshot is the line: it counts again
			// with the next.
			continue
		}
		o.stale[id] = true
		o.gen[id]++
	}
}

// NewFedOverview is NewOverview for an app whose Live feed counts the
// autocompact line (FedByLive).
func NewFedOverview() *Overview {
	o := NewOverview()
	o.FedByLive()
	return o
}

// FedByLive says the Live feed counts the autocompact line from every
// snapshot it takes, the first one at the start (Counted): a Load never
// counts it, and the line counts as stale only until that first count.
func (o *Overview) FedByLive() { o.liveFed = true }

// Changed says what a batch of file events changed: the open project's
// memory or instructions (project), the home's other stores (home), or
// only appends to transcripts (appends). Each invalidates the lines that
// read it. Appends recount only the running sessions' line: a busy
// session appends every second, and the secrets scan and stat read the
// whole home (ctrl+r counts every line again).
func (o *Overview) Changed(project, home, appends bool) {
	o.listed = nil
	var ids []engov.ID
	for _, sp := range engov.Specs {
		switch {
		case project && (sp.Scope == engov.ScopeProject || sp.ID == engov.Secrets),
			home && sp.Scope == engov.ScopeHome,
			appends && sp.ID == engov.Autocompact:
			ids = append(ids, sp.ID)
		}
	}
	if project {
		// The check in hand is of the files before the change: the
		// lines count their own until the next check comes (a change
		// to the instructions alone loads no project: none may come).
		o.checked, o.lintWait = nil, false
	}
	if len(ids) > 0 {
		o.Invalidate(ids...)
	}
}

// SetProject names the open project's folder ("" for none); ready says
// whether it is known yet (until then the project lines keep counting).
// A different project makes the project lines stale.
func (o *Overview) SetProject(path string, ready bool) {
	if path == o.project && ready == o.ready {
		return
	}
	if path != o.project {
		o.checkWait, o.lintWait = true, true
	}
	o.project, o.ready = path, ready
	for _, sp := range engov.Specs {
		if sp.Scope == engov.ScopeProject {
			o.Invalidate(sp.ID)
		}
	}
}

// HistoryReading says the History feed reads history.jsonl whole (the
// start, ctrl+r): the lines that read it wait for HistoryRead.
func (o *Overview) HistoryReading() { o.historyKnown = false }

// HistoryRead hands over history.jsonl as the History feed now holds it
// (History.Held; nil when it holds none). A whole read (full: the start,
// ctrl+r, the file rewritten or unreadable) makes the lines that read it
// stale; an append does not: the lines read what follows the feed's
// entries themselves, and the change that appended made them stale.
func (o *Overview) HistoryRead(held *model.HistoryRead, full bool) {
	o.history, o.historyKnown = held, true
	if full {
		for _, sp := range engov.Specs {
			if engov.ReadsHistory(sp.ID) {
				o.Invalidate(sp.ID)
			}
		}
	}
}

// ProjectChecked hands over the Project feed's check of the open
// project's memory (feed.ProjectLoaded.Checked), after each of its
// loads and when a load's loads turn out complete: the lines that take
// it count again from it; a check whose lint is to come leaves the Lint
// line as it is (waiting at the start, else its own count) until the
// check with lint comes.
func (o *Overview) ProjectChecked(c *engov.Checked) {
	o.checked = c
	if c.Project != o.project {
		return
	}
	o.checkWait, o.lintWait = false, c.LintToCome
	for _, sp := range engov.Specs {
		if engov.TakesChecked(sp.ID) && (sp.ID != engov.Lint || !c.LintToCome) {
			o.Invalidate(sp.ID)
		}
	}
}

// waits says line id waits for the project's check.
func (o *Overview) waits(id engov.ID) bool {
	if o.project == "" || !engov.TakesChecked(id) {
		return false
	}
	return o.checkWait || id == engov.Lint && o.lintWait
}

// Followers are the followers of the open project's transcripts the
// Overview's pass builds, for the Replay list (Sessions.TakeFrom).
func (o *Overview) Followers() *enginesessions.Handoff { return o.pass.Followers }

// ActiveHandoff hands the Projects list the last activities the
// Overview's pass finds (Home.TakeActiveFrom).
func (o *Overview) ActiveHandoff() *enginesessions.ActiveHandoff { return o.pass.Active }

// Project is the project folder the project lines count.
func (o *Overview) Project() string { return o.project }

// Load starts counting every stale line that is not counting already,
// each in its own Cmd, from one Source (src builds it, with the project
// SetProject named). It returns the lines it started, which the pane
// shows as counting, and nil when there is nothing to count.
func (o *Overview) Load(src func(project string) *engov.Source) (tea.Cmd, []engov.ID) {
	var s *engov.Source
	var cmds []tea.Cmd
	var ids []engov.ID
	for _, sp := range engov.Specs {
		id := sp.ID
		// The lines sharing the pass wait for the project too: the pass
		// looks for its memory folders (one read of the home for all).
		if !o.stale[id] || o.running[id] || (sp.Scope == engov.ScopeProject || sp.Shared) && !o.ready || id == engov.Autocompact && o.liveFed ||
			engov.ReadsHistory(id) && !o.historyKnown || o.waits(id) {
			continue
		}
		if s == nil {
			s = src(o.project)
			s.Pass, s.History = o.pass, o.history
			if c := o.checked; c != nil && c.Project == o.project {
				s.Checked = c
			}
			if s.Env.Home != nil {
				if o.listed == nil || o.from != s.Env.Home {
					o.listed, o.from = s.Env.Home.ListedOnce(), s.Env.Home
				}
				s.Env.Home = o.listed
			}
		}
		o.stale[id], o.running[id] = false, true
		gen, slots := o.gen[id], o.slots
		ids = append(ids, id)
		var followers *enginesessions.Handoff
		var loads *loads.Cache
		if sp.Shared && o.project != "" && s.Cache != nil {
			// The pass reads the open project's transcripts for the
			// Replay list's followers and the project load's loads: those
			// wait for its claims (which this count makes, or ends)
			// rather than read them first.
			followers, loads = o.pass.Followers, s.Env.Loads
			followers.Expect()
			loads.Expect()
		}
		cmds = append(cmds, func() tea.Msg {
			defer followers.Resolve()
			defer loads.Resolve()
			slots <- struct{}{}
			defer func() { <-slots }()
			return OverviewLine{gen: gen, line: engov.Compute(s, id)}
		})
	}
	if len(cmds) == 0 {
		return nil, nil
	}
	return tea.Batch(cmds...), ids
}

// Loaded takes a counted line. ok is false for a count the line's
// invalidation made stale (the next Load counts it again).
func (o *Overview) Loaded(msg OverviewLine) (overview.LineMsg, bool) {
	id := msg.line.ID
	o.running[id] = false
	if !o.Counting() {
		o.listed = nil
	}
	if msg.gen != o.gen[id] {
		return overview.LineMsg{}, false
	}
	return overview.LineMsg{Line: msg.line}, true
}

// Counted takes a line counted without a Load (the autocompact line,
// from the Live feed's snapshot, which reads nothing) and returns the
// pane's message: a count of the line still running is dropped when it
// lands, and the line is no longer stale.
func (o *Overview) Counted(line engov.Line) overview.LineMsg {
	if line.ID == engov.Autocompact {
		o.liveIn = true
	}
	o.gen[line.ID]++
	o.stale[line.ID] = false
	return overview.LineMsg{Line: line}
}

// Running reports whether a line counts now (the shared pass runs in
// one: Home.FillActive waits for it).
func (o *Overview) Running() bool {
	for _, r := range o.running {
		if r {
			return true
		}
	}
	return false
}

// Counting reports whether a line is counting or waits to.
func (o *Overview) Counting() bool {
	for _, sp := range engov.Specs {
		if o.running[sp.ID] || o.stale[sp.ID] {
			return true
		}
	}
	return false
}
