package export

import (
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// ScanOptions are the options to read a transcript for an export
// with: text to show, and the raw lines for tool inputs (which the model
// sizes but does not keep).
var ScanOptions = model.ScanOptions{Content: true, KeepText: true, KeepRaw: true}

// Input is what BuildSessionExport works from.
type Input struct {
	// Transcript is the session, read with ExportScanOptions.
	Transcript *model.Transcript
	// Subagents are the session's subagent transcripts (read the same way).
	Subagents []SubagentTranscript
	// History holds prompts from history.jsonl; only those of this session
	// are used, to expand "[Pasted text #N]" placeholders.
	History []*model.HistoryEntry
	// Pastes resolves paste hashes (a *model.PasteCache); nil leaves
	// hashed pastes unresolved.
	Pastes PasteResolver
	Now    time.Time
}

// SubagentTranscript is one projects/<slug>/<session>/subagents/agent-<id>.jsonl.
type SubagentTranscript struct {
	AgentID    string
	Transcript *model.Transcript
}

// PasteResolver finds the text of a paste hash.
type PasteResolver interface {
	Resolve(h model.PasteHash) model.PasteResolution
}

// BuildSessionExport turns a transcript into a SessionExport. The main
// chain is walked from the leaf the client resumes from (the newest
// last-prompt's leaf, else the newest non-sidechain record) up to the
// start of the session, across compactions through their
// logicalParentUuid, so the whole conversation is there with each
// compaction marked where it happened. It never fails: what cannot be
// read is left out and said in Problems or Unexported.
func BuildSessionExport(in Input) *SessionExport {
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
	b := newExportBuilder(t, pm)
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
	usage.add(t)
	x.Models = append(x.Models, usage.models...)
	for _, sc := range t.Sidechains() {
		recs := sidechainRecords(t, sc.Root)
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
		sb := newExportBuilder(st, pm)
		var recs []*model.Record
		for _, r := range st.Records {
			if r.UUID != "" && st.Get(r.UUID) == r {
				recs = append(recs, r)
			}
		}
		su := newUsageCounter()
		su.add(st)
		usage.add(st)
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

func containsString(ss []string, s string) bool {
	for _, v := range ss {
		if v == s {
			return true
		}
	}
	return false
}

// sidechainRecords is a sidechain's root and every sidechain record under
// it, in file order; the visited set stops cycles.
func sidechainRecords(t *model.Transcript, root *model.Record) []*model.Record {
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

// usageCounter sums usage once per message.id+requestId.
type usageCounter struct {
	seen    map[string]bool
	total   Usage
	byModel map[string]*ModelUsage
	models  []string
}

func newUsageCounter() *usageCounter {
	return &usageCounter{seen: map[string]bool{}, byModel: map[string]*ModelUsage{}, models: []string{}}
}

// branches exports, for every rewind point in file order, each child that
// is not yet covered, following the newest child down to a leaf.
func (b *exportBuilder) branches(covered map[*model.Record]bool) []Branch {
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

// followNewest returns r and, repeatedly, the newest non-sidechain child,
// stopping at a leaf, at a record already exported or at a cycle.
func (b *exportBuilder) followNewest(r *model.Record, covered map[*model.Record]bool) []*model.Record {
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

func (u *usageCounter) add(t *model.Transcript) {
	for _, r := range t.Records {
		if r.Type != model.RecordAssistant || r.Message == nil {
			continue
		}
		m := r.Message
		if m.Model != "" && u.byModel[m.Model] == nil {
			u.byModel[m.Model] = &ModelUsage{Model: m.Model}
			u.models = append(u.models, m.Model)
		}
		if m.Usage == nil {
			continue
		}
		// Like the transcript summary: a response without ids counts
		// every time, since nothing says two lines are the same one.
		if key := m.ID + "\x00" + r.RequestID; m.ID != "" || r.RequestID != "" {
			if u.seen[key] {
				continue
			}
			u.seen[key] = true
		}
		u.total.Responses++
		u.total.Tokens = u.total.Tokens.Add(*m.Usage)
		if mu := u.byModel[m.Model]; mu != nil {
			mu.Responses++
			mu.Tokens = mu.Tokens.Add(*m.Usage)
		}
	}
}

func (u *usageCounter) result() Usage {
	out := Usage{Responses: u.total.Responses, Tokens: u.total.Tokens, ByModel: []ModelUsage{}}
	for _, m := range u.models {
		out.ByModel = append(out.ByModel, *u.byModel[m])
	}
	return out
}
