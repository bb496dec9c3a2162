package window

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/memscope/memscope/model"
)

// The client's variables that move the window and the autocompact point
// (FORMATS.md, "What changed in 2.1.332 …, and the settings that move the
// thresholds").
const (
	EnvDisable1M          = "CLAUDE_CODE_DISABLE_1M_CONTEXT"
	EnvMaxContextTokens   = "CLAUDE_CODE_MAX_CONTEXT_TOKENS"
	EnvAutoCompactWindow  = "CLAUDE_CODE_AUTO_COMPACT_WINDOW"
	EnvDisableCompact     = "DISABLE_COMPACT"
	settingAutoCompactWin = "autoCompactWindow"
)

// The bounds the client accepts for an autocompact window.
const (
	MinAutoCompactWindow Tokens = 100000
	MaxAutoCompactWindow Tokens = 1000000
)

// InferSlack is how far below the computed autocompact level a session's
// own automatic compactions must all have happened before the level they
// imply replaces it: a boundary's preTokens is the client's estimate and
// can sit a few thousand tokens either side of the threshold it applied,
// so anything closer than 10 % is read as agreement.
const InferSlack = 0.10

// Input is what memscope can see of a session.
type Input struct {
	// Model is the transcript's model ID ("" when no response names one).
	Model string
	// Getenv reads the client's environment; nil when it cannot be seen
	// (the answer then assumes the settings files only).
	Getenv func(string) string
	// EnvFrom says whose environment Getenv reads ("memscope's
	// environment", "/proc/123/environ").
	EnvFrom string
	// Settings are the client's settings files for the session's project.
	Settings model.SettingsStack
	// SubagentWindow is a subagent's autoCompactWindow (0: none, or not a
	// subagent): it can only lower the session's.
	SubagentWindow Tokens
	// StatusLineSize is context_window.context_window_size from the
	// status-line JSON (0 when not known).
	StatusLineSize Tokens
	// MaxContext is the largest context a response of the session held:
	// past 200k the window must be 1M whatever the model table says.
	MaxContext Tokens
	// AutoPreTokens are the preTokens of the session's automatic
	// compactions, oldest first.
	AutoPreTokens []Tokens
}

// Value is one resolved figure and where it came from.
type Value struct {
	Tokens Tokens `json:"tokens"`
	Source string `json:"source"`
}

// Resolved is the window and thresholds in force for a session, each
// with its source.
type Resolved struct {
	// Config is what the levels are computed from.
	Config Config `json:"config"`
	// Window is the model's context window.
	Window Value `json:"window"`
	// AutocompactWindow is the window autocompact is computed against,
	// when one is set (Tokens 0 otherwise).
	AutocompactWindow Value `json:"autocompactWindow,omitzero"`
	// Autocompact is the autocompact level; its source is that of the
	// figure that moved it last (the default, a window, the percentage).
	Autocompact Value `json:"autocompact"`
	// Inferred is set when the session's own automatic compactions all
	// happened far below the computed level: the level they imply (Config
	// already uses it) and the computed one in Computed.
	Inferred *Value `json:"inferred,omitempty"`
	Computed Tokens `json:"computed,omitempty"`
	// Off says automatic compaction is off (OffSource says who turned it
	// off): forecasts run to the blocking level.
	Off       bool   `json:"off,omitempty"`
	OffSource string `json:"offSource,omitempty"`
	// IdleCompaction is the idleCompaction setting (default on): an idle
	// session may then compact without a new turn.
	IdleCompaction       bool   `json:"idleCompaction"`
	IdleCompactionSource string `json:"idleCompactionSource"`
	// EnvNote says whose environment was read, or that none was.
	EnvNote string `json:"envNote"`
	// Notes are values that were present but not used, and why.
	Notes []string `json:"notes,omitempty"`
}

// EnvAssumed is EnvNote when the client's environment cannot be read.
const EnvAssumed = "assumes the settings files only (the client's environment is not readable)"

// knownWindows are the model ID prefixes the client knows, with their
// window. A "[1m]" suffix asks for the 1M window of a model that has one.
// The 5-series entries are an assumption: the 2.1.330–2.1.332 corpus was
// written by claude-opus-5-5 and shows a 200k default (no response past
// 200k without "[1m]").
var knownWindows = []struct {
	prefix string
	window Tokens
}{
	{"claude-opus-5", 200000},
	{"claude-sonnet-5", 200000},
	{"claude-haiku-5", 200000},
	{"claude-opus-4", 200000},
	{"claude-sonnet-4", 200000},
	{"claude-haiku-4", 200000},
	{"claude-3-7-sonnet", 200000},
	{"claude-3-5-sonnet", 200000},
	{"claude-3-5-haiku", 200000},
	{"claude-3-opus", 200000},
	{"claude-3-haiku", 200000},
}

