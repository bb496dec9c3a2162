package window

import (
	"fmt"

	"github.com/memscope/memscope/engine/internal/jsstr"
)

// Tokens is a count of model tokens.
type Tokens int

// The client's compaction constants (FORMATS.md, "Compaction thresholds
// and stages").
const (
	// CharsPerToken is the estimate used where no usage figure exists.
	// Characters are UTF-16 code units throughout, as in the client
	// (JavaScript's String.length) and MEMORY.md's cap.
	CharsPerToken = 4
	// ImageTokens is what one image counts for.
	ImageTokens Tokens = 2000
	// OutputReserveCap caps the output reserve taken off the window.
	OutputReserveCap Tokens = 20000
	// AutocompactBuffer: autocompact fires this far below the effective window.
	AutocompactBuffer Tokens = 13000
	// WarningBuffer: the warning shows this far below the autocompact threshold.
	WarningBuffer Tokens = 20000
	// BlockingBuffer: requests are blocked this far below the effective window.
	BlockingBuffer Tokens = 3000
	// MaxConsecutiveCompactFailures opens the circuit breaker.
	MaxConsecutiveCompactFailures = 3
)

// EstimateTokens estimates the tokens of n characters of text: one per
// CharsPerToken, rounded up. Characters are UTF-16 code units, what the
// client's String.length counts: a CJK character is one (three UTF-8
// bytes), an emoji two (four bytes). Pass a byte count only for ASCII.
func EstimateTokens(n int) Tokens {
	if n <= 0 {
		return 0
	}
	return Tokens((n + CharsPerToken - 1) / CharsPerToken)
}

// EstimateTextTokens estimates the tokens of text s (see EstimateTokens).
func EstimateTextTokens(s string) Tokens { return EstimateTokens(jsstr.UTF16Len(s)) }

// Config describes the model's context window. The thresholds
// derived from it are the client's.
type Config struct {
	// ContextWindow is the model's window in tokens.
	ContextWindow Tokens `json:"contextWindow"`
	// MaxOutputTokens is the model's output limit; min(it, 20000) is
	// reserved for the answer.
	MaxOutputTokens Tokens `json:"maxOutputTokens"`
	// AutocompactPct, when between 1 and 99, lowers the autocompact
	// threshold to effective × pct / 100 (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE).
	AutocompactPct int `json:"autocompactPct,omitempty"`
	// AutocompactWindow, when set and below ContextWindow, is the window
	// autocompact (and its warning) is computed against
	// (CLAUDE_CODE_AUTO_COMPACT_WINDOW, the autoCompactWindow setting):
	// the level is then AutocompactWindow - reserve - 13000. The blocking
	// level stays on the model's window.
	AutocompactWindow Tokens `json:"autocompactWindow,omitempty"`
}

// Size200k is the preset for 200k-token models.
func Size200k() Config { return Config{ContextWindow: 200000, MaxOutputTokens: 32000} }

// Size1M is the preset for 1M-token models.
func Size1M() Config { return Config{ContextWindow: 1000000, MaxOutputTokens: 32000} }

// Level is where a context size stands against the window's thresholds.
type Level string

// The levels, from least to most severe.
const (
	LevelOK          Level = "ok"
	LevelWarning     Level = "warning"
	LevelAutocompact Level = "autocompact"
	LevelBlocked     Level = "blocked"
)

// Effective is the window minus the output reserve.
func (w Config) Effective() Tokens {
	return w.ContextWindow - min(w.MaxOutputTokens, OutputReserveCap)
}

// AutocompactAt is the context size at which autocompact fires.
func (w Config) AutocompactAt() Tokens {
	eff := w.Effective()
	if w.AutocompactWindow > 0 && w.AutocompactWindow < w.ContextWindow {
		eff = w.AutocompactWindow - min(w.MaxOutputTokens, OutputReserveCap)
	}
	at := eff - AutocompactBuffer
	if w.AutocompactPct > 0 && w.AutocompactPct < 100 {
		// The override can only lower the threshold.
		at = min(at, eff*Tokens(w.AutocompactPct)/100)
	}
	return at
}

// WarningAt is the context size at which the client starts warning.
func (w Config) WarningAt() Tokens { return w.AutocompactAt() - WarningBuffer }

// BlockedAt is the context size at which the client refuses to send.
func (w Config) BlockedAt() Tokens { return w.Effective() - BlockingBuffer }

// Validate reports a configuration whose thresholds make no sense.
func (w Config) Validate() error {
	if w.ContextWindow <= 0 || w.MaxOutputTokens < 0 {
		return fmt.Errorf("window %d / max output %d: both must be positive", w.ContextWindow, w.MaxOutputTokens)
	}
	if w.WarningAt() <= 0 {
		return fmt.Errorf("window %d is too small: the warning threshold would be %d", w.ContextWindow, w.WarningAt())
	}
	return nil
}

// Level classifies a context size.
func (w Config) Level(t Tokens) Level {
	switch {
	case t >= w.BlockedAt():
		return LevelBlocked
	case t >= w.AutocompactAt():
		return LevelAutocompact
	case t >= w.WarningAt():
		return LevelWarning
	}
	return LevelOK
}
