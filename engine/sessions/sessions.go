package sessions

import (
	"cmp"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/model"
)

// Row is one session of a home: its main transcript and the
// transcripts of its subagents (projects/<slug>/<id>/subagents/), which
// belong to it: their records, bytes and usage are in the row, and
// SubagentUsage says how much of Usage they account for.
type Row struct {
	SessionID string `json:"sessionId"`
	// Project is the session's real folder (the first cwd of its
	// transcripts, else of another session of the same project folder);
	// "" when no transcript says.
	Project     string `json:"project"`
	ProjectSlug string `json:"projectSlug,omitempty"`
	// Kind is main for projects/<slug>/<id>.jsonl, seed for the older
	// sessions/<id>/transcript.jsonl layout.
	Kind model.TranscriptKind `json:"kind"`
	// Path is the main transcript, relative to the home; "" when only
	// subagent transcripts of the session are left.
	Path      string `json:"path,omitempty"`
	Subagents int    `json:"subagents"`
	// Agents are the subagents' transcripts, labelled from their meta
	// files when the client wrote them (2.1.331).
	Agents  []Agent `json:"agents,omitempty"`
	Bytes   int64   `json:"bytes"`
	Records int     `json:"records"`
	// CompactBoundaries and MicrocompactBoundaries count compaction
	// records.
	CompactBoundaries      int `json:"compactBoundaries"`
	MicrocompactBoundaries int `json:"microcompactBoundaries"`
	// Usage sums API usage once per message.id+requestId across the whole
	// home, as ccusage does; Responses counts the lines summed.
	Usage         model.Usage `json:"usage"`
	SubagentUsage model.Usage `json:"subagentUsage"`
	Responses     int         `json:"responses"`
	// First and Last are the earliest and latest record timestamps.
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
	// Problems counts the lines of the session's files that were skipped
	// or read with a fault (listed in SessionsReport.Problems).
	Problems int `json:"problems"`
	// CostUSD is what the session's responses cost (engine/pricing);
	// Models breaks usage and cost down by model. UnpricedModels are the
	// models the price table does not know (their tokens are not in
	// CostUSD).
	CostUSD        float64             `json:"costUSD"`
	Models         []pricing.ModelCost `json:"models"`
	UnpricedModels []string            `json:"unpricedModels,omitempty"`
	// ClientCostUSD is what the client itself counted in its cost-state
	// records (the last figure of each process that wrote the session):
	// it includes calls whose usage is not in the transcript, such as
	// compaction summaries. 0 when the transcripts have none.
	ClientCostUSD float64 `json:"clientCostUSD,omitempty"`
	// Earlier are the session's older transcript copies a local GC kept
	// (<session>/before-cleanup/*.jsonl.replaced): its history before a
	// boundary that the rewritten transcript no longer holds. They are
	// not in the counts (ccusage does not read them either).
	Earlier []model.TranscriptFile `json:"earlierHistory,omitempty"`
	cost    pricing.Sum
}

// Agent is one subagent transcript of a session.
type Agent struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	Records int    `json:"records"`
	// Meta is what agent-<id>.meta.json says; nil when there is none
	// (older clients) or it does not read (then in Report.Problems).
	Meta *model.SubagentMeta `json:"meta,omitempty"`
}

// Totals sums the rows of a report.
type Totals struct {
	Sessions               int         `json:"sessions"`
	Transcripts            int         `json:"transcripts"`
	SubagentTranscripts    int         `json:"subagentTranscripts"`
	Bytes                  int64       `json:"bytes"`
	Records                int         `json:"records"`
	CompactBoundaries      int         `json:"compactBoundaries"`
	MicrocompactBoundaries int         `json:"microcompactBoundaries"`
	Usage                  model.Usage `json:"usage"`
	SubagentUsage          model.Usage `json:"subagentUsage"`
	Responses              int         `json:"responses"`
	Problems               int         `json:"problems"`
	// CostUSD sums the sessions' costs; Models is the home's usage and
	// cost by model; UnpricedUsage counts the tokens of UnpricedModels.
	CostUSD        float64             `json:"costUSD"`
	Models         []pricing.ModelCost `json:"models"`
	UnpricedUsage  model.Usage         `json:"unpricedUsage"`
	UnpricedModels []string            `json:"unpricedModels,omitempty"`
	ClientCostUSD  float64             `json:"clientCostUSD,omitempty"`
}

