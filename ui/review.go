package ui

import (
	"errors"
	"fmt"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/projects"
	"io/fs"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/engine/review"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/memories"
	"github.com/memscope/memscope/views/msgs"
	reviewpane "github.com/memscope/memscope/views/review"
)

// reviewLoadedMsg is the open project's provenance and review inbox.
type reviewLoadedMsg struct {
	// gen is the load's number: a slower, older load never replaces a
	// newer one.
	gen     int
	slug    string
	data    reviewpane.Data
	origins map[string]memories.Origin
	err     error
}

// reviewCountsMsg is every project's count of memories to review.
type reviewCountsMsg struct{ counts map[string]int }

// reviewSavedMsg ends an accept.
type reviewSavedMsg struct {
	slug, path string
	err        error
}

// reviewOptions are where a project's memory and its review state are,
// for the Cmd that reads them to call: the memory folder is the one the
// client writes the project's auto memory to (feed.ProjectMemoryStores, from
// the one list of stores), which takes reading the project's settings.
func (m Model) reviewOptions(slug string) func() provenance.ProjectOptions {
	root, home, homeDir, getenv, cache := m.root(), m.opts.Home.FS, filepath.ToSlash(m.opts.Home.Dir), m.opts.Getenv, m.reviewCache
	project := filepath.ToSlash(m.projectPath(slug))
	return func() provenance.ProjectOptions {
		_, memDir := feed.ProjectMemoryStores(root, homeDir, getenv("HOME"), slug, project, getenv)
		return provenance.ProjectOptions{Root: root, Home: home, HomeDir: homeDir, MemoryDir: memDir, Tree: project, Cache: cache}
	}
}

// reviewState reads a memory folder's review state through root.
func reviewState(root fs.FS, memDir string) (review.State, error) {
	sub, err := fs.Sub(root, model.RootName(memDir))
	if err != nil {
		return review.State{}, err
	}
	return review.Load(sub)
}

// loadReviewCmd scans the home for where the open project's memory came
// from and builds its review inbox (and the Memories pane's origins).
func (m *Model) loadReviewCmd() tea.Cmd {
	slug := m.data.open
	if slug == "" {
		return nil
	}
	m.reviewGen++
	gen := m.reviewGen
	options := m.reviewOptions(slug)
	gateLog := m.places().GateLog
	return func() tea.Msg {
		opts := options()
		memDir := opts.MemoryDir
		p := provenance.ForProject(opts)
		st, err := reviewState(opts.Root, memDir)
		if err != nil {
			return reviewLoadedMsg{gen: gen, slug: slug, err: err}
		}
		in := review.Build(&p, st)
		msg := reviewLoadedMsg{gen: gen, slug: slug, data: reviewpane.Data{Dir: in.Dir, Reviewed: in.Reviewed}, origins: map[string]memories.Origin{}}
		if gateLog != "" {
			// The writes the gate held in this folder (a missing or
			// unreadable record holds none).
			recs, _, _ := gate.ReadLog(gateLog)
			msg.data.Held = gate.HeldFor(recs, filepath.FromSlash(memDir))
		}
		for i := range p.Origins {
			o := &p.Origins[i]
			mo := memories.Origin{Text: o.Text, Last: o.Last.Text, Jump: originJump(o)}
			if o.Last.Write != nil && o.Last.Write == o.Created {
				mo.Last = ""
			}
			if w := o.Last.Write; w != nil && w.Prompt != nil {
				mo.Prompt = w.Prompt.Text
			}
			msg.origins[o.Abs] = mo
		}
		for _, it := range in.Items {
			mo := msg.origins[it.Abs]
			msg.data.Items = append(msg.data.Items, reviewpane.Item{
				Path: it.Path, Abs: it.Abs, Status: string(it.Status), Time: it.Time, Reviewed: it.Reviewed,
				Last: it.Origin.Last.Text, Prompt: mo.Prompt, Origin: mo.Text, Diff: it.Diff, NoDiff: it.NoDiff,
				Content: it.Origin.File().Raw(), Jump: mo.Jump,
			})
		}
		return msg
	}
}

