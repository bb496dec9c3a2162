package cli

import (
	"io/fs"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// watchEventOut is a watch event as printed: a compaction carries its loss
// ledger (what `replay --lost` lists for that boundary).
type watchEventOut struct {
	live.Event
	Lost *ledger.Boundary `json:"lost,omitempty"`
}

// lostOf is the ledger of a compaction event's boundary, read from its
// transcript in home; nil for other events, microcompactions, and a
// transcript that cannot be read (the event is printed without it).
func lostOf(home fs.FS, ev live.Event) *ledger.Boundary {
	c := ev.Compaction
	if ev.Kind != live.EventCompaction || c == nil || c.Kind != timeline.BoundaryCompact || ev.Transcript == "" {
		return nil
	}
	t, err := model.ReadTranscriptWith(home, ev.Transcript, ledger.ScanOptions)
	if err != nil {
		return nil
	}
	if b, ok := ledger.Of(t, c.UUID, c.Line); ok {
		return &b
	}
	return nil
}