// Pricing says which price table the costs come from.
type Pricing struct {
	Date string `json:"date"`
	// File is the --pricing file merged over the embedded table; Base is
	// then the embedded table's date.
	File   string `json:"file,omitempty"`
	Base   string `json:"base,omitempty"`
	Source string `json:"source"`
}

// Report is what `memscope sessions` prints: one row per session,
// sorted by project, then start time.
type Report struct {
	Home   string `json:"home"`
	Source string `json:"source"`
	Demo   bool   `json:"demo"`
	// Vault is set when the sessions are those only the rescue vault
	// holds (the caller's view of it as the home).
	Vault    string          `json:"vault,omitempty"`
	Sessions []Row           `json:"sessions"`
	Totals   Totals          `json:"totals"`
	Pricing  Pricing         `json:"pricing"`
	Problems []model.Problem `json:"problems"`
}

// Options say which home to report on.
type Options struct {
	Home *model.Home
	// ProjectSlug limits the report to one projects/<slug> folder; "" is
	// every session, seed-layout ones included.
	ProjectSlug string
	// Workers bounds the files read at once (default: the CPUs).
	Workers int
	// Prices prices the usage; nil is the embedded table.
	Prices *pricing.Table
	// Cache keeps each transcript's scan across runs (nil: none), so a
	// report after a change reads only the transcripts that changed.
	Cache *diskcache.Store
}