// Resolve decides the window and thresholds of a session as the client
// does (FORMATS.md): the window from the status line's size, else the
// model (a model ID the client does not know has 1M since 2.1.323, unless
// CLAUDE_CODE_DISABLE_1M_CONTEXT; CLAUDE_CODE_MAX_CONTEXT_TOKENS sets an
// unknown claude-* ID's); the autocompact window from
// CLAUDE_CODE_AUTO_COMPACT_WINDOW over autoCompactWindow (per model
// before top level) over none, a subagent's only lowering it;
// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE only lowering; DISABLE_COMPACT or
// autoCompactEnabled: false turning it off. Settings files' env blocks
// count as the environment (the client sets them on itself). Where the
// session's own automatic compactions all happened far below the
// computed level, the level they imply is used, labelled inferred.
func Resolve(in Input) Resolved {
	r := Resolved{EnvNote: EnvAssumed}
	if in.Getenv != nil {
		r.EnvNote = "reads " + in.EnvFrom
	}
	env := func(name string) (string, string) {
		if s, ok := in.Settings.Env(name); ok && strings.TrimSpace(s.Value) != "" {
			return s.Value, name + " in " + s.From
		}
		if in.Getenv != nil {
			if v := in.Getenv(name); strings.TrimSpace(v) != "" {
				return v, name
			}
		}
		return "", ""
	}
	r.Window = r.window(in, env)
	r.Config = Config{ContextWindow: r.Window.Tokens, MaxOutputTokens: 32000}

	r.Autocompact = Value{Source: "default"}
	if v, src := env(EnvAutoCompactWindow); v != "" {
		if n, ok := ParseTokens(v); ok && n >= MinAutoCompactWindow && n <= MaxAutoCompactWindow {
			r.AutocompactWindow = Value{n, src}
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("%s=%s ignored: not %d to %d tokens", src, v, MinAutoCompactWindow, MaxAutoCompactWindow))
		}
	}
	if r.AutocompactWindow.Tokens == 0 {
		if s, perModel, ok := in.Settings.AutoCompactWindow(in.Model); ok {
			key := settingAutoCompactWin
			if perModel {
				key = "modelSettings." + in.Model + "." + settingAutoCompactWin
			}
			if n, ok := ParseTokens(s.Value); ok && n >= MinAutoCompactWindow && n <= MaxAutoCompactWindow {
				r.AutocompactWindow = Value{n, key + " in " + s.From}
			} else {
				r.Notes = append(r.Notes, fmt.Sprintf("%s %s in %s ignored: not %d to %d tokens", key, s.Value, s.From, MinAutoCompactWindow, MaxAutoCompactWindow))
			}
		}
	}
	if n := in.SubagentWindow; n > 0 && (r.AutocompactWindow.Tokens == 0 || n < r.AutocompactWindow.Tokens) && n < r.Window.Tokens {
		r.AutocompactWindow = Value{n, "the subagent's autoCompactWindow"}
	}
	if w := r.AutocompactWindow; w.Tokens > 0 && w.Tokens < r.Config.ContextWindow {
		r.Config.AutocompactWindow = w.Tokens
		r.Autocompact.Source = w.Source
	}
	if v, src := env(EnvAutocompactPct); v != "" {
		pct, _ := strconv.Atoi(strings.TrimSpace(v))
		before := r.Config.AutocompactAt()
		r.Config.AutocompactPct = pct
		if r.Config.AutocompactAt() < before {
			r.Autocompact.Source = src + "=" + strings.TrimSpace(v)
		} else {
			r.Notes = append(r.Notes, src+"="+v+" does not lower the level (it can only lower it)")
		}
	}
	r.Autocompact.Tokens = r.Config.AutocompactAt()

	if v, src := env(EnvDisableCompact); model.EnvTruthy(v) {
		r.Off, r.OffSource = true, src
	} else if on, s := in.Settings.AutoCompactEnabled(); !on {
		r.Off, r.OffSource = true, "autoCompactEnabled: false in "+s.Path
	}
	r.IdleCompaction, r.IdleCompactionSource = in.Settings.IdleCompaction()
	if r.IdleCompactionSource == "" {
		r.IdleCompactionSource = "default"
	} else {
		r.IdleCompactionSource = "idleCompaction in " + r.IdleCompactionSource
	}
	if !r.Off {
		r.infer(in.AutoPreTokens)
	}
	return r
}

