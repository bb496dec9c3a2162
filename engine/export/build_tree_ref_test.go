package export

// The tree export as it was before the streamed one (commit f2e0c4b):
// the reference the streamed export is checked against
// (TestStreamedExportEqualsTree*). LoadSessionExport and Write now run
// on the index.

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// treeInput is what treeBuildSessionExport works from.
type treeInput struct {
	Transcript *model.Transcript
	Subagents  []treeSubagent
	History    []*model.HistoryEntry
	Pastes     PasteResolver
	Now        time.Time
}

type treeSubagent struct {
	AgentID    string
	Transcript *model.Transcript
}

// treeLoadSessionExport is LoadSessionExport on the tree.
func treeLoadSessionExport(src SessionSource, now time.Time) (*SessionExport, error) {
	t, err := model.ReadTranscriptWith(src.FS, src.Transcript, ScanOptions)
	if err != nil && t == nil {
		return nil, err
	}
	var probs []model.Problem
	if err != nil {
		probs = append(probs, model.Problem{File: src.Transcript, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	in := treeInput{Transcript: t, Now: now}
	in.Subagents, probs = treeReadSubagents(src.FS, src.Transcript, probs)
	if src.Home != nil {
		in.Pastes = model.NewPasteCache(src.Home)
		in.History, probs = treeReadHistory(src.Home, t, probs)
	}
	x := treeBuildSessionExport(in)
	x.Problems = append(x.Problems, probs...)
	return x, nil
}

func treeReadHistory(home fs.FS, t *model.Transcript, probs []model.Problem) ([]*model.HistoryEntry, []model.Problem) {
	f, err := model.OpenRegular(home, model.HistoryPath)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return nil, probs
	}
	defer f.Close()
	session := t.Summary.SessionID
	if session == "" {
		session = strings.TrimSuffix(path.Base(t.Path), ".jsonl")
	}
	var out []*model.HistoryEntry
	_, err = model.ScanHistory(f, model.HistoryPath, func(e *model.HistoryEntry) {
		if string(e.SessionID) == session || e.SessionID == "" && e.Project == t.Summary.CWD {
			c := *e
			out = append(out, &c)
		}
	})
	if err != nil {
		probs = append(probs, model.Problem{File: model.HistoryPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
	}
	return out, probs
}

func treeReadSubagents(fsys fs.FS, transcript string, probs []model.Problem) ([]treeSubagent, []model.Problem) {
	dir := path.Join(path.Dir(transcript), strings.TrimSuffix(path.Base(transcript), ".jsonl"), "subagents")
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, model.Problem{File: dir, Kind: model.ProblemUnreadable, Reason: err.Error()})
		}
		return nil, probs
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var out []treeSubagent
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		p := dir + "/" + e.Name()
		st, err := model.ReadTranscriptWith(fsys, p, ScanOptions)
		if err != nil {
			probs = append(probs, model.Problem{File: p, Kind: model.ProblemUnreadable, Reason: err.Error()})
			if st == nil {
				continue
			}
		}
		agent := strings.TrimPrefix(strings.TrimSuffix(e.Name(), ".jsonl"), "agent-")
		out = append(out, treeSubagent{AgentID: agent, Transcript: st})
	}
	return out, probs
}

// treeBuilder is exportBuilder on a tree, with the sets the branches
// walk keeps.
type treeBuilder struct {
	*exportBuilder
	t        *model.Transcript
	inBranch map[*model.Record]bool
}

func newTreeBuilder(t *model.Transcript, pm *pasteMatcher) *treeBuilder {
	b := &treeBuilder{exportBuilder: newExportBuilder(pm), t: t, inBranch: map[*model.Record]bool{}}
	results := map[string]*ToolResult{}
	for _, r := range t.Records {
		b.note(r, func(id string) {
			if results[id] == nil {
				results[id] = toolResultIn(r, id)
			}
		})
	}
	b.result = func(id string) (*ToolResult, error) { return results[id], nil }
	b.compaction = func(r *model.Record) (timeline.CompactionKind, model.SummarizeDirection, *int) {
		return timeline.Compaction(t, r)
	}
	return b
}

func (b *treeBuilder) entries(rs []*model.Record) []Entry {
	out := make([]Entry, 0, len(rs))
	for _, r := range rs {
		if e, ok := b.entry(r); ok {
			out = append(out, e)
		}
	}
	return out
}

func treeBuildSessionExport(in treeInput) *SessionExport {
	t := in.Transcript
	if t == nil {
		t = model.NewTranscript("")
	}
	x := &SessionExport{
		Schema:       SessionExportSchema,
		SessionID:    t.Summary.SessionID,
		Path:         t.Path,
		CWD:          t.Summary.CWD,
		Started:      t.Summary.First,
		LastActivity: t.Summary.Last,
		ExportedAt:   in.Now.UTC(),
		Conversation: []Entry{},
		Branches:     []Branch{},
		Sidechains:   []Sidechain{},
		Problems:     append([]model.Problem{}, t.Summary.Problems...),
	}
	if x.SessionID == "" {
		x.SessionID = strings.TrimSuffix(path.Base(t.Path), ".jsonl")
	}
	for _, r := range t.Records {
		if r.Version != "" || r.GitBranch != "" {
			x.Version, x.GitBranch = r.Version, r.GitBranch
			break
		}
	}
	pm := newPasteMatcher(in.History, x.SessionID, x.CWD, in.Pastes)
	b := newTreeBuilder(t, pm)
	covered := map[*model.Record]bool{}

	leaf, src := timeline.PickLeaf(timeline.View{T: t, From: 1})
	x.Leaf.Source = src
	x.Leaf.ChainEnd = model.ChainNoLeaf
	if leaf != nil {
		chain, end := timeline.Walk(timeline.View{T: t, From: 1}, leaf, true)
		x.Leaf = Leaf{UUID: leaf.UUID, Line: leaf.Line, Source: src, ChainEnd: end}
		for _, r := range chain {
			covered[r] = true
			if r.IsCompactBoundary() || r.IsMicrocompactBoundary() {
				x.Compactions++
			}
		}
		x.Conversation = b.entries(chain)
	}
	x.Branches = b.branches(covered)
	usage := newUsageCounter()
	treeUsage(usage, t)
	x.Models = append(x.Models, usage.models...)
	for _, sc := range t.Sidechains() {
		recs := treeSidechainRecords(t, sc.Root)
		for _, r := range recs {
			covered[r] = true
		}
		x.Sidechains = append(x.Sidechains, Sidechain{
			AgentID: sc.AgentID, Source: SidechainInline, Records: len(recs),
			Models: []string{}, Entries: b.entries(recs),
		})
	}
	for _, sa := range in.Subagents {
		st := sa.Transcript
		if st == nil {
			continue
		}
		sb := newTreeBuilder(st, pm)
		var recs []*model.Record
		for _, r := range st.Records {
			if r.UUID != "" && st.Get(r.UUID) == r {
				recs = append(recs, r)
			}
		}
		su := newUsageCounter()
		treeUsage(su, st)
		treeUsage(usage, st)
		x.Sidechains = append(x.Sidechains, Sidechain{
			AgentID: sa.AgentID, Source: st.Path, Records: len(recs),
			Models: su.models, Usage: su.result(), Entries: sb.entries(recs),
		})
		x.Problems = append(x.Problems, st.Summary.Problems...)
	}
	for _, m := range usage.models {
		if !containsString(x.Models, m) {
			x.Models = append(x.Models, m)
		}
	}
	if x.Models == nil {
		x.Models = []string{}
	}
	x.Usage = usage.result()
	for _, r := range t.LegacySummaries() {
		x.LegacySummaries = append(x.LegacySummaries, r.Summary)
	}
	for _, r := range t.Records {
		if r.UUID != "" && t.Get(r.UUID) == r && !covered[r] && !b.inBranch[r] {
			x.Unexported++
		}
	}
	return x
}

func treeUsage(u *usageCounter, t *model.Transcript) {
	for _, r := range t.Records {
		u.add(r)
	}
}

func treeSidechainRecords(t *model.Transcript, root *model.Record) []*model.Record {
	seen := map[*model.Record]bool{root: true}
	out := []*model.Record{root}
	for i := 0; i < len(out); i++ {
		for _, c := range t.Children(out[i].UUID) {
			if c.IsSidechain && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func (b *treeBuilder) branches(covered map[*model.Record]bool) []Branch {
	out := []Branch{}
	for _, br := range b.t.Branches() {
		for _, c := range br.Children {
			if covered[c] || b.inBranch[c] {
				continue
			}
			recs := b.followNewest(c, covered)
			out = append(out, Branch{Parent: br.Parent.UUID, ParentLine: br.Parent.Line, From: c.UUID, Entries: b.entries(recs)})
		}
	}
	return out
}

func (b *treeBuilder) followNewest(r *model.Record, covered map[*model.Record]bool) []*model.Record {
	var out []*model.Record
	for r != nil && !covered[r] && !b.inBranch[r] {
		b.inBranch[r] = true
		out = append(out, r)
		var next *model.Record
		for _, c := range b.t.Children(r.UUID) {
			if !c.IsSidechain {
				next = c
			}
		}
		r = next
	}
	return out
}
