package store

import (
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

// A topic file whose name holds a line break or brackets gets no index
// line, from prune or from AddIndexEntry: the line would split MEMORY.md
// or break the link, and the client's backfill skips such names too.
func TestPruneSkipsUnlinkableNames(t *testing.T) {
	s, _ := openFixture(t, map[string]string{
		"MEMORY.md":          "- [Other](other.md) — other\n",
		"other.md":           enginetest.ClientMemory("other", "deploys", "user", "Deploys go out on Tuesdays after the freeze lifts.\n"),
		"ok_note.md":         enginetest.ClientMemory("ok", "editor", "user", "Prefers vim keybindings in every editor.\n"),
		"dir\nname/inner.md": enginetest.ClientMemory("inner", "coffee", "user", "Drinks espresso, never decaf, before noon.\n"),
		"with [brackets].md": enginetest.ClientMemory("brackets", "music", "user", "Listens to baroque music while reviewing code.\n"),
	})
	var index []string
	for _, a := range s.PlanPrune(PruneOptions{Now: enginetest.OpsNow}).Actions {
		if a.Kind == PruneIndexOrphan {
			index = append(index, a.ID)
		}
	}
	if strings.Join(index, ",") != "index:ok_note.md" {
		t.Fatalf("index actions %q, want only index:ok_note.md", index)
	}
	for _, p := range []string{"dir\nname/inner.md", "with [brackets].md"} {
		if _, err := s.AddIndexEntry(p, WriteOptions{Now: enginetest.OpsNow}); err == nil || !strings.Contains(err.Error(), "cannot be linked") {
			t.Errorf("AddIndexEntry(%q) = %v", p, err)
		}
	}
}
