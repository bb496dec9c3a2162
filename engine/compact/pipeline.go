package compact

import (
	"errors"
	"fmt"
	"time"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// StageName names a pipeline stage.
type StageName string

// The five stages, in the order they run: cheap before expensive,
// reversible before destructive.
const (
	StageToolResultBudget StageName = "tool-result-budget"
	StageSnip             StageName = "snip"
	StageMicrocompact     StageName = "microcompact"
	StageCollapse         StageName = "context-collapse"
	StageAutocompact      StageName = "autocompact"
	// StageManualCompact is the compaction a user asks for (/compact),
	// run alone by RunManualCompact.
	StageManualCompact StageName = "manual-compact"
)

// Config holds every parameter of the pipeline. Defaults() gives
// the client's constants where they are public (FORMATS.md) and
// documented choices where they are not (snip, collapse).
type Config struct {
	Window window.Config

	// Stage 1, tool-result budget (client constants): a result over
	// ToolResultMaxChars, or the largest results of a message whose
	// results together exceed MessageResultMaxChars, is replaced by its
	// first PreviewBytes and a placeholder naming where the original went.
	// The limits count characters as the client does (UTF-16 code units,
	// String.length); the preview is in bytes, cut on a character boundary.
	ToolResultMaxChars    int
	MessageResultMaxChars int
	PreviewBytes          int

	// Stage 2, snip (no public constants; memscope's choice): tool results
	// of SnipTools of at least SnipMinTokens are dropped, oldest first,
	// except in the first SnipProtectHead and last SnipProtectTail
	// messages, until the context fits.
	SnipProtectHead int
	SnipProtectTail int
	SnipMinTokens   window.Tokens
	SnipTools       []string

	// Stage 3, microcompact (client constants): results of
	// CompactableTools older than the MicrocompactKeepRecent newest are
	// cleared, but only when that saves at least MicrocompactMinSavings.
	CompactableTools       []string
	MicrocompactKeepRecent int
	MicrocompactMinSavings window.Tokens

	// Stage 4, context collapse (no public constants; memscope's choice):
	// messages older than the last CollapseProtectTail are staged in spans
	// of CollapseSpan messages; each span folds into a summary of at most
	// CollapseSummaryBytes. Spans are committed oldest first until the
	// context fits; the rest stay staged for prompt-too-long recovery.
	CollapseProtectTail  int
	CollapseSpan         int
	CollapseSummaryBytes int

	// Stage 5, autocompact: the messages are summarized by Summarizer
	// (the extractive default when nil), after being handed to FlushHook
	// (when set). The last PreserveRecent messages are kept verbatim
	// after the summary (a partial compaction); 0 summarizes everything.
	Summarizer     Summarizer
	FlushHook      FlushHook
	PreserveRecent int
	// Trigger is written into the boundary's compactMetadata.
	Trigger string
	// AutocompactOff is settings.json's autoCompactEnabled: false, with
	// which the client never compacts on its own: stage 5 reports it and
	// does nothing. A manual compaction (RunManualCompact) still runs.
	AutocompactOff bool

	// NewUUID makes record uuids (random v4 when nil; tests fix it).
	NewUUID func() string
}

// DefaultConfig returns the defaults for window w.
func DefaultConfig(w window.Config) Config {
	return Config{
		Window:                 w,
		ToolResultMaxChars:     50000,
		MessageResultMaxChars:  200000,
		PreviewBytes:           2000,
		SnipProtectHead:        2,
		SnipProtectTail:        8,
		SnipMinTokens:          1000,
		SnipTools:              []string{"Bash", "BashOutput", "Read", "Grep", "Glob", "LS", "WebFetch", "WebSearch"},
		CompactableTools:       []string{"Read", "Bash", "BashOutput", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "NotebookRead"},
		MicrocompactKeepRecent: 3,
		MicrocompactMinSavings: 20000,
		CollapseProtectTail:    8,
		CollapseSpan:           10,
		CollapseSummaryBytes:   600,
		Trigger:                string(model.TriggerAuto),
	}
}

// State is what the pipeline carries from one turn to the next.
type State struct {
	// ConsecutiveFailures counts autocompacts in a row that failed; at
	// MaxConsecutiveCompactFailures the circuit breaker stops trying.
	ConsecutiveFailures int
	// Collapse holds context-collapse commits and staged spans.
	Collapse CollapseStore
	// SideStore keeps the originals of budgeted tool results by tool_use id.
	SideStore map[string]Block
}

// StageResult is what one stage did.
type StageResult struct {
	Stage  StageName     `json:"stage"`
	Before window.Tokens `json:"before"`
	After  window.Tokens `json:"after"`
	Freed  window.Tokens `json:"freed"`
	// Acted is false when the stage ran but changed nothing.
	Acted bool `json:"acted"`
	// Items counts what the stage touched (results, spans, messages).
	Items  int    `json:"items"`
	Detail string `json:"detail"`
}

// Result is the outcome of one pipeline run.
type Result struct {
	Before   window.Tokens `json:"before"`
	After    window.Tokens `json:"after"`
	Stages   []StageResult `json:"stages"`
	Fits     bool          `json:"fits"`
	Messages []Msg         `json:"-"`
	// Records are transcript lines to append for what the client writes
	// (microcompact and compact boundaries, summary, last-prompt).
	Records [][]byte `json:"-"`
}

// ErrPromptTooLong is returned when recovery cannot bring the prompt under
// the window; the client exits with reason "prompt_too_long".
var ErrPromptTooLong = errors.New("prompt_too_long")

// stage is one step of the pipeline: it returns the new messages and what
// it did. Stages never see tokens they did not free themselves: the
// runner measures before and after.
type stage struct {
	name StageName
	run  func(p *pipelineRun, msgs []Msg) ([]Msg, StageResult)
}

// pipelineRun is the state of one call.
type pipelineRun struct {
	cfg   Config
	st    *State
	in    Input
	now   time.Time
	limit window.Tokens
	recs  [][]byte
	// offset is what the measured count holds beyond the estimate of the
	// input (tool definitions, tokenizer differences); it stays in every
	// figure, so a stage's freed tokens come off the measured count.
	offset window.Tokens
}

// newRun prepares one call of the pipeline on in.
func newRun(in Input, cfg Config, st *State, now time.Time, limit window.Tokens) *pipelineRun {
	p := &pipelineRun{cfg: cfg, st: st, in: in, now: now, limit: limit}
	if in.Measured > 0 {
		p.offset = in.Measured - in.Tokens()
	}
	return p
}

// Run runs the stages on in, in order, stopping as soon as the
// context is under the autocompact threshold. The running figure starts
// at in.Measured when set (else the estimate), and each stage's freed
// tokens lower the figure the next check uses. A stage whose output
// would be larger than its input is undone. st carries the circuit
// breaker and collapse store across turns; now stamps written records.
func Run(in Input, cfg Config, st *State, now time.Time) (Result, error) {
	if err := cfg.Window.Validate(); err != nil {
		return Result{}, err
	}
	p := newRun(in, cfg, st, now, cfg.Window.AutocompactAt())
	return p.runStages(pipelineStages(), in.Messages)
}

// pipelineStages is the five stages in the order they run.
func pipelineStages() []stage {
	return []stage{
		{StageToolResultBudget, (*pipelineRun).budget},
		{StageSnip, (*pipelineRun).snip},
		{StageMicrocompact, (*pipelineRun).microcompact},
		{StageCollapse, (*pipelineRun).collapse},
		{StageAutocompact, (*pipelineRun).autocompact},
	}
}

// RunManual is what /compact does: stage 5 alone, run whatever
// the context size, the autoCompactEnabled setting and the circuit
// breaker say, writing trigger "manual". A manual compaction neither
// counts towards the breaker nor resets it. Fits says whether the result
// is under the autocompact threshold.
func RunManual(in Input, cfg Config, st *State, now time.Time) (Result, error) {
	if err := cfg.Window.Validate(); err != nil {
		return Result{}, err
	}
	cfg.Trigger = string(model.TriggerManual)
	p := newRun(in, cfg, st, now, 0) // no threshold: the user asked
	manual := stage{StageManualCompact, func(p *pipelineRun, msgs []Msg) ([]Msg, StageResult) {
		return p.compact(msgs, compactManual)
	}}
	res, _ := p.runStages([]stage{manual}, in.Messages)
	res.Fits = res.After < cfg.Window.AutocompactAt()
	return res, nil
}

// RecoverPromptTooLong is what the client does when the API still
// rejects the prompt: commit every staged collapse; if the prompt is
// still over the effective window, one reactive compact (which ignores
// the circuit breaker); if that fails too, ErrPromptTooLong.
func RecoverPromptTooLong(in Input, cfg Config, st *State, now time.Time) (Result, error) {
	if err := cfg.Window.Validate(); err != nil {
		return Result{}, err
	}
	limit := cfg.Window.Effective()
	p := newRun(in, cfg, st, now, limit)
	drain := stage{StageCollapse, (*pipelineRun).drainCollapses}
	res, _ := p.runStages([]stage{drain}, in.Messages)
	if res.Fits {
		return res, nil
	}
	reactive := stage{StageAutocompact, func(p *pipelineRun, msgs []Msg) ([]Msg, StageResult) {
		return p.compact(msgs, compactReactive)
	}}
	res2, _ := p.runStages([]stage{reactive}, res.Messages)
	res.Stages = append(res.Stages, res2.Stages...)
	res.After, res.Messages, res.Fits, res.Records = res2.After, res2.Messages, res2.Fits, res2.Records
	if !res.Fits {
		return res, fmt.Errorf("%w: %d tokens after recovery, window allows %d", ErrPromptTooLong, res.After, limit)
	}
	return res, nil
}

// tokens is the running figure for msgs: the estimate, shifted to the
// measured count when there is one.
func (p *pipelineRun) tokens(msgs []Msg) window.Tokens {
	return max(p.in.System+msgTokens(msgs)+p.offset, 0)
}

func (p *pipelineRun) runStages(stages []stage, msgs []Msg) (Result, error) {
	res := Result{Before: p.tokens(msgs)}
	cur := res.Before
	for _, s := range stages {
		if cur < p.limit {
			break
		}
		nrecs := len(p.recs)
		out, sr := s.run(p, msgs)
		sr.Stage, sr.Before = s.name, cur
		sr.After = p.tokens(out)
		if sr.After > sr.Before {
			// Never let a stage grow the context: undo it and its records.
			sr.Detail = fmt.Sprintf("undone: it would have grown the context by %d tokens (%s)", sr.After-sr.Before, sr.Detail)
			sr.After, sr.Acted, out = sr.Before, false, msgs
			p.recs = p.recs[:nrecs]
		}
		sr.Freed = sr.Before - sr.After
		cur -= sr.Freed
		msgs = out
		res.Stages = append(res.Stages, sr)
	}
	res.After, res.Messages, res.Fits, res.Records = cur, msgs, cur < p.limit, p.recs
	return res, nil
}
