package live

import (
	"slices"

	"github.com/memscope/memscope/engine/window"
)

// ForecastSteps is how many of the latest per-turn growths the forecast
// takes the median of: enough to ride out one large tool result, few
// enough to follow a change of pace.
const ForecastSteps = 5

// Forecast says how many more turns a session has before its context
// reaches a threshold, from its recent growth: the median growth of the
// last ForecastSteps turns since the last compaction, projected
// linearly. There is none when fewer than two turns follow the last
// compaction or the context is not growing (median growth ≤ 0).
type Forecast struct {
	// OK says there is a forecast; Reason says why not when there is none.
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
	// Turns is how many more responses fit before the target: the
	// context after Turns more turns of median growth reaches it. 0 means
	// the target is already reached (autocompact runs before the next
	// request).
	Turns int `json:"turns"`
	// Growth is the median growth per turn; Steps how many growths it
	// was taken from.
	Growth window.Tokens `json:"growth"`
	Steps  int           `json:"steps"`
	// Target is the level forecast (autocompact, or blocked when
	// autocompact is off) and TargetAt its threshold.
	Target   window.Level  `json:"target"`
	TargetAt window.Tokens `json:"targetAt"`
}

// ForecastTurns forecasts from contexts, the context sizes of the turns
// since the last compaction (oldest first), starting at current (usually
// the last of them; the status line has a fresher figure), towards
// target at threshold at.
func ForecastTurns(contexts []window.Tokens, current window.Tokens, target window.Level, at window.Tokens) Forecast {
	f := Forecast{Target: target, TargetAt: at}
	if current >= at {
		f.OK, f.Turns = true, 0
		return f
	}
	if len(contexts) < 2 {
		f.Reason = "fewer than two turns since the last compaction"
		return f
	}
	recent := contexts[max(0, len(contexts)-ForecastSteps-1):]
	growth := make([]window.Tokens, 0, len(recent)-1)
	for i := 1; i < len(recent); i++ {
		growth = append(growth, recent[i]-recent[i-1])
	}
	slices.Sort(growth)
	n := len(growth)
	med := growth[n/2]
	if n%2 == 0 {
		med = (growth[n/2-1] + growth[n/2]) / 2
	}
	f.Growth, f.Steps = med, n
	if med <= 0 {
		f.Reason = "the context is not growing"
		return f
	}
	f.OK = true
	f.Turns = int((at - current + med - 1) / med)
	return f
}
