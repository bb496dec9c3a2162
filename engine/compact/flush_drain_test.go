package compact_test

import (
	"context"
	"testing"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/extract"
)

// Fewer than MinNewMessages new messages wait for the next request; Drain
// extracts them anyway, once.
func TestCoordinatorDrainTakesTheRemainder(t *testing.T) {
	var calls [][2]int
	c := extract.NewCoordinator(func(_ context.Context, from, to int) error {
		calls = append(calls, [2]int{from, to})
		return nil
	})
	ctx := context.Background()
	if err := c.RequestExtraction(ctx, extract.MinNewMessages-1); err != nil || len(calls) != 0 {
		t.Fatalf("below the threshold: calls %v, err %v", calls, err)
	}
	if err := c.Drain(ctx); err != nil || len(calls) != 1 || calls[0] != [2]int{0, extract.MinNewMessages - 1} {
		t.Fatalf("drain: calls %v, err %v", calls, err)
	}
	if err := c.Drain(ctx); err != nil || len(calls) != 1 {
		t.Fatalf("a second drain with nothing new extracted again: %v", calls)
	}
	// The threshold holds again after a drain.
	c.RequestExtraction(ctx, extract.MinNewMessages)
	if len(calls) != 1 {
		t.Fatalf("one new message was extracted after the drain: %v", calls)
	}
}

// A request to remember in the last, small flush of a run is not lost:
// Finish extracts it and says so in a final run.
func TestFlushFinishExtractsWhatIsLeft(t *testing.T) {
	hook := extract.NewFlushExtractor(extract.FlushConfig{SessionID: "s"})
	msgs := []compact.Msg{
		compact.Prompt("p1", "Remember that the staging database is reset every Sunday night, because the load tests need a clean slate."),
		compact.Answer("a1", "Noted."),
	}
	if err := hook.BeforeCompact(msgs); err != nil {
		t.Fatal(err)
	}
	if n := len(hook.Result().Candidates); n != 0 {
		t.Fatalf("%d candidates from %d messages, below the threshold", n, len(msgs))
	}
	if err := hook.Finish(); err != nil {
		t.Fatal(err)
	}
	got := hook.Result().Candidates
	if len(got) != 1 || got[0].Provenance.MessageUUID != "p1" {
		t.Fatalf("after Finish: %+v", got)
	}
	runs := hook.Runs()
	last := runs[len(runs)-1]
	if !last.Final || last.From != 0 || last.To != 2 || last.Prompts != 1 || last.Candidates != 1 {
		t.Fatalf("final run %+v", last)
	}
	if err := hook.Finish(); err != nil || len(hook.Runs()) != len(runs) {
		t.Fatalf("a second Finish with nothing left added a run: %+v", hook.Runs())
	}
}
