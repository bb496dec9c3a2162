package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// PruneKind names a kind of prune action.
type PruneKind string

// The prune actions, in the order a plan lists and applies them.
const (
	// PruneMerge keeps one memory of a near-duplicate pair and moves the
	// other to the trash, pointing [[links]] and its index line at the one
	// kept.
	PruneMerge PruneKind = "merge-duplicates"
	// PruneArchive moves a stale memory to .archive/, out of the client's
	// sight but kept; PruneDelete moves it to the trash instead.
	PruneArchive PruneKind = "archive-stale"
	PruneDelete  PruneKind = "delete-stale"
	// PruneDropDangling removes an index line whose link leads nowhere.
	PruneDropDangling PruneKind = "drop-dangling"
	// PruneIndexOrphan adds a topic file's line to the index.
	PruneIndexOrphan PruneKind = "index-orphan"
	// PruneShorten cuts an index line's hook to fit 150 characters.
	PruneShorten PruneKind = "shorten-index-line"
	// PruneOverflow moves what does not load out of MEMORY.md into a topic
	// file linked from the index.
	PruneOverflow PruneKind = "move-overflow"
	// PruneRebuild writes a missing MEMORY.md as the client's backfill.
	PruneRebuild PruneKind = "rebuild-index"
)

// ArchiveDir is where archived memories go: inside the memory folder so
// they stay with it, hidden (".") so the client no longer reads them.
const ArchiveDir = ".archive"

// PruneOptions tune a plan. Zero values take the defaults.
type PruneOptions struct {
	Now time.Time `json:"now"`
	// Staleness defaults to DefaultStaleness.
	Staleness memindex.StalenessThresholds `json:"-"`
	// StaleAction is PruneArchive (default) or PruneDelete.
	StaleAction PruneKind `json:"staleAction"`
	// DuplicateThreshold defaults to DefaultDuplicateJaccard.
	DuplicateThreshold float64 `json:"duplicateThreshold"`
	// Dupes, when set, is the near-duplicate index lint keeps for the
	// same folder (lint.Memo.Dupes): only what changed is compared again.
	Dupes *lint.DupeIndex `json:"-"`
	// Unstamped plans for a folder the client does not stamp (agent
	// memory; see Store.Unstamped): a file the plan writes has no stamps.
	// Store.PlanPrune sets it from the store.
	Unstamped bool `json:"unstamped,omitempty"`
	// LoadsSince is the first session the transcripts record loading
	// MEMORY.md (zero: none recorded, and the plan says nothing of loads);
	// LastLoaded the last load whose MEMORY.md listed each memory (by path;
	// absent: none since LoadsSince). engine/loads reads them.
	LoadsSince time.Time            `json:"-"`
	LastLoaded map[string]time.Time `json:"-"`
}

// loadedNote says when a session last had the memory's index line in
// context, for the stale plan: "" when the transcripts record no loads.
func (o PruneOptions) loadedNote(rel string) string {
	if o.LoadsSince.IsZero() {
		return ""
	}
	days := func(n int) string {
		if n == 1 {
			return "1 day"
		}
		return fmt.Sprintf("%d days", n)
	}
	if t, ok := o.LastLoaded[rel]; ok {
		if d := memindex.AgeDays(t, o.Now); d > 0 {
			return "; not loaded in any session for " + days(d)
		}
		return "; still loaded today"
	}
	return "; not loaded in any session of the " + days(memindex.AgeDays(o.LoadsSince, o.Now)) + " on record"
}

// PruneAction is one step of a plan, with the diff it makes on its own.
type PruneAction struct {
	// ID is stable for the same folder ("archive:project_x.md",
	// "drop:15"), so a dry run's ids can be passed to apply.
	ID      string    `json:"id"`
	Kind    PruneKind `json:"kind"`
	Summary string    `json:"summary"`
	// Paths are the memory files the action is about.
	Paths []string `json:"paths"`
	Diff  string   `json:"diff"`

	run func(*pruneState) error
}

// Plan is a set of prune actions for one memory folder as it was read.
type Plan struct {
	Actions []PruneAction `json:"actions"`
	// Diff is what applying every action does.
	Diff string `json:"diff"`

	md        *model.MemoryDir
	now       time.Time
	unstamped bool
	// insertAt is where new index lines go (see indexInsertPoint).
	insertAt int
	// base is the SHA-256 of every file the plan was made from.
	base map[string]string
	// index is MEMORY.md's bytes as md holds them, made once for every
	// preview (nil: none).
	index []byte
}

// ErrPlanStale is returned by Apply when the folder changed since the
// plan was made.
var ErrPlanStale = errors.New("the memory folder changed since this plan was made; plan again")