// Summarize reads every transcript of a home once, on all CPUs, and sums
// each session. Usage is counted the way ccusage 18.0.11 counts it, so
// the totals agree with `ccusage session --json --offline`: a response
// (message.id + requestId) counts once in the whole home, in the file
// whose earliest timestamp comes first, and lines missing either id
// always count.
func Summarize(o Options) Report {
	h := o.Home
	rep := Report{Home: h.Dir, Source: string(h.Source), Demo: h.Source == model.HomeFromDemo}
	prices := o.Prices
	if prices == nil {
		t := pricing.Embedded()
		prices = &t
	}
	rep.Pricing = Pricing{Date: prices.Date, File: prices.File, Base: prices.Base, Source: prices.Source}
	sf, probs := model.FindSessionFiles(h.FS)
	files := sf.Transcripts[:0:0]
	for _, t := range sf.Transcripts {
		if o.ProjectSlug == "" || t.ProjectSlug == o.ProjectSlug {
			files = append(files, t)
		}
	}
	scans := scanCached(h.FS, o.Cache, h.Dir, files, sf.Transcripts, o.Workers)

	rows := map[string]*Row{}
	var order []string
	cwdBySlug := map[string]string{}
	for i, t := range files {
		s := &scans[i]
		k := rowKey(t)
		r := rows[k]
		if r == nil {
			r = &Row{SessionID: t.SessionID, ProjectSlug: t.ProjectSlug, Kind: t.Kind}
			if t.Kind == model.TranscriptSubagent {
				r.Kind = model.TranscriptMain
			}
			rows[k] = r
			order = append(order, k)
		}
		addScan(r, t, s, prices)
		if t.Kind == model.TranscriptSubagent {
			a := Agent{ID: t.AgentID, Path: t.Path, Records: s.Sum.Records}
			if t.MetaPath != "" {
				if meta, err := model.ReadSubagentMeta(h.FS, t.MetaPath); err == nil {
					a.Meta = &meta
				} else {
					probs = append(probs, model.Problem{File: t.MetaPath, Kind: model.ProblemUnreadable, Reason: err.Error()})
					r.Problems++
				}
			}
			r.Agents = append(r.Agents, a)
		}
		if t.Kind != model.TranscriptSubagent && r.Project == "" {
			r.Project = s.Sum.CWD
		}
		if cwdBySlug[t.ProjectSlug] == "" {
			cwdBySlug[t.ProjectSlug] = s.Sum.CWD
		}
		probs = append(append(probs, s.Sum.Problems...), s.problems...)
	}
	// A session whose main transcript names no folder takes the one of its
	// subagents, else the one of its project's other sessions.
	for i, t := range files {
		if r := rows[rowKey(t)]; r.Project == "" && t.Kind == model.TranscriptSubagent {
			r.Project = scans[i].Sum.CWD
		}
	}
	for _, r := range rows {
		if r.Project == "" && r.ProjectSlug != "" {
			r.Project = cwdBySlug[r.ProjectSlug]
		}
	}
	for _, t := range sf.Replaced {
		if r := rows[rowKey(t)]; r != nil {
			r.Earlier = append(r.Earlier, t)
		}
	}
	rep.Sessions = make([]Row, 0, len(order))
	for _, k := range order {
		rep.Sessions = append(rep.Sessions, *rows[k])
	}
	slices.SortStableFunc(rep.Sessions, func(a, b Row) int {
		return cmp.Or(cmp.Compare(a.Project, b.Project), a.First.Compare(b.First), cmp.Compare(a.SessionID, b.SessionID))
	})
	var all pricing.Sum
	for i := range rep.Sessions {
		r := &rep.Sessions[i]
		r.Models = r.cost.Models()
		r.CostUSD, _, r.UnpricedModels = r.cost.Total()
		all.Merge(r.cost)
		r.cost = pricing.Sum{}
		t := &rep.Totals
		t.Sessions++
		t.Transcripts += r.Subagents
		if r.Path != "" {
			t.Transcripts++
		}
		t.SubagentTranscripts += r.Subagents
		t.Bytes += r.Bytes
		t.Records += r.Records
		t.CompactBoundaries += r.CompactBoundaries
		t.MicrocompactBoundaries += r.MicrocompactBoundaries
		t.Usage = t.Usage.Add(r.Usage)
		t.SubagentUsage = t.SubagentUsage.Add(r.SubagentUsage)
		t.Responses += r.Responses
		t.ClientCostUSD += r.ClientCostUSD
	}
	rep.Totals.Models = all.Models()
	rep.Totals.CostUSD, rep.Totals.UnpricedUsage, rep.Totals.UnpricedModels = all.Total()
	rep.Problems = SortProblems(probs)
	rep.Totals.Problems = len(rep.Problems)
	return rep
}

// SortProblems orders problems by file, then line, keeping the order of
// those on one line; it never returns nil, so JSON shows [].
func SortProblems(probs []model.Problem) []model.Problem {
	sort.SliceStable(probs, func(i, j int) bool {
		if probs[i].File != probs[j].File {
			return probs[i].File < probs[j].File
		}
		return probs[i].Line < probs[j].Line
	})
	if probs == nil {
		return []model.Problem{}
	}
	return probs
}

// rowKey names the session a transcript belongs to: a subagent's and
// an older copy's are their session's.
func rowKey(t model.TranscriptFile) string {
	kind := t.Kind
	if kind == model.TranscriptSubagent || kind == model.TranscriptReplaced {
		kind = model.TranscriptMain
	}
	return string(kind) + "\x00" + t.ProjectSlug + "\x00" + t.SessionID
}

