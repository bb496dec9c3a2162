package store

import (
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

// The stale plan says, next to the age, how long no recorded session had
// the memory's index line in context; nothing when no loads are recorded.
func TestPruneStaleSaysLastLoad(t *testing.T) {
	s, _ := openFixture(t, pruneFixture())
	day := 24 * time.Hour
	cases := []struct {
		name string
		o    PruneOptions
		want string
	}{
		{"no records", PruneOptions{}, "(project, 52 days old) to"},
		{"loaded 12 days ago", PruneOptions{LoadsSince: enginetest.OpsNow.Add(-40 * day), LastLoaded: map[string]time.Time{"project_freeze.md": enginetest.OpsNow.Add(-12 * day)}},
			"(project, 52 days old; not loaded in any session for 12 days) to"},
		{"loaded 1 day ago", PruneOptions{LoadsSince: enginetest.OpsNow.Add(-40 * day), LastLoaded: map[string]time.Time{"project_freeze.md": enginetest.OpsNow.Add(-day - time.Minute)}},
			"(project, 52 days old; not loaded in any session for 1 day) to"},
		{"loaded today", PruneOptions{LoadsSince: enginetest.OpsNow.Add(-40 * day), LastLoaded: map[string]time.Time{"project_freeze.md": enginetest.OpsNow.Add(-time.Hour)}},
			"(project, 52 days old; still loaded today) to"},
		{"never loaded", PruneOptions{LoadsSince: enginetest.OpsNow.Add(-40 * day), LastLoaded: map[string]time.Time{"user_role.md": enginetest.OpsNow}},
			"(project, 52 days old; not loaded in any session of the 40 days on record) to"},
	}
	for _, c := range cases {
		c.o.Now = enginetest.OpsNow
		p := s.PlanPrune(c.o)
		var summary string
		for _, a := range p.Actions {
			if a.ID == "archive:project_freeze.md" {
				summary = a.Summary
			}
		}
		if !strings.Contains(summary, c.want) {
			t.Errorf("%s: %q lacks %q", c.name, summary, c.want)
		}
	}
}
