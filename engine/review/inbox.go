package review

import (
	"path"
	"sort"
	"time"

	"github.com/memscope/memscope/engine/internal/udiff"
	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/model"
)

// Status says why a file is in the inbox.
type Status string

// The statuses.
const (
	// StatusNew: never accepted.
	StatusNew Status = "new"
	// StatusChanged: changed since it was accepted.
	StatusChanged Status = "changed"
)

// Item is one memory waiting for review.
type Item struct {
	Path   string `json:"path"`
	Abs    string `json:"abs"`
	Status Status `json:"status"`
	// Time is the last change's (provenance's best clock).
	Time time.Time `json:"time"`
	// Reviewed is when it was last accepted; zero for a new one.
	Reviewed time.Time `json:"reviewed,omitzero"`
	// Origin is where the file came from and who changed it last.
	Origin *provenance.Origin `json:"origin"`
	// Diff is the change since the last review (from nothing for a new
	// file); NoDiff says why there is none.
	Diff   string `json:"diff"`
	NoDiff string `json:"noDiff,omitempty"`
}

// Inbox is the review inbox of one memory folder.
type Inbox struct {
	Dir   string `json:"memoryDir"`
	Items []Item `json:"items"`
	// Reviewed counts the files whose reviewed copy is current.
	Reviewed int `json:"reviewed"`
}

// Build lists the files of the project's auto memory folder (team/
// included) whose last change Claude Code made (provenance.Origin.ByModel)
// and that differ from what was accepted, newest first. A file changed
// last by hand (no record of who) is the user's own change and does not
// wait for review; nor does one memscope changed last, unless Claude
// Code's change before it was never accepted.
func Build(p *provenance.Project, st State) Inbox {
	return build(p, st, true)
}

// BuildUndiffed is Build without the items' Diff (NoDiff says why one
// has none, as Build's): for a count (the Projects list's, the
// Overview's review line), where diffing every waiting memory against
// its reviewed copy is most of the cost.
func BuildUndiffed(p *provenance.Project, st State) Inbox {
	return build(p, st, false)
}

func build(p *provenance.Project, st State, diff bool) Inbox {
	in := Inbox{Items: []Item{}}
	dir := ""
	for _, f := range p.Folders {
		if f.Kind == provenance.KindProject {
			dir = f.Dir
		}
	}
	in.Dir = dir
	for i := range p.Origins {
		o := &p.Origins[i]
		if o.Kind != provenance.KindProject {
			continue
		}
		e, seen := st.Files[o.Path]
		if seen && e.SHA256 == o.SHA256 {
			in.Reviewed++
			continue
		}
		// memscope's own change on top of one of the model's that was
		// never reviewed (rejecting a memory edits MEMORY.md) leaves the
		// model's change waiting.
		modelPending := o.Last.Source == provenance.SourceMemscope && !o.ModelTime.IsZero() && (!seen || o.ModelTime.After(e.Reviewed))
		if !o.ByModel() && !modelPending {
			continue
		}
		it := Item{Path: o.Path, Abs: o.Abs, Status: StatusNew, Time: o.Last.Time, Origin: o}
		var before []byte
		if seen {
			it.Status, it.Reviewed, before = StatusChanged, e.Reviewed, e.Copy
		}
		switch {
		case seen && e.Copy == nil:
			it.NoDiff = "the reviewed copy was not kept (the file was over 256 KB)"
		case diff:
			// The names are for people: a name with a line break would
			// break the diff's header.
			name := model.SanitizeLine(o.Path)
			it.Diff = udiff.Named(path.Join("reviewed", name), path.Join("now", name), before, seen, o.File().Raw(), true)
		}
		in.Items = append(in.Items, it)
	}
	sort.SliceStable(in.Items, func(a, b int) bool { return in.Items[a].Time.After(in.Items[b].Time) })
	return in
}

// Find is the item of the file at rel, or nil.
func (in *Inbox) Find(rel string) *Item {
	for i := range in.Items {
		if in.Items[i].Path == rel {
			return &in.Items[i]
		}
	}
	return nil
}