// PlanPrune proposes what would make the memory folder md healthier:
// merge near-duplicates, archive (or delete) stale memories, drop
// dangling index lines, index orphans, shorten long index lines, move
// what is past the cap out of MEMORY.md, or rebuild a missing index.
// Nothing is written; each action carries its diff.
func PlanPrune(md *model.MemoryDir, o PruneOptions) Plan {
	if o.Staleness == nil {
		o.Staleness = memindex.DefaultStaleness()
	}
	if o.StaleAction != PruneDelete {
		o.StaleAction = PruneArchive
	}
	p := Plan{Actions: []PruneAction{}, md: md, now: o.Now, unstamped: o.Unstamped, base: map[string]string{}}
	if md.IndexPartial || md.IndexUnread != "" {
		// Only MEMORY.md's head was read (it is too large), or it is
		// there but was not read (a named pipe): a plan made from it
		// would drop the rest or write over it. Its problem says so.
		return p
	}
	if md.Index != nil {
		p.index = md.Index.Bytes()
		p.base[model.MemoryIndexName] = hashBytes(p.index)
	}
	for _, f := range md.Files {
		p.base[f.Path] = hashBytes(f.Raw())
	}
	facts := lint.AnalyzeIndex(md, nil)
	if md.Index != nil {
		p.insertAt = indexInsertPoint(md.Index)
	}
	pl := &planner{md: md, o: o, facts: facts, merged: map[string]bool{}, isStale: map[string]bool{}}
	if md.Index == nil {
		pl.rebuild()
	}
	pl.merges()
	pl.stale()
	if md.Index != nil {
		pl.dangling()
		pl.orphans()
		pl.shorten()
		pl.overflow()
	}
	p.Actions = pl.actions
	for i := range p.Actions[:min(len(p.Actions), PruneDiffActions)] {
		p.Actions[i].Diff, _ = p.previewActions(p.Actions[i : i+1])
	}
	p.Diff, _ = p.preview(nil)
	return p
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// PlanPrune plans on the store's view of the folder.
func (s *Store) PlanPrune(o PruneOptions) Plan {
	o.Unstamped = o.Unstamped || s.unstamped
	return PlanPrune(s.mem, o)
}

// Preview returns the diff of applying the actions ids (all when nil)
// without writing anything.
func (p Plan) Preview(ids []string) (string, error) { return p.preview(ids) }

func (p Plan) preview(ids []string) (string, error) {
	acts, err := p.selected(ids)
	if err != nil {
		return "", err
	}
	return p.previewActions(acts)
}

// previewActions is the diff of applying acts; PlanPrune calls it once per
// action, so it must not look at the whole plan.
func (p Plan) previewActions(acts []PruneAction) (string, error) {
	w := snapshotWorkset(p.md, p.index)
	if err := p.runActions(w, acts, p.now); err != nil {
		return "", err
	}
	return w.diff(w.changed()), nil
}

// selected returns the actions with the given ids in plan order (all for
// nil ids), or an error naming an unknown id.
func (p Plan) selected(ids []string) ([]PruneAction, error) {
	if ids == nil {
		return p.Actions, nil
	}
	known := map[string]bool{}
	for _, a := range p.Actions {
		known[a.ID] = true
	}
	for _, id := range ids {
		if !known[id] {
			return nil, fmt.Errorf("no prune action %q in this plan", id)
		}
	}
	var out []PruneAction
	for _, a := range p.Actions {
		if slices.Contains(ids, a.ID) {
			out = append(out, a)
		}
	}
	return out, nil
}

// run applies the selected actions to w.
func (p Plan) run(w *workset, ids []string, now time.Time) error {
	acts, err := p.selected(ids)
	if err != nil {
		return err
	}
	return p.runActions(w, acts, now)
}

// runActions applies acts to w.
func (p Plan) runActions(w *workset, acts []PruneAction, now time.Time) error {
	st, err := newPruneState(w, now, p.md.Index, p.insertAt)
	if err != nil {
		return err
	}
	st.unstamped = p.unstamped
	for _, a := range acts {
		if err := a.run(st); err != nil {
			return fmt.Errorf("prune action %s: %w", a.ID, err)
		}
	}
	return st.finish()
}

// Apply applies the plan's actions ids (all when nil) as one change: all
// files staged then renamed, deletions to the trash, one journal entry,
// one undo. The plan must have been made from the store's current view.
func (s *Store) Apply(p Plan, ids []string, o WriteOptions) (Change, error) {
	if p.md == nil {
		return Change{}, errors.New("apply: empty plan")
	}
	for rel, st := range s.stamps {
		if st.Exists && p.base[rel] != st.SHA256 || !st.Exists && p.base[rel] != "" {
			return Change{}, ErrPlanStale
		}
	}
	if len(p.base) != len(s.mem.Files)+boolInt(s.mem.Index != nil) {
		return Change{}, ErrPlanStale
	}
	acts, err := p.selected(ids)
	if err != nil {
		return Change{}, err
	}
	w := s.newWorkset()
	if err := p.run(w, ids, o.Now); err != nil {
		return Change{}, err
	}
	var names []string
	for _, a := range acts {
		names = append(names, a.ID)
	}
	return s.commit(OpPrune, fmt.Sprintf("prune: %s (%s)", format.Count(len(acts), "action", "actions"), strings.Join(names, ", ")), w, o)
}
