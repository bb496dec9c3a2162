package model

import (
	"bytes"
	"testing"
)

func FuzzSettingsParse(f *testing.F) {
	f.Add([]byte(`{"cleanupPeriodDays": 7, "claudeMdExcludes": ["a"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, probs := ParseSettings("s.json", data)
		lines := bytes.Count(data, []byte{'\n'}) + 1
		for _, p := range probs {
			if p.Line < 1 || p.Line > lines || p.File != "s.json" || p.Reason == "" {
				t.Fatalf("bad problem %+v for %d lines", p, lines)
			}
		}
		if s.CleanupPeriodDays != nil && *s.CleanupPeriodDays < 0 {
			t.Fatal("negative cleanupPeriodDays accepted")
		}
		ParseClaudeJSON("c.json", data)
	})
}
