package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// A compaction event of watch carries the ledger of its boundary (the
// first compaction of engine/ledger's rules-session: 3 rules lost), in
// the JSON beside the event's own fields; a microcompaction and other
// events carry none.
func TestWatchCompactionCarriesLedger(t *testing.T) {
	dir := t.TempDir()
	rel := "projects/-work-shop/5e1f0c2a-1111-4222-8333-444455556666.jsonl"
	src, err := os.ReadFile("../engine/ledger/testdata/rules-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), src, 0o644); err != nil {
		t.Fatal(err)
	}
	home := model.DirFS(dir)
	ev := live.Event{Kind: live.EventCompaction, Transcript: rel, Text: "session 5e1f0c2a compacted",
		Compaction: &live.Compaction{Kind: timeline.BoundaryCompact, UUID: "00000000-0000-4000-8000-000000000019", Line: 19}}
	lost := lostOf(home, ev)
	if lost == nil || lost.Index != 1 || lost.CountsText() != "lost 3 rules, 2 files, 1 command, 1 todo, 1 instruction file" {
		t.Fatalf("lost = %+v", lost)
	}
	b, err := json.Marshal(watchEventOut{Event: ev, Lost: lost})
	if err != nil || !strings.Contains(string(b), `"kind":"compaction"`) || !strings.Contains(string(b), `"lost":{"index":1`) {
		t.Errorf("JSON %s (%v)", b, err)
	}
	micro := ev
	micro.Compaction = &live.Compaction{Kind: timeline.BoundaryMicrocompact, UUID: ev.Compaction.UUID}
	if lostOf(home, micro) != nil || lostOf(home, live.Event{Kind: live.EventSessionStarted, Transcript: rel}) != nil {
		t.Error("a microcompaction or another event got a ledger")
	}
}
