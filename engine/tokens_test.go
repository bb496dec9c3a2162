package engine

import "testing"

func TestWindowThresholds(t *testing.T) {
	cases := []struct {
		name                                 string
		w                                    WindowConfig
		effective, warning, compact, blocked Tokens
	}{
		// 200000 − min(32000, 20000) = 180000; −13000; −20000; −3000.
		{"200k", Window200k(), 180000, 147000, 167000, 177000},
		{"1M", Window1M(), 980000, 947000, 967000, 977000},
		// A small max output reserves only itself.
		{"small output", WindowConfig{ContextWindow: 100000, MaxOutputTokens: 8000}, 92000, 59000, 79000, 89000},
		// The override lowers the threshold: 180000 × 50 / 100.
		{"pct 50", WindowConfig{ContextWindow: 200000, MaxOutputTokens: 32000, AutocompactPct: 50}, 180000, 70000, 90000, 177000},
		// It cannot raise it.
		{"pct 99", WindowConfig{ContextWindow: 200000, MaxOutputTokens: 32000, AutocompactPct: 99}, 180000, 147000, 167000, 177000},
	}
	for _, c := range cases {
		w := c.w
		if w.Effective() != c.effective || w.WarningAt() != c.warning || w.AutocompactAt() != c.compact || w.BlockedAt() != c.blocked {
			t.Errorf("%s: effective %d warning %d autocompact %d blocked %d", c.name, w.Effective(), w.WarningAt(), w.AutocompactAt(), w.BlockedAt())
		}
	}
	w := Window200k()
	for tokens, want := range map[Tokens]Level{0: LevelOK, 146999: LevelOK, 147000: LevelWarning, 167000: LevelAutocompact, 177000: LevelBlocked, 500000: LevelBlocked} {
		if got := w.Level(tokens); got != want {
			t.Errorf("Level(%d) = %s, want %s", tokens, got, want)
		}
	}
	if (WindowConfig{ContextWindow: 30000, MaxOutputTokens: 1000}).Validate() == nil {
		t.Error("a 30k window leaves no room below the warning threshold; Validate accepted it")
	}
	if Window200k().Validate() != nil {
		t.Error("200k preset rejected")
	}
}

func TestEstimateTokens(t *testing.T) {
	for n, want := range map[int]Tokens{-5: 0, 0: 0, 1: 1, 4: 1, 5: 2, 857: 215, 1080: 270} {
		if got := EstimateTokens(n); got != want {
			t.Errorf("EstimateTokens(%d) = %d, want %d", n, got, want)
		}
	}
}
