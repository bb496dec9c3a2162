package sessions

import (
	"fmt"
	"sync"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Summarizing is one transcript's summary (ScanAll's, without ccusage's
// usage lines) read a line at a time by a reader it shares
// (engine/homepass): stat's per-file summaries on a cold start.
type Summarizing struct {
	w     *scanWorker
	name  string
	out   FileScan
	valid bool
}

var workers = sync.Pool{New: func() any { return newScanWorker(false) }}

// summaryWorker is a worker of the pool, ready for the summary of the
// transcript name (Put it back when done).
func summaryWorker(name string) *scanWorker {
	w := workers.Get().(*scanWorker)
	clear(w.seen)
	w.z.Reset(name)
	w.name = name
	w.ls.js.Keep = nil
	return w
}

// NewSummarizing starts the summary of the transcript name.
func NewSummarizing(name string) *Summarizing {
	return &Summarizing{w: summaryWorker(name), name: name}
}

// KeepTop says whether to keep each line's top-level members (Top) for
// another reader of the same lines (homepass.Walker); not kept unless
// asked, which costs a little each line.
func (s *Summarizing) KeepTop(keep bool) {
	if keep {
		s.w.ls.js.Keep = &s.w.ls.kept
	} else {
		s.w.ls.js.Keep = nil
	}
}

// Line reads the next line.
func (s *Summarizing) Line(l model.Line) { s.valid = s.w.line(&s.out, l) }

// Valid says the line Line read last is one valid JSON object
// (jsonscan's rule, which it checked whole): another reader of the same
// line need not check it again.
func (s *Summarizing) Valid() bool { return s.valid }

// Record is how the summary counted the line Line read last
// (homepass.Recorder): its record, read here, valid until the next
// Line; a blank line; or a line left to the transcript reader, which a
// reader taking the summary's word (the Projects list's last activity,
// the Replay list's followers) reads itself.
func (s *Summarizing) Record() (*model.SummaryRecord, homepass.Read) {
	switch s.w.read {
	case readRecord:
		return &s.w.rec, homepass.ReadRecord
	case readBlank:
		return nil, homepass.ReadBlank
	}
	return nil, homepass.ReadByModel
}

// Top is the top-level members of the line Line read last, as it walked
// them checking the line (KeepTop(true) first; nil when not kept or when
// Valid is false): another reader of the same line need not walk it
// again.
func (s *Summarizing) Top() *jsonscan.Top {
	if !s.valid || s.w.ls.js.Keep == nil {
		return nil
	}
	return s.w.ls.js.Keep
}

// Summary is the file's summary once its n bytes were read, err the
// read's error (reported in the summary's problems as ScanAll reports
// it). The Summarizing is done with.
func (s *Summarizing) Summary(n int64, err error) model.TranscriptSummary {
	sum := s.w.z.Summary(n)
	workers.Put(s.w)
	s.w = nil
	if err != nil {
		sum.Problems = append(sum.Problems, model.Problem{File: s.name, Kind: model.ProblemUnreadable, Reason: fmt.Errorf("read %s: %w", s.name, err).Error()})
	}
	return sum
}
