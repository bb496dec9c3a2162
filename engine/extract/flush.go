package extract

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/model"
)

// FlushConfig configures a FlushExtractor.
type FlushConfig struct {
	// Extractor proposes the memories; RuleExtractor when nil.
	Extractor Extractor
	// Existing are the memories on disk, for deduplication.
	Existing []ExistingMemory
	// Transcript, when set, is where the messages come from: it gives each
	// prompt its session id and time and says which records are sidechain,
	// meta or transcript-only. Messages built by hand need none.
	Transcript *model.Transcript
	// Collapse is the pipeline state's collapse store (&state.Collapse),
	// so folds committed before autocompact are read as the messages they
	// stand for; without it a fold's prompts are not read.
	Collapse *compact.CollapseStore
	// SessionID is used for messages the transcript does not know.
	SessionID string
	// Location is the user's time zone for relative dates; nil means UTC.
	Location *time.Location
	// Context bounds every extraction (FlushHook has no context of its
	// own); nil means context.Background().
	Context context.Context
}

// FlushRun is what one call of the flush hook did.
type FlushRun struct {
	// Handed is how many messages autocompact handed over; Expanded how
	// many that is with context-collapse folds expanded (FlushConfig.Collapse);
	// New how many of those no earlier call had seen.
	Handed   int `json:"handed"`
	Expanded int `json:"expanded"`
	New      int `json:"new"`
	// From and To number the messages extracted, [From, To), in arrival
	// order across calls. From == To when nothing ran: fewer than
	// MinNewMessages messages had arrived since the last extraction.
	From int `json:"from"`
	To   int `json:"to"`
	// Prompts counts the user prompts read; Candidates what they gave.
	Prompts    int    `json:"prompts"`
	Candidates int    `json:"candidates"`
	Error      string `json:"error,omitempty"`
	// Final marks the call of Finish: what was left below MinNewMessages
	// at the end, extracted all the same.
	Final bool `json:"final,omitempty"`
}

// FlushExtractor is the pre-compaction flush: a FlushHook that hands the
// messages autocompact is about to summarize to an Extractor, through a
// Coordinator (so its watermark keeps messages from being extracted twice
// and MinNewMessages applies), and collects the candidates. It never
// writes: the caller decides what to save. It is safe for concurrent use;
// a call that arrives during an extraction is coalesced into it.
type FlushExtractor struct {
	cfg   FlushConfig
	coord *Coordinator

	Mu sync.Mutex
	// log is every message handed over, in arrival order, each real
	// message once: the numbering the coordinator's counts refer to.
	Log  []compact.Msg
	seen map[string]bool
	res  Result
	runs []FlushRun
	// prompts counts the prompts every extraction read, so a call can
	// tell what the extractions during it did.
	prompts int
}

