package timeline

import (
	"os"
	"testing"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// A subagent's own transcript (every record isSidechain, the client's
// subagents/agent-<id>.jsonl; engine/ledger's subagent-compacted.jsonl,
// written by hand) has its responses as turns: four before its compaction
// and one after, so the Replay pane can step through it and open a lost
// item at its turn. Before, only the boundary was a step. A main session
// is not an agent's file (its sidechain turns, if any, stay out).
func TestAgentFileTurns(t *testing.T) {
	read := func(name string) *model.Transcript {
		t.Helper()
		tr, err := model.ReadTranscriptWith(os.DirFS("../ledger/testdata"), name, model.ScanOptions{Content: true})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	agent := read("subagent-compacted.jsonl")
	if !AgentFile(agent) {
		t.Fatal("the subagent transcript is not an agent's file")
	}
	tl := Build(agent, window.Size200k(), 0)
	var kinds string
	for _, s := range tl.Steps {
		kinds += string(s.Kind[0])
	}
	if len(tl.Turns) != 5 || kinds != "ttttbt" {
		t.Errorf("turns = %d, steps = %q; want 5 turns, steps ttttbt", len(tl.Turns), kinds)
	}
	if main := read("rules-session.jsonl"); AgentFile(main) {
		t.Error("a main session counts as an agent's file")
	}
}