// addScan adds one transcript's scan to its session's row.
func addScan(r *Row, t model.TranscriptFile, s *FileScan, prices *pricing.Table) {
	if t.Kind == model.TranscriptSubagent {
		r.Subagents++
	} else {
		r.Path = t.Path
	}
	r.Bytes += s.Sum.Bytes
	r.Records += s.Sum.Records
	r.CompactBoundaries += s.Sum.CompactBoundaries
	r.MicrocompactBoundaries += s.Sum.MicrocompactBoundaries
	r.Problems += len(s.Sum.Problems) + len(s.problems)
	s.usage.each(func(u *packLine) {
		r.Usage = r.Usage.Add(u.price.Usage)
		r.Responses++
		r.cost.Add(prices, u.price)
		if t.Kind == model.TranscriptSubagent {
			r.SubagentUsage = r.SubagentUsage.Add(u.price.Usage)
		}
	})
	for _, c := range s.clientCost {
		r.ClientCostUSD += c
	}
	if f := s.Sum.First; !f.IsZero() && (r.First.IsZero() || f.Before(r.First)) {
		r.First = f
	}
	if s.Sum.Last.After(r.Last) {
		r.Last = s.Sum.Last
	}
}

// dedupeLikeCcusage drops the usage lines whose message.id+requestId was
// counted in another file. ccusage reads files in order of their earliest
// timestamp (files without one last), so the same order decides here
// which file keeps a response copied into several (a resumed or forked
// session); ties keep path order.
func dedupeLikeCcusage(files []model.TranscriptFile, scans []FileScan) {
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		fa, fb := scans[a].Sum.First, scans[b].Sum.First
		switch {
		case fa.IsZero() != fb.IsZero():
			if fa.IsZero() {
				return 1
			}
			return -1
		case !fa.Equal(fb):
			return fa.Compare(fb)
		}
		return cmp.Compare(files[a].Path, files[b].Path)
	})
	n := 0
	for i := range scans {
		n += scans[i].usage.keyCount()
	}
	seen := newKeySet(n)
	var l packLine
	for _, i := range idx {
		p := &scans[i].usage
		p.dropped = p.dropped[:0]
		r := packReader{p: p}
		for j := 0; r.next(&l); j++ {
			if !l.keyed {
				continue
			}
			if seen.add(l.key) {
				p.dropped = append(p.dropped, int32(j))
			}
		}
	}
}

// ScanAll scans files on a pool of workers, biggest first so one large
// file does not finish last alone. Results are in input order; a file
// that cannot be read is reported in its summary's problems. With
// ccusage set, the usage lines ccusage counts are collected too.
func ScanAll(fsys fs.FS, files []model.TranscriptFile, workers int, ccusage bool) []FileScan {
	return scanAll(fsys, files, workers, ccusage, nil)
}

// ScanAllStamping is ScanAll for a per-file cache whose files have no
// entry yet (diskcache.PerFileStamping): each file is stamped from the
// open that reads it, before the read, and stamp(i, st) told for
// files[i] (from several goroutines, each i once), instead of a second
// open and head read to stamp it first.
func ScanAllStamping(fsys fs.FS, files []model.TranscriptFile, workers int, ccusage bool, stamp func(i int, st model.FileStamp)) []FileScan {
	return scanAll(fsys, files, workers, ccusage, stamp)
}

// scanAll is ScanAll; with stamp set, ScanAllStamping.
func scanAll(fsys fs.FS, files []model.TranscriptFile, workers int, ccusage bool, stamp func(i int, st model.FileStamp)) []FileScan {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return files[order[a]].Size > files[order[b]].Size })
	out := make([]FileScan, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(files)) {
		wg.Go(func() {
			w := newScanWorker(ccusage)
			for i := range jobs {
				var stampI func(model.FileStamp)
				if stamp != nil {
					stampI = func(st model.FileStamp) { stamp(i, st) }
				}
				s, err := w.scanFile(fsys, files[i].Path, stampI)
				if err != nil {
					s.Sum.Problems = append(s.Sum.Problems, model.Problem{File: files[i].Path, Kind: model.ProblemUnreadable, Reason: err.Error()})
				}
				out[i] = s
			}
		})
	}
	for _, i := range order {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}
