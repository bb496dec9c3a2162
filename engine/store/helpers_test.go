package store

import (
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

// opsFixture is a small memory folder: an index with two entries, three
// topic files linking each other by name, one of them not indexed.
func opsFixture() map[string]string {
	return map[string]string{
		"MEMORY.md": "# Memory\n\n- [feedback_terse](feedback_terse.md) — short answers, no recap\n" +
			"- [Merge freeze](./project_freeze.md) — no merges 2026-12-03 → 2026-12-10\n\n## Notes\n\nfree text\n",
		"feedback_terse.md": enginetest.ClientMemory("terse", "Short answers", "feedback", "Answer briefly. See [[freeze]].\n\n**Why:** asked twice.\n"),
		"project_freeze.md": enginetest.ClientMemory("freeze", "Merge freeze in December", "project", "No merges; [[terse]] still applies, as does [[terse|the terse rule]].\n"),
		"user_role.md":      enginetest.ClientMemory("role", "Backend lead", "user", "Deep Go.\n"),
	}
}

// openFixture writes files to a temp dir and opens a store on it.
func openFixture(t *testing.T, files map[string]string) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	enginetest.WriteTree(t, dir, files)
	s, probs := Open(dir, nil)
	if len(probs) > 0 {
		t.Fatalf("fixture problems: %v", probs)
	}
	return s, dir
}

func timeHours(n int) time.Duration { return time.Duration(n) * time.Hour }