// originJump is where Replay shows a file's last change, else the call
// that created it; nil when no transcript holds either.
func originJump(o *provenance.Origin) *msgs.ReplayAt {
	for _, w := range []*provenance.Write{o.Last.Write, o.Created} {
		if w != nil && w.Turn.Transcript != "" {
			return &msgs.ReplayAt{Path: w.Turn.Transcript, Message: w.Turn.UUID, MessageLine: w.Turn.Line}
		}
	}
	return nil
}

// reviewCountsCmd counts every project's memories to review, with one
// scan of the home.
func (m Model) reviewCountsCmd() tea.Cmd {
	var slugs []string
	var options []func() provenance.ProjectOptions
	for _, r := range m.feeds.home.Rows() {
		if !r.Project.HasMemory {
			continue
		}
		slugs, options = append(slugs, r.Project.Slug), append(options, m.reviewOptions(r.Project.Slug))
	}
	if len(options) == 0 {
		return nil
	}
	return func() tea.Msg {
		opts := make([]provenance.ProjectOptions, len(options))
		for i, o := range options {
			opts[i] = o()
		}
		counts := map[string]int{}
		for i, p := range provenance.ForProjects(opts) {
			st, err := reviewState(opts[i].Root, opts[i].MemoryDir)
			if err != nil {
				continue
			}
			counts[slugs[i]] = len(review.Build(&p, st).Items)
		}
		return reviewCountsMsg{counts: counts}
	}
}

// acceptCmd marks a memory reviewed as the pane showed it: the state is
// read again just before (another memscope may have written it) and
// written through the store's atomic writer.
func (m Model) acceptCmd(r msgs.AcceptReview) tea.Cmd {
	if m.readOnly {
		return func() tea.Msg { return errMsg{errors.New("the home is read-only: review is off")} }
	}
	slug, now := m.data.open, m.opts.Now()
	options := m.reviewOptions(slug)
	root, writes := m.root(), m.opts.Writes
	homeDir := m.opts.Home.Dir
	onDisk := feed.HomeOnDisk(m.opts.Root, homeDir)
	return func() tea.Msg {
		memDir := options().MemoryDir
		if !onDisk {
			return reviewSavedMsg{slug: slug, path: r.Path, err: errors.New("review needs a home on disk")}
		}
		sub, err := fs.Sub(root, model.RootName(memDir))
		if err == nil {
			_, err = review.Update(filepath.FromSlash(memDir), sub, memstore.DirFSIn(homeDir, filepath.FromSlash(memDir), writes), func(st *review.State) {
				st.Accept(r.Path, r.Content, now)
			})
		}
		return reviewSavedMsg{slug: slug, path: r.Path, err: err}
	}
}

// handleReview takes the review loads and requests.
func (m Model) handleReview(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case reviewLoadedMsg:
		if msg.slug != m.data.open || msg.gen != m.reviewGen {
			return m, nil, true
		}
		if msg.err != nil {
			m.p.reviewPane, _ = m.p.reviewPane.Update(reviewpane.UnavailableMsg{Why: "cannot read the review state: " + msg.err.Error()})
			return m, nil, true
		}
		m.data.unreviewed = len(msg.data.Items)
		m.p.reviewPane, _ = m.p.reviewPane.Update(reviewpane.DataMsg{Data: msg.data, Now: m.opts.Now()})
		m.p.memories, _ = m.p.memories.Update(memories.OriginsMsg{Origins: msg.origins})
		m.p.projects, _ = m.p.projects.Update(projects.UnreviewedMsg{Counts: map[string]int{msg.slug: len(msg.data.Items)}})
		return m, nil, true
	case reviewCountsMsg:
		// The open project's own load is newer than a whole-home count.
		if n := m.data.unreviewed; n >= 0 {
			msg.counts[m.data.open] = n
		}
		m.p.projects, _ = m.p.projects.Update(projects.UnreviewedMsg{Counts: msg.counts})
		return m, nil, true
	case msgs.AcceptReview:
		return m, m.acceptCmd(msg), true
	case reviewSavedMsg:
		if msg.err != nil {
			m.setStatus(fmt.Sprintf("accept %s: %v", msg.path, msg.err), true)
			return m, nil, true
		}
		m.setStatus("accepted "+model.SanitizeLine(msg.path)+" (it comes back if Claude Code changes it again)", false)
		if msg.slug != m.data.open {
			return m, nil, true
		}
		cmd := m.loadReviewCmd()
		return m, cmd, true
	}
	return m, nil, false
}