// window picks the model's context window and says why.
func (r *Resolved) window(in Input, env func(string) (string, string)) Value {
	if in.StatusLineSize > 0 {
		return Value{in.StatusLineSize, "status line context_window_size"}
	}
	id := strings.ToLower(strings.TrimSpace(in.Model))
	off1M, offSrc := env(EnvDisable1M)
	no1M := model.EnvTruthy(off1M)
	var v Value
	switch {
	case id == "" || id == "<synthetic>":
		v = Value{Size200k().ContextWindow, "no model named: the 200k preset"}
	case strings.HasSuffix(id, "[1m]"):
		v = Value{Size1M().ContextWindow, "model " + in.Model}
	default:
		known := false
		for _, k := range knownWindows {
			if strings.HasPrefix(id, k.prefix) {
				v, known = Value{k.window, "model " + in.Model}, true
				break
			}
		}
		if known {
			break
		}
		if max, src := env(EnvMaxContextTokens); max != "" && strings.HasPrefix(id, "claude-") {
			if n, ok := ParseTokens(max); ok && n > 0 {
				return Value{n, src}
			}
			r.Notes = append(r.Notes, src+"="+max+" ignored: not a token count")
		}
		v = Value{Size1M().ContextWindow, "model " + in.Model + " is not one the client knows: 1M since 2.1.323"}
	}
	if in.MaxContext > v.Tokens && v.Tokens < Size1M().ContextWindow {
		v = Value{Size1M().ContextWindow, fmt.Sprintf("a response held %d tokens, more than %d", in.MaxContext, v.Tokens)}
	}
	if no1M && v.Tokens > Size200k().ContextWindow {
		v = Value{Size200k().ContextWindow, offSrc}
	}
	return v
}

// infer replaces the autocompact level by the one the session's own
// automatic compactions imply, when they all happened more than
// InferSlack below it: the largest preTokens, rounded down to a thousand,
// expressed as the autocompact window that gives that level.
func (r *Resolved) infer(pre []Tokens) {
	if len(pre) == 0 {
		return
	}
	top := max(pre[0], 0)
	for _, p := range pre[1:] {
		top = max(top, p)
	}
	computed := r.Config.AutocompactAt()
	if top <= 0 || float64(top) >= float64(computed)*(1-InferSlack) {
		return
	}
	level := top / 1000 * 1000
	c := r.Config
	c.AutocompactPct = 0
	c.AutocompactWindow = level + AutocompactBuffer + min(c.MaxOutputTokens, OutputReserveCap)
	if c.AutocompactAt() >= computed || c.Validate() != nil {
		return
	}
	r.Computed = computed
	r.Config = c
	n := len(pre)
	r.Inferred = &Value{c.AutocompactAt(), fmt.Sprintf("inferred from %d automatic compaction%s (preTokens up to %d; computed %d)",
		n, map[bool]string{true: "", false: "s"}[n == 1], top, computed)}
	r.Autocompact = *r.Inferred
}

// ParseTokens reads a token count as the client's variables take it: a
// whole number, with an optional k (thousands) or M (millions) suffix.
func ParseTokens(s string) (Tokens, bool) {
	s = strings.TrimSpace(s)
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M"), strings.HasSuffix(s, "m"):
		mult, s = 1e6, s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || f*mult > 1e12 {
		return 0, false
	}
	n := f * mult
	if n != float64(int64(n)) {
		return 0, false
	}
	return Tokens(n), true
}

// Short is a figure in thousands or millions ("100k", "1M", "67.5k").
func Short(t Tokens) string {
	switch {
	case t >= 1000000 && t%100000 == 0:
		return strconv.FormatFloat(float64(t)/1e6, 'f', -1, 64) + "M"
	case t >= 1000 && t%100 == 0:
		return strconv.FormatFloat(float64(t)/1e3, 'f', -1, 64) + "k"
	}
	return strconv.Itoa(int(t))
}

// Line is the autocompact level and its source for a status line or a
// pane ("autocompact at 100k · CLAUDE_CODE_AUTO_COMPACT_WINDOW"), or what
// takes its place when automatic compaction is off.
func (r Resolved) Line() string {
	if r.Off {
		return "autocompact off · " + r.OffSource + " · blocked at " + Short(r.Config.BlockedAt())
	}
	s := "autocompact at " + Short(r.Autocompact.Tokens) + " · " + r.Autocompact.Source
	if r.Inferred != nil {
		s = "autocompact at " + Short(r.Autocompact.Tokens) + " (inferred from this session's compactions; computed " + Short(r.Computed) + ")"
	}
	return s
}

// IdleNote is what a forecast that counts turns must add while idle
// compaction is on.
func (r Resolved) IdleNote() string {
	if r.Off || !r.IdleCompaction {
		return ""
	}
	return "an idle session may compact without a new turn (idleCompaction)"
}

// ShortSource names what moved the autocompact level from the default, in
// a few words ("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "autoCompactWindow",
// "inferred"); "" when nothing did or autocompact is off.
func (r Resolved) ShortSource() string {
	switch {
	case r.Off:
		return ""
	case r.Inferred != nil:
		return "inferred"
	case r.Autocompact.Source == "default":
		return ""
	}
	src, _, _ := strings.Cut(r.Autocompact.Source, " in ")
	src, _, _ = strings.Cut(src, "=")
	return src
}
