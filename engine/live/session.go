package live

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// ScanOptions is what Session needs decoded: content blocks (tool names
// and ids, tool result errors), no text.
var ScanOptions = model.ScanOptions{Content: true}

// DefaultRateWindow is the span tokens per minute is measured over.
const DefaultRateWindow = 10 * time.Minute

// keptTurns bounds the turn history a session keeps: the forecast needs
// ForecastSteps+1, the response ids of recent turns dedupe lines.
const keptTurns = 64

// SessionOptions configure a Session.
type SessionOptions struct {
	// Window is the model's context window. The zero value means the
	// 200k preset, switched to 1M once a turn holds more than 200k tokens
	// (transcripts do not say which window a model had).
	Window window.Config
	// Getenv reads CLAUDE_AUTOCOMPACT_PCT_OVERRIDE; nil reads nothing.
	Getenv func(string) string
	// AutocompactOff is the autoCompactEnabled: false setting: the
	// forecast then runs to the blocking level.
	AutocompactOff bool
	// Autocompact returns settings.json's autoCompactEnabled for a
	// session started in cwd and the settings file that set it ("" for
	// the default, on); nil leaves AutocompactOff alone. It is called
	// once, with the first cwd a record carries.
	Autocompact func(cwd string) (on bool, from string)
	// Settings returns the client's settings files for a session started
	// in cwd (window.Resolve reads its window, autocompact window,
	// autocompact switch and idle compaction there); nil reads none. It
	// is called once, with the first cwd a record carries.
	Settings func(cwd string) model.SettingsStack
	// MemoryDir returns the absolute memory folder of a session started
	// in cwd (see model.ResolveMemoryLocation); nil tracks no memory
	// writes. It is called once, with the first cwd a record carries.
	MemoryDir func(cwd string) string
	// RateWindow is the span TokensPerMinute covers (default 10 minutes).
	RateWindow time.Duration
	// Prices prices the usage (CostUSD); nil is the embedded table.
	Prices *pricing.Table
}

// Compaction is one compaction of a session, where Replay can jump to.
type Compaction struct {
	Kind    timeline.BoundaryKind `json:"kind"`
	UUID    string                `json:"uuid"`
	Line    int                   `json:"line"`
	Time    time.Time             `json:"time,omitzero"`
	Trigger model.CompactTrigger  `json:"trigger,omitempty"`
	// PreTokens and PostTokens are the client's figures; nil when missing.
	PreTokens  *int `json:"preTokens"`
	PostTokens *int `json:"postTokens"`
}

// MemoryWrite is a memory file a session wrote with Write, Edit or
// MultiEdit (Bash commands are not followed).
type MemoryWrite struct {
	// Path is the file as the tool named it; Name is relative to the
	// memory folder.
	Path string `json:"path"`
	Name string `json:"name"`
	// Tool and Line are the latest write's; Count counts the writes.
	Tool  string    `json:"tool"`
	Line  int       `json:"line"`
	Time  time.Time `json:"time,omitzero"`
	Count int       `json:"count"`
	// Failed says the latest write's tool result was an error.
	Failed bool `json:"failed,omitempty"`
}

// SessionStatus is where a session stands.
type SessionStatus struct {
	SessionID string `json:"sessionId"`
	// Transcript is the transcript's name in the home; Project the
	// session's startup folder (its first cwd).
	Transcript string `json:"transcript"`
	Project    string `json:"project,omitempty"`
	Model      string `json:"model,omitempty"`
	// Window is the window the levels come from; WindowGuessed says it
	// was chosen from the figures, not given.
	Window        window.Config       `json:"window"`
	WindowGuessed bool                `json:"windowGuessed,omitempty"`
	Thresholds    timeline.Thresholds `json:"thresholds"`
	// AutocompactOff says the client will not compact on its own
	// (autoCompactEnabled: false, in AutocompactOffIn when a settings file
	// said so): Level then never reads autocompact (a context past that
	// threshold is at the warning level until it blocks) and the forecast
	// runs to the blocking level.
	AutocompactOff   bool   `json:"autocompactOff,omitempty"`
	AutocompactOffIn string `json:"autocompactOffIn,omitempty"`
	// Limits is where the window and the autocompact level came from
	// (window.Resolve); nil when the Window was given.
	Limits *window.Resolved `json:"limits,omitempty"`
	// Context is what the last request put in the window (input + cache
	// read + cache creation of the last response, as Timeline.Turns
	// count it), or the client's postTokens when a compaction came
	// after it. ContextKnown is false before the first response, or after
	// a compaction without postTokens.
	Context      window.Tokens `json:"context"`
	ContextKnown bool          `json:"contextKnown"`
	// Fill is Context over the whole window, 0 to 1.
	Fill  float64      `json:"fill"`
	Level window.Level `json:"level"`
	// Turns counts the responses of the main conversation;
	// TurnsSinceCompaction those after the last compaction.
	Turns                int      `json:"turns"`
	TurnsSinceCompaction int      `json:"turnsSinceCompaction"`
	Forecast             Forecast `json:"forecast"`
	// TokensPerMinute is every token (input, output, cache read and
	// creation) of the responses in the last RateWindow, subagents'
	// included, per minute.
	TokensPerMinute float64       `json:"tokensPerMinute"`
	Compactions     []Compaction  `json:"compactions"`
	MemoryDir       string        `json:"memoryDir,omitempty"`
	MemoryWrites    []MemoryWrite `json:"memoryWrites"`
	// Subagents are the session's subagents, running ones first, then
	// the latest written (set by the Tracker).
	Subagents    []Subagent `json:"subagents,omitempty"`
	Started      time.Time  `json:"started,omitzero"`
	LastActivity time.Time  `json:"lastActivity,omitzero"`
	Records      int        `json:"records"`
	// CostUSD is the cost so far of the responses read (subagents'
	// included), from the price table (engine/pricing); CostPartial says
	// some responses were of a model the table does not price.
	CostUSD     float64 `json:"costUSD"`
	CostPartial bool    `json:"costPartial,omitempty"`
}

