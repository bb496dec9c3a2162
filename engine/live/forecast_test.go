package live

import (
	"testing"

	"github.com/memscope/memscope/engine/window"
)

func TestForecastTurns(t *testing.T) {
	const at = 167000
	tests := []struct {
		name     string
		contexts []window.Tokens
		current  window.Tokens
		ok       bool
		turns    int
		growth   window.Tokens
		steps    int
	}{
		{"steady growth", []window.Tokens{100000, 110000, 120000}, 120000, true, 5, 10000, 2}, // 47000 / 10000, rounded up
		{"exact landing", []window.Tokens{147000, 157000}, 157000, true, 1, 10000, 1},
		// Median of the last five growths (1000, 1000, 2000, 3000, 50000):
		// the one large tool result does not drive the forecast; the
		// first growth (90000) is older than five steps.
		{"median ignores one spike", []window.Tokens{0, 90000, 91000, 92000, 94000, 97000, 147000}, 147000, true, 10, 2000, 5},
		{"even count takes the mean of the middle two", []window.Tokens{100000, 101000, 104000}, 104000, true, 32, 2000, 2}, // 63000 / 2000 = 31.5, rounded up
		{"shrinking", []window.Tokens{120000, 110000, 100000}, 100000, false, 0, -10000, 2},
		{"flat", []window.Tokens{120000, 120000}, 120000, false, 0, 0, 1},
		{"one turn", []window.Tokens{120000}, 120000, false, 0, 0, 0},
		{"no turns", nil, 0, false, 0, 0, 0},
		{"already past", []window.Tokens{160000, 170000}, 170000, true, 0, 0, 0},
		{"fresher current figure", []window.Tokens{100000, 110000}, 157000, true, 1, 10000, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ForecastTurns(tt.contexts, tt.current, window.LevelAutocompact, at)
			if f.OK != tt.ok || f.Turns != tt.turns || f.Growth != tt.growth || f.Steps != tt.steps {
				t.Errorf("got %+v, want ok %v turns %d growth %d steps %d", f, tt.ok, tt.turns, tt.growth, tt.steps)
			}
			if !f.OK && f.Reason == "" {
				t.Errorf("no forecast and no reason: %+v", f)
			}
			if f.Target != window.LevelAutocompact || f.TargetAt != at {
				t.Errorf("target %s at %d", f.Target, f.TargetAt)
			}
		})
	}
}
