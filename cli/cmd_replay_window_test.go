package cli

import (
	"encoding/json"
	"testing"
)

// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE lowers the autocompact threshold to
// effective × pct / 100 (FORMATS.md); replay and compact must show the
// thresholds the user's client runs with.
func TestWindowHonoursAutocompactPctOverride(t *testing.T) {
	tests := []struct {
		env         string
		autocompact int
	}{
		{"", 167000},     // 200000 − 20000 − 13000
		{"50", 90000},    // 180000 × 50 / 100
		{" 80 ", 144000}, // spaces ignored
		{"95", 167000},   // 171000 is higher: the override only lowers
		{"0", 167000},    // out of range: ignored
		{"abc", 167000},  // not a number: ignored
	}
	for _, tt := range tests {
		for _, cmd := range []string{"replay", "compact"} {
			e, out, errb := testEnv(t)
			e.getenv = func(k string) string {
				if k == "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE" {
					return tt.env
				}
				return ""
			}
			if code := run(e, []string{cmd, realPartialCompactions, "--json"}); code != 0 {
				t.Fatalf("%s: exit %d: %s", cmd, code, errb)
			}
			var r struct {
				Thresholds struct{ Autocompact, Warning int }
			}
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if r.Thresholds.Autocompact != tt.autocompact || r.Thresholds.Warning != tt.autocompact-20000 {
				t.Errorf("%s with %q: autocompact %d warning %d, want %d and %d", cmd, tt.env, r.Thresholds.Autocompact, r.Thresholds.Warning, tt.autocompact, tt.autocompact-20000)
			}
		}
	}
}