// turnPoint is one response of the main conversation.
type turnPoint struct {
	key     string
	context window.Tokens
}

// usagePoint is one response's tokens, for the rate.
type usagePoint struct {
	t      time.Time
	tokens int64
}

// Session is the state of one running session, built record by record
// from its transcript (and its subagents' usage) without keeping the
// records: feed it what model.TailTranscript reads.
type Session struct {
	opts       SessionOptions
	transcript string
	id, cwd    string
	model      string
	memDir     string
	memAsked   bool
	// acAsked says Autocompact was asked; acOff and acFrom are its answer.
	acAsked bool
	acOff   bool
	acFrom  string
	// settings are the client's settings files for the session's cwd.
	settings      model.SettingsStack
	settingsAsked bool
	// env reads the client's environment (/proc/<pid>/environ) when
	// envSet; env nil then means it is not readable.
	env     func(string) string
	envFrom string
	envSet  bool
	// autoPre are the preTokens of the automatic compactions.
	autoPre []window.Tokens
	started time.Time
	last    time.Time
	records int

	turns      int
	since      int         // turns since the last compaction
	recent     []turnPoint // the latest turns since the last compaction
	maxContext window.Tokens
	// context is the latest measured figure: the last turn's, or a
	// later compaction's postTokens.
	context      window.Tokens
	contextKnown bool

	compactions []Compaction
	rate        []usagePoint
	rateKeys    map[string]struct{}
	writes      []MemoryWrite
	writeByTool map[string]int // tool_use id → index in writes
	cost        pricing.Sum
}

// NewSession starts the state of the transcript named transcript.
func NewSession(transcript string, o SessionOptions) *Session {
	if o.RateWindow <= 0 {
		o.RateWindow = DefaultRateWindow
	}
	return &Session{opts: o, transcript: transcript, rateKeys: map[string]struct{}{}, writeByTool: map[string]int{}}
}

// Reset forgets everything (the transcript was replaced or truncated and
// is read again from its start).
func (s *Session) Reset() { *s = *NewSession(s.transcript, s.opts) }

// Add takes the next record of the session's transcript, with its line
// as written (line may be nil; memory writes are then not seen).
func (s *Session) Add(rec *model.Record, line []byte) {
	s.records++
	if s.id == "" {
		s.id = rec.SessionID
	}
	if s.cwd == "" && rec.CWD != "" {
		s.cwd = rec.CWD
	}
	if !s.memAsked && s.cwd != "" && s.opts.MemoryDir != nil {
		s.memAsked = true
		if d := s.opts.MemoryDir(s.cwd); d != "" {
			s.memDir = path.Clean(d)
		}
	}
	if !s.acAsked && s.cwd != "" && s.opts.Autocompact != nil {
		s.acAsked = true
		on, from := s.opts.Autocompact(s.cwd)
		s.acOff, s.acFrom = !on, from
	}
	if !s.settingsAsked && s.cwd != "" && s.opts.Settings != nil {
		s.settingsAsked = true
		s.settings = s.opts.Settings(s.cwd)
	}
	if t := rec.Timestamp; !t.IsZero() {
		if s.started.IsZero() || t.Before(s.started) {
			s.started = t
		}
		if t.After(s.last) {
			s.last = t
		}
	}
	switch {
	case rec.IsCompactBoundary() || rec.IsMicrocompactBoundary():
		s.compaction(rec)
	case timeline.IsTurn(rec):
		s.turn(rec)
	}
	s.AddUsage(rec)
	if m := rec.Message; m != nil && s.memDir != "" {
		s.memoryTools(rec, line)
	}
}

