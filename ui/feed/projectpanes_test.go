package feed

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/health"
	"github.com/memscope/memscope/views/memories"
)

// A project load hands its panes their messages: the Memories pane its
// rows and store label, Health the lint report and plan, the Index pane
// the loaded part of MEMORY.md (without the client's warning) and the
// lines the cap dropped; the rendered text replaces the raw text.
func TestProjectLoadMakesThePanesMessages(t *testing.T) {
	dir := homeWithProjects(t)
	var ix strings.Builder
	for i := range 205 {
		fmt.Fprintf(&ix, "- [n%d](note.md) — line %d\n", i, i)
	}
	os.WriteFile(filepath.Join(dir, "projects", "-w-a", "memory", model.MemoryIndexName), []byte(ix.String()), 0o600)
	p := projectFeed(t, dir)
	p.ShowPlan() // the Health pane was shown: the load plans the prune
	if kept, _ := p.Loaded(p.Request("-w-a")().(ProjectLoaded), "-w-a"); !kept {
		t.Fatal("the open project's load was not kept")
	}
	out := p.Cur().Panes()
	if len(out.Memories) != 2 || len(out.Health) != 2 {
		t.Fatalf("messages: %d for Memories, %d for Health", len(out.Memories), len(out.Health))
	}
	if rows, ok := out.Memories[0].(memories.RowsMsg); !ok || len(rows.Rows) != 1 || rows.Rows[0].File.Path != "note.md" {
		t.Errorf("Memories first gets %#v, want the one row", out.Memories[0])
	}
	if s, ok := out.Memories[1].(memories.StoreMsg); !ok || s.Label != "" {
		t.Errorf("Memories' store label %#v: a project with only auto memory has none", out.Memories[1])
	}
	if d, ok := out.Health[1].(health.DataMsg); !ok || d.Lint == nil || d.Plan == nil {
		t.Errorf("Health gets %#v, want the lint report and the plan", out.Health[1])
	}
	d := out.Index.Data
	if !d.Exists || !d.Cap.Truncated || len(d.Dropped) < 5 || !strings.HasPrefix(d.Dropped[0], "- [n200]") {
		t.Fatalf("Index: exists %v, truncated %v, dropped %q", d.Exists, d.Cap.Truncated, d.Dropped)
	}
	if strings.Contains(d.Loaded, "WARNING") || !strings.Contains(d.Loaded, "line 199") || strings.Contains(d.Loaded, "line 200") {
		t.Errorf("Index's loaded text is not the 200 loaded lines without the warning:\n%s", d.Loaded[max(len(d.Loaded)-300, 0):])
	}
	r := p.Cur().IndexData(&RenderedIndex{Loaded: "rendered", Width: 33})
	if r.Loaded != "rendered" || r.Width != 33 || len(r.Dropped) != len(d.Dropped) {
		t.Errorf("with the rendering: loaded %q width %d", r.Loaded, r.Width)
	}
}

// With more than one store, the label names the one shown and its place.
func TestStoreLabelNamesTheStoreShown(t *testing.T) {
	stores := []model.MemoryStore{{Kind: model.StoreAuto, Label: "project memory"}, {Kind: model.StoreAgent, Agent: "rev", Scope: model.AgentScopeUser}}
	for _, tc := range []struct {
		idx  int
		want string
	}{
		{0, "project memory · store 1/2 · m: next"},
		{1, "agent rev (" + model.AgentScopeLabel(model.AgentScopeUser) + "), no memory yet · store 2/2 · m: next"},
	} {
		if got := StoreLabel(&ProjectLoaded{Stores: stores, StoreIdx: tc.idx}); got != tc.want {
			t.Errorf("store %d: %q, want %q", tc.idx, got, tc.want)
		}
	}
	if got := StoreLabel(&ProjectLoaded{Stores: stores[:1]}); got != "" {
		t.Errorf("one store: %q, want none", got)
	}
}