// NewFlushExtractor returns a flush hook configured by cfg.
func NewFlushExtractor(cfg FlushConfig) *FlushExtractor {
	if cfg.Extractor == nil {
		cfg.Extractor = RuleExtractor{}
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	f := &FlushExtractor{cfg: cfg, seen: map[string]bool{},
		res: Result{Candidates: []Candidate{}, Duplicates: []DuplicateCandidate{}, Rejected: []Rejection{}}}
	f.coord = NewCoordinator(f.extract)
	return f
}

// BeforeCompact implements FlushHook: it adds the messages not seen
// before to the log and requests an extraction up to its end. The error
// is the extraction's (the pipeline reports it and compacts anyway).
func (f *FlushExtractor) BeforeCompact(msgs []compact.Msg) error {
	run := FlushRun{Handed: len(msgs)}
	if f.cfg.Collapse != nil {
		msgs = f.cfg.Collapse.Expand(msgs)
	}
	run.Expanded = len(msgs)
	f.Mu.Lock()
	for _, m := range msgs {
		// The same messages come again when a compaction failed and the
		// next turn (or a reactive compact) tries again.
		if m.UUID != "" {
			if f.seen[m.UUID] {
				continue
			}
			f.seen[m.UUID] = true
		}
		f.Log = append(f.Log, m)
		run.New++
	}
	n := len(f.Log)
	prompts, cands := f.prompts, len(f.res.Candidates)
	f.Mu.Unlock()

	run.From = f.coord.State().Watermark
	err := f.coord.RequestExtraction(f.cfg.Context, n)

	f.Mu.Lock()
	defer f.Mu.Unlock()
	run.To = max(f.coord.State().Watermark, run.From)
	run.Prompts, run.Candidates = f.prompts-prompts, len(f.res.Candidates)-cands
	if err != nil {
		run.Error = err.Error()
	}
	f.runs = append(f.runs, run)
	return err
}

// Finish extracts what the flushes left below MinNewMessages: call it
// once the pipeline is done (the session's last compaction), since no
// later flush will come to carry those messages over the threshold. It
// adds a run marked Final when it had anything to read.
func (f *FlushExtractor) Finish() error {
	f.Mu.Lock()
	prompts, cands := f.prompts, len(f.res.Candidates)
	f.Mu.Unlock()
	from := f.coord.State().Watermark
	err := f.coord.Drain(f.cfg.Context)
	to := f.coord.State().Watermark
	if to == from && err == nil {
		return nil
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	run := FlushRun{From: from, To: max(to, from), Final: true,
		Prompts: f.prompts - prompts, Candidates: len(f.res.Candidates) - cands}
	if err != nil {
		run.Error = err.Error()
	}
	f.runs = append(f.runs, run)
	return err
}

// extract is the coordinator's ExtractFunc: the prompts among messages
// [from, to), deduplicated against the existing memories and everything
// proposed so far.
func (f *FlushExtractor) extract(ctx context.Context, from, to int) error {
	f.Mu.Lock()
	msgs := slices.Clone(f.Log[from:to])
	existing := append(slices.Clone(f.cfg.Existing), ExistingFromCandidates(f.res.Candidates)...)
	f.Mu.Unlock()

	inputs := f.inputs(msgs)
	res, err := f.cfg.Extractor.Extract(ctx, inputs, existing)
	if err != nil {
		return err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.res.Candidates = append(f.res.Candidates, res.Candidates...)
	f.res.Duplicates = append(f.res.Duplicates, res.Duplicates...)
	f.res.Rejected = append(f.res.Rejected, res.Rejected...)
	f.prompts += len(inputs)
	return nil
}

// inputs turns the user prompts among msgs into extractor input, with the
// session and time their records give.
func (f *FlushExtractor) inputs(msgs []compact.Msg) []Input {
	var out []Input
	for _, m := range msgs {
		if m.Kind != compact.MsgPrompt {
			continue
		}
		in := Input{SessionID: f.cfg.SessionID, UUID: m.UUID}
		if f.cfg.Transcript != nil {
			if r := f.cfg.Transcript.Get(m.UUID); r != nil {
				if promptSkip(r) != "" {
					continue
				}
				if r.SessionID != "" {
					in.SessionID = r.SessionID
				}
				in.Timestamp = inZone(r.Timestamp, f.cfg.Location)
			}
		}
		text, skip := blocksText(m.Blocks, msgBlock)
		if skip != "" {
			continue
		}
		in.Text = text
		out = append(out, in)
	}
	return out
}

// Result returns every candidate, duplicate and rejection the flushes
// produced so far.
func (f *FlushExtractor) Result() Result {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return Result{Candidates: slices.Clone(f.res.Candidates), Duplicates: slices.Clone(f.res.Duplicates), Rejected: slices.Clone(f.res.Rejected)}
}

// Runs returns what each call of the hook did, in order.
func (f *FlushExtractor) Runs() []FlushRun {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return slices.Clone(f.runs)
}

// State returns the coordinator's state (watermark, runs).
func (f *FlushExtractor) State() CoordinatorState { return f.coord.State() }