// AddUsage counts rec's tokens in the rate only: for the records of the
// session's subagent transcripts.
func (s *Session) AddUsage(rec *model.Record) {
	e, ok := UsageOf(rec)
	if !ok {
		return
	}
	if e.Key != "" {
		if _, dup := s.rateKeys[e.Key]; dup {
			return
		}
		s.rateKeys[e.Key] = struct{}{}
	}
	s.rate = append(s.rate, usagePoint{t: e.Time, tokens: TotalTokens(e.Usage)})
	prices := s.opts.Prices
	if prices == nil {
		t := pricing.Embedded()
		prices, s.opts.Prices = &t, &t
	}
	s.cost.Add(prices, pricing.ResponseOf(rec.Message))
	// Keep what the rate can still need, measured from the newest entry.
	if newest := s.rate[len(s.rate)-1].t; len(s.rate) > 2*keptTurns {
		cut := newest.Add(-s.opts.RateWindow)
		s.rate = slices.DeleteFunc(s.rate, func(p usagePoint) bool { return p.t.Before(cut) })
	}
}

func (s *Session) turn(rec *model.Record) {
	m := rec.Message
	if s.model == "" || m.Model != "" {
		s.model = m.Model
	}
	key, keyed := timeline.TurnKey(rec)
	ctx := window.Tokens(m.Usage.ContextTokens())
	if keyed && slices.ContainsFunc(s.recent, func(p turnPoint) bool { return p.key == key }) {
		return // another line of a response already counted
	}
	if !keyed {
		key = ""
	}
	s.turns++
	s.since++
	s.recent = append(s.recent, turnPoint{key: key, context: ctx})
	if len(s.recent) > keptTurns {
		s.recent = slices.Delete(s.recent, 0, len(s.recent)-keptTurns)
	}
	s.context, s.contextKnown = ctx, true
	s.maxContext = max(s.maxContext, ctx)
}

func (s *Session) compaction(rec *model.Record) {
	c := Compaction{Kind: timeline.BoundaryCompact, UUID: rec.UUID, Line: rec.Line, Time: rec.Timestamp}
	if m := rec.Microcompact; rec.IsMicrocompactBoundary() {
		c.Kind = timeline.BoundaryMicrocompact
		if m != nil {
			c.Trigger, c.PreTokens = m.Trigger, m.PreTokens
		}
		// A microcompact clears old tool results but keeps the turns.
		s.compactions = append(s.compactions, c)
		return
	}
	if m := rec.Compact; m != nil {
		c.Trigger, c.PreTokens, c.PostTokens = m.Trigger, m.PreTokens, m.PostTokens
		if m.Trigger == model.TriggerAuto && m.PreTokens != nil {
			s.autoPre = append(s.autoPre, window.Tokens(*m.PreTokens))
		}
	}
	s.compactions = append(s.compactions, c)
	s.since, s.recent = 0, s.recent[:0]
	s.contextKnown = c.PostTokens != nil
	if c.PostTokens != nil {
		s.context = window.Tokens(*c.PostTokens)
	}
}

// memoryTools notes Write, Edit and MultiEdit calls on files inside the
// memory folder, and a failed result of one.
func (s *Session) memoryTools(rec *model.Record, line []byte) {
	for _, b := range rec.Message.Content {
		switch {
		case b.Type == model.BlockToolResult && b.IsError:
			if i, ok := s.writeByTool[b.ToolUseID]; ok {
				s.writes[i].Failed = true
			}
		case b.Type == model.BlockToolUse && model.IsWriteTool(b.Name) && line != nil:
			s.noteWrites(rec, line)
			return
		}
	}
}

// toolLine is the part of an assistant line that names the files its
// tool calls write. The record decoder sizes tool inputs without keeping
// them, so the few lines that call a write tool are decoded again here.
type toolLine struct {
	Message struct {
		Content []struct {
			Type  string `json:"type"`
			ID    string `json:"id"`
			Name  string `json:"name"`
			Input struct {
				FilePath string `json:"file_path"`
			} `json:"input"`
		} `json:"content"`
	} `json:"message"`
}

