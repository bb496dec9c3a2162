package feed

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/engine/review"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/memories"
	"github.com/memscope/memscope/views/msgs"
	"github.com/memscope/memscope/views/projects"
	reviewpane "github.com/memscope/memscope/views/review"
)

// The open project's review inbox: where its memory came from (a scan of
// the home's transcripts, each transcript's first pass kept in the
// feed's provenance cache) and which of the model's writes wait for a
// person's look.

// ReviewLoaded is the open project's provenance and review inbox.
type ReviewLoaded struct {
	// gen is the load's number: a slower, older load never replaces a
	// newer one.
	gen     int
	slug    string
	data    reviewpane.Data
	origins map[string]memories.Origin
	err     error
}

// Origins are where each file of the folder read came from, by its
// path on disk (the inbox lists only the model's writes).
func (msg ReviewLoaded) Origins() map[string]memories.Origin { return msg.origins }

// ReviewCounts is every project's count of memories to review.
type ReviewCounts struct{ counts map[string]int }

// ReviewSaved ends an accept.
type ReviewSaved struct {
	Slug, Path string
	Err        error
}

// ReviewOut is what a review load means to the panes: the Review pane's
// message, and (when the inbox was read) the Memories pane's origins and
// the Projects pane's count.
type ReviewOut struct {
	Review  tea.Msg
	Origins *memories.OriginsMsg
	Counts  *projects.UnreviewedMsg
}

// Unreviewed counts the open project's memories to review; -1 until its
// inbox is read after a switch (Switched).
func (p *Project) Unreviewed() int { return p.unreviewed }

// Switched notes that another project opened: its auto memory is the
// store asked for and its inbox is not read yet.
func (p *Project) Switched() { p.want, p.unreviewed = "", -1 }

// ReviewOptions are where a project's memory and its review state are,
// for the Cmd that reads them to call: the memory folder is the one the
// client writes the project's auto memory to (ProjectMemoryStores, from
// the one list of stores), which takes reading the project's settings.
func (p *Project) ReviewOptions(slug string) func() provenance.ProjectOptions {
	e := p.env
	root, home, homeDir, getenv, cache := e.root(), e.Home.FS, filepath.ToSlash(e.Home.Dir), e.Getenv, p.review
	project := filepath.ToSlash(p.home.Path(slug))
	return func() provenance.ProjectOptions {
		_, memDir := ProjectMemoryStores(root, homeDir, getenv("HOME"), slug, project, getenv)
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

// ReviewCmd scans the home for where project slug's memory came from and
// builds its review inbox (and the Memories pane's origins); nil for no
// project. A newer call makes the older loads' results stale.
func (p *Project) ReviewCmd(slug string) tea.Cmd {
	if slug == "" {
		return nil
	}
	p.reviewGen++
	gen := p.reviewGen
	options := p.ReviewOptions(slug)
	gateLog := p.env.GateLog
	listed := p.heldHome()
	return func() tea.Msg {
		opts := options()
		if listed != nil {
			opts.Home = listed
		}
		memDir := opts.MemoryDir
		pr := provenance.ForProject(opts)
		st, err := reviewState(opts.Root, memDir)
		if err != nil {
			return ReviewLoaded{gen: gen, slug: slug, err: err}
		}
		in := review.Build(&pr, st)
		msg := ReviewLoaded{gen: gen, slug: slug, data: reviewpane.Data{Dir: in.Dir, Reviewed: in.Reviewed}, origins: map[string]memories.Origin{}}
		if gateLog != "" {
			// The writes the gate held in this folder (a missing or
			// unreadable record holds none).
			recs, _, _ := gate.ReadLog(gateLog)
			msg.data.Held = gate.HeldFor(recs, filepath.FromSlash(memDir))
		}
		for i := range pr.Origins {
			o := &pr.Origins[i]
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

// ReviewDone takes a review load for the project open: the panes'
// messages, or ok false for a stale load (another project, or an older
// load than the newest).
func (p *Project) ReviewDone(msg ReviewLoaded, open string, now time.Time) (out ReviewOut, ok bool) {
	if msg.slug != open || msg.gen != p.reviewGen {
		return out, false
	}
	if msg.err != nil {
		out.Review = reviewpane.UnavailableMsg{Why: "cannot read the review state: " + msg.err.Error()}
		return out, true
	}
	p.unreviewed = len(msg.data.Items)
	if p.counts != nil {
		p.counts[msg.slug] = p.unreviewed
	}
	out.Review = reviewpane.DataMsg{Data: msg.data, Now: now}
	out.Origins = &memories.OriginsMsg{Origins: msg.origins}
	out.Counts = &projects.UnreviewedMsg{Counts: map[string]int{msg.slug: len(msg.data.Items)}}
	return out, true
}

// CountsCmd counts every listed project's memories to review, with one
// scan of the home, once the Projects pane was shown (nil before).
func (p *Project) CountsCmd() tea.Cmd {
	if !p.countsShown {
		return nil
	}
	var slugs []string
	var options []func() provenance.ProjectOptions
	for _, r := range p.home.Rows() {
		if !r.Project.HasMemory {
			continue
		}
		slugs, options = append(slugs, r.Project.Slug), append(options, p.ReviewOptions(r.Project.Slug))
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
		for i, pr := range provenance.ForProjects(opts) {
			st, err := reviewState(opts[i].Root, opts[i].MemoryDir)
			if err != nil {
				continue
			}
			counts[slugs[i]] = len(review.BuildUndiffed(&pr, st).Items)
		}
		return ReviewCounts{counts: counts}
	}
}

// Counted is the Projects pane's counts from a whole-home count; the
// open project's own load, newer, wins for it.
func (p *Project) Counted(msg ReviewCounts, open string) projects.UnreviewedMsg {
	if n := p.unreviewed; n >= 0 {
		msg.counts[open] = n
	}
	p.counts = msg.counts
	return projects.UnreviewedMsg{Counts: msg.counts}
}

// ShowCounts says the Projects pane is on screen: the first time, it
// counts every project's memories to review (CountsCmd; most starts never
// show the pane); after, it hands the last counts again (a copy of the
// panes that missed them, as a test's fork does, catches up).
func (p *Project) ShowCounts() (tea.Cmd, *projects.UnreviewedMsg) {
	if !p.countsShown {
		p.countsShown = true
		return p.CountsCmd(), nil
	}
	if p.counts == nil {
		return nil, nil
	}
	return nil, &projects.UnreviewedMsg{Counts: p.counts}
}

// AcceptCmd marks a memory of project slug reviewed as the pane showed
// it: the state is read again just before (another memscope may have
// written it) and written through the store's atomic writer.
func (p *Project) AcceptCmd(slug string, r msgs.AcceptReview) tea.Cmd {
	e := p.env
	now := e.Now()
	options := p.ReviewOptions(slug)
	root, writes, homeDir := e.root(), e.Writes, e.Home.Dir
	onDisk := HomeOnDisk(e.Machine, homeDir)
	return func() tea.Msg {
		memDir := options().MemoryDir
		if !onDisk {
			return ReviewSaved{Slug: slug, Path: r.Path, Err: errors.New("review needs a home on disk")}
		}
		sub, err := fs.Sub(root, model.RootName(memDir))
		if err == nil {
			_, err = review.Update(filepath.FromSlash(memDir), sub, memstore.DirFSIn(homeDir, filepath.FromSlash(memDir), writes), func(st *review.State) {
				st.Accept(r.Path, r.Content, now)
			})
		}
		return ReviewSaved{Slug: slug, Path: r.Path, Err: err}
	}
}