func (s *Session) noteWrites(rec *model.Record, line []byte) {
	var tl toolLine
	if json.Unmarshal(line, &tl) != nil {
		return
	}
	for _, b := range tl.Message.Content {
		if b.Type != string(model.BlockToolUse) || !model.IsWriteTool(b.Name) {
			continue
		}
		p := path.Clean(b.Input.FilePath)
		name, ok := strings.CutPrefix(p, s.memDir+"/")
		if !ok || b.Input.FilePath == "" {
			continue
		}
		i := slices.IndexFunc(s.writes, func(w MemoryWrite) bool { return w.Path == p })
		if i < 0 {
			i = len(s.writes)
			s.writes = append(s.writes, MemoryWrite{Path: p, Name: name})
		}
		w := &s.writes[i]
		w.Tool, w.Line, w.Time, w.Failed = b.Name, rec.Line, rec.Timestamp, false
		w.Count++
		if b.ID != "" {
			s.writeByTool[b.ID] = i
		}
	}
}

// SetEnv gives the client's environment as read from its process
// (model.ReadProcEnviron); a nil getenv says it is not readable, and the
// limits then assume the settings files only.
func (s *Session) SetEnv(getenv func(string) string, from string) {
	s.env, s.envFrom, s.envSet = getenv, from, true
}

// Limits resolves the session's window and thresholds (window.Resolve)
// from its model, settings, environment and own compactions.
func (s *Session) Limits() window.Resolved {
	in := window.Input{Model: s.model, Settings: s.settings, MaxContext: s.maxContext, AutoPreTokens: s.autoPre}
	switch {
	case s.envSet:
		in.Getenv, in.EnvFrom = s.env, s.envFrom
	case s.opts.Getenv != nil:
		in.Getenv, in.EnvFrom = s.opts.Getenv, "memscope's environment"
	}
	return window.Resolve(in)
}

// Status is where the session stands at now.
func (s *Session) Status(now time.Time) SessionStatus {
	w, guessed := s.opts.Window, false
	var lim *window.Resolved
	if w == (window.Config{}) {
		r := s.Limits()
		lim, w, guessed = &r, r.Config, true
	} else {
		w = w.WithEnv(s.opts.Getenv)
	}
	st := SessionStatus{Limits: lim,
		SessionID: s.id, Transcript: s.transcript, Project: s.cwd, Model: s.model,
		Window: w, WindowGuessed: guessed,
		Thresholds: timeline.Thresholds{Effective: w.Effective(), Warning: w.WarningAt(), Autocompact: w.AutocompactAt(), Blocked: w.BlockedAt()},
		Context:    s.context, ContextKnown: s.contextKnown, Level: window.LevelOK,
		Turns: s.turns, TurnsSinceCompaction: s.since,
		Compactions: slices.Clone(s.compactions), MemoryDir: s.memDir, MemoryWrites: slices.Clone(s.writes),
		Started: s.started, LastActivity: s.last, Records: s.records,
	}
	var unpriced []string
	st.CostUSD, _, unpriced = s.cost.Total()
	st.CostPartial = len(unpriced) > 0
	if st.Compactions == nil {
		st.Compactions = []Compaction{}
	}
	if st.MemoryWrites == nil {
		st.MemoryWrites = []MemoryWrite{}
	}
	off := s.opts.AutocompactOff || s.acOff || lim != nil && lim.Off
	if off {
		st.AutocompactOff = true
		switch {
		case s.acOff:
			st.AutocompactOffIn = s.acFrom
		case lim != nil && lim.Off:
			st.AutocompactOffIn = lim.OffSource
		}
	}
	if s.contextKnown {
		st.Level = w.Level(s.context)
		if off && st.Level == window.LevelAutocompact {
			// Nothing happens at that threshold without autocompact.
			st.Level = window.LevelWarning
		}
		st.Fill = float64(s.context) / float64(w.ContextWindow)
	}
	target, at := window.LevelAutocompact, w.AutocompactAt()
	if off {
		target, at = window.LevelBlocked, w.BlockedAt()
	}
	contexts := make([]window.Tokens, len(s.recent))
	for i, p := range s.recent {
		contexts[i] = p.context
	}
	if s.contextKnown {
		st.Forecast = ForecastTurns(contexts, s.context, target, at)
	} else {
		st.Forecast = Forecast{Target: target, TargetAt: at, Reason: "no context figure since the last compaction"}
	}
	var tokens int64
	from := now.Add(-s.opts.RateWindow)
	for _, p := range s.rate {
		if p.t.After(from) && !p.t.After(now) {
			tokens += p.tokens
		}
	}
	st.TokensPerMinute = float64(tokens) / s.opts.RateWindow.Minutes()
	return st
}
