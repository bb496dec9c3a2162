package compact_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
)

// longSession is a session that outgrows smallWindow: it opens with a
// request to remember, then exchanges with long answers, and ends with a
// second request to remember that a partial compaction keeps verbatim.
func longSession() (data, early, late string) {
	c := enginetest.NewConvo("0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d", time.Date(2026, 4, 14, 8, 0, 0, 0, time.UTC))
	early = c.User("Remember that the nightly export must finish before 06:00 UTC, because the finance team loads it at six.")
	c.Assistant("Understood.", "")
	for i := 0; i < 8; i++ {
		c.User(fmt.Sprintf("speed up export step %d without changing its output", i+1))
		c.Assistant(fmt.Sprintf("Step %d now streams rows instead of loading them all. %s", i+1, strings.Repeat("The batch reader keeps one page in memory. ", 700)), "")
	}
	late = c.User("Remember that the export bucket is shared with the data team, so never delete files from it.")
	c.Assistant("Noted; the cleanup job only touches our prefix.", "")
	return c.B.String(), early, late
}

func TestFlushHandsSummarizedPromptsToTheExtractor(t *testing.T) {
	data, early, late := longSession()
	tr := enginetest.ReadConvo(t, data, enginetest.WithText)
	in := compact.InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{}))
	hook := extract.NewFlushExtractor(extract.FlushConfig{Transcript: tr})
	cfg := compact.SmallConfig()
	cfg.FlushHook, cfg.PreserveRecent = hook, 2
	cfg.CollapseProtectTail = 100 // leave it to autocompact
	res, err := compact.Run(in, cfg, &compact.State{}, enginetest.Now)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Stages[len(res.Stages)-1]
	if last.Stage != compact.StageAutocompact || !last.Acted {
		t.Fatalf("autocompact did not run: %q", compact.StageNames(res))
	}
	got := hook.Result()
	if len(got.Candidates) != 1 {
		t.Fatalf("%d candidates, want the early request only: %+v", len(got.Candidates), got.Candidates)
	}
	c := got.Candidates[0]
	if c.Provenance.MessageUUID != early || c.Provenance.SessionID != "0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d" ||
		!strings.Contains(c.Body, "must finish before 06:00 UTC") || !strings.Contains(c.Body, "**Why:** The finance team loads it at six.") {
		t.Errorf("candidate %+v", c)
	}
	// The late request is in the two messages kept verbatim: it is not
	// summarized, so the flush does not see it.
	for _, c := range got.Candidates {
		if c.Provenance.MessageUUID == late {
			t.Error("the flush read a preserved message")
		}
	}
	runs := hook.Runs()
	summarized := len(in.Messages) - 2
	if len(runs) != 1 || runs[0].Handed != summarized || runs[0].New != summarized || runs[0].From != 0 || runs[0].To != summarized ||
		runs[0].Prompts != 9 || runs[0].Candidates != 1 || runs[0].Error != "" {
		t.Errorf("runs %+v, want one over %d messages with 9 prompts", runs, summarized)
	}
	if st := hook.State(); st.Watermark != summarized || st.Runs != 1 {
		t.Errorf("coordinator %+v", st)
	}
}

// The coordinator's watermark: messages already extracted are not read
// again, fewer than MinNewMessages new ones wait, and they are read with
// the next batch rather than lost. Repeats of an earlier candidate are
// duplicates.
func TestFlushWatermark(t *testing.T) {
	hook := extract.NewFlushExtractor(extract.FlushConfig{SessionID: "s"})
	first := []compact.Msg{
		compact.Prompt("p1", "Remember that the staging database is reset every Sunday night."),
		compact.Answer("a1", "Noted."),
		compact.Prompt("p2", "rename the export flag"),
		compact.Answer("a2", "Renamed."),
	}
	second := append(slices.Clone(first),
		compact.Prompt("p3", "Remember that release notes go to the #billing-releases channel, because support reads them there."),
		compact.Answer("a3", "Noted."))
	third := append(slices.Clone(second),
		compact.Prompt("p4", "Remember that the staging database is reset every Sunday night."),
		compact.Answer("a4", "Already noted."),
		compact.Prompt("p5", "add a dry-run flag to the export"),
		compact.Answer("a5", "Added."))

	steps := []struct {
		msgs              []compact.Msg
		new, from, to     int
		prompts, newCands int
	}{
		{first, 4, 0, 4, 2, 1},
		{second, 2, 4, 4, 0, 0}, // 2 new: under MinNewMessages, nothing runs
		{third, 4, 4, 10, 3, 1}, // p3 is read now; p4 repeats p1
	}
	for i, s := range steps {
		if err := hook.BeforeCompact(s.msgs); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		r := hook.Runs()[i]
		if r.Handed != len(s.msgs) || r.New != s.new || r.From != s.from || r.To != s.to || r.Prompts != s.prompts || r.Candidates != s.newCands {
			t.Errorf("step %d: run %+v, want new %d, [%d, %d), %d prompts, %d candidates", i, r, s.new, s.from, s.to, s.prompts, s.newCands)
		}
	}
	res := hook.Result()
	var from []string
	for _, c := range res.Candidates {
		from = append(from, c.Provenance.MessageUUID)
	}
	if !slices.Equal(from, []string{"p1", "p3"}) || len(res.Duplicates) != 1 || res.Duplicates[0].Candidate.Provenance.MessageUUID != "p4" || res.Duplicates[0].Matches != res.Candidates[0].Name {
		t.Errorf("candidates from %q, duplicates %+v", from, res.Duplicates)
	}
	if res.Candidates[0].Provenance.SessionID != "s" {
		t.Errorf("session %q, want the configured one for messages without a transcript", res.Candidates[0].Provenance.SessionID)
	}
}

// flakyExtractor fails its first call, then extracts with RuleExtractor.
type flakyExtractor struct {
	mu    sync.Mutex
	calls int
}

// A failed flush is reported, the compaction goes on, and the next flush
// reads the same messages again.
func TestFlushFailureIsRetried(t *testing.T) {
	hook := extract.NewFlushExtractor(extract.FlushConfig{Extractor: &flakyExtractor{}})
	cfg := compact.SmallConfig()
	cfg.FlushHook = hook
	cfg.CollapseProtectTail = 100
	msgs := append([]compact.Msg{compact.Prompt("r", "Remember that invoices are numbered per tenant, not globally."), compact.Answer("ra", "Noted.")}, compact.BigConversation(8)...)
	res, err := compact.Run(compact.Input{Messages: msgs}, cfg, &compact.State{}, enginetest.Now)
	if err != nil {
		t.Fatal(err)
	}
	last := res.Stages[len(res.Stages)-1]
	if last.Stage != compact.StageAutocompact || !last.Acted || !strings.Contains(last.Detail, "flush hook failed") || !strings.Contains(last.Detail, "model unavailable") {
		t.Errorf("last stage %+v", last)
	}
	if r := hook.Runs(); len(r) != 1 || r[0].Error == "" || r[0].To != 0 || hook.State().Watermark != 0 || len(hook.Result().Candidates) != 0 {
		t.Fatalf("after the failure: runs %+v state %+v", r, hook.State())
	}
	if err := hook.BeforeCompact(msgs); err != nil {
		t.Fatal(err)
	}
	r := hook.Runs()[1]
	if r.New != 0 || r.From != 0 || r.To != len(msgs) || r.Candidates != 1 || hook.Result().Candidates[0].Provenance.MessageUUID != "r" {
		t.Errorf("retry %+v, candidates %+v", r, hook.Result().Candidates)
	}
}

// Records the transcript marks as not the user's (meta, sidechain) are
// skipped even when a message list built by hand calls them prompts.
func TestFlushSkipsRecordsThatAreNotPrompts(t *testing.T) {
	data, u := enginetest.WireSession()
	tr := enginetest.ReadConvo(t, data, enginetest.WithText)
	text := "Remember that the invoices table belongs to billing and nobody else writes to it."
	msgs := []compact.Msg{compact.Prompt(u["meta"], text), compact.Prompt(u["sidechain"], text), compact.Prompt(u["summary"], text), compact.Prompt(u["question"], text)}
	hook := extract.NewFlushExtractor(extract.FlushConfig{Transcript: tr})
	if err := hook.BeforeCompact(msgs); err != nil {
		t.Fatal(err)
	}
	res := hook.Result()
	if len(res.Candidates) != 1 || res.Candidates[0].Provenance.MessageUUID != u["question"] || hook.Runs()[0].Prompts != 1 {
		t.Errorf("candidates %+v runs %+v", res.Candidates, hook.Runs())
	}
	// The time comes from the record: the body dates the statement.
	if !strings.Contains(res.Candidates[0].Body, "Stated by the user on 2026-03-05.") {
		t.Errorf("body %q", res.Candidates[0].Body)
	}
}

// countingExtractor records every message it is given.
type countingExtractor struct {
	mu   sync.Mutex
	seen map[string]int
}

// Many flushes at once (run with -race): no prompt is extracted twice,
// every prompt under the final watermark is extracted, none above it, and
// what is left above it is fewer than MinNewMessages.
func TestFlushConcurrent(t *testing.T) {
	const total = 200
	var conv []compact.Msg
	for i := 0; i < total; i++ {
		if i%2 == 0 {
			conv = append(conv, compact.Prompt(fmt.Sprint("p", i), fmt.Sprintf("request %d", i)))
		} else {
			conv = append(conv, compact.Answer(fmt.Sprint("a", i), "done"))
		}
	}
	ex := &countingExtractor{seen: map[string]int{}}
	hook := extract.NewFlushExtractor(extract.FlushConfig{Extractor: ex})
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for n := g % 7; n <= total; n += 1 + g%5 {
				_ = hook.BeforeCompact(conv[:n])
			}
		}(g)
	}
	wg.Wait()
	st := hook.State()
	if st.Running || st.Latest != total || total-st.Watermark >= extract.MinNewMessages {
		t.Fatalf("final state %+v", st)
	}
	// Arrival order differs from conversation order, but the log holds
	// each message once, so the watermark counts distinct messages.
	hook.Mu.Lock()
	below := map[string]bool{}
	for _, m := range hook.Log[:st.Watermark] {
		below[m.UUID] = true
	}
	hook.Mu.Unlock()
	for uuid, n := range ex.seen {
		if n != 1 || !below[uuid] {
			t.Errorf("%s extracted %d times (under the watermark: %v)", uuid, n, below[uuid])
		}
	}
	for uuid := range below {
		if strings.HasPrefix(uuid, "p") && ex.seen[uuid] != 1 {
			t.Errorf("%s is under the watermark but was never extracted", uuid)
		}
	}
}

// Context collapse runs before autocompact: when its folds are not enough,
// autocompact summarizes a list that holds folds, not the prompts in them.
// With the collapse store the flush reads the folded prompts.
func TestFlushReadsThroughCollapsedFolds(t *testing.T) {
	msgs := []compact.Msg{compact.Prompt("r", "Remember that invoices are numbered per tenant, not globally."), compact.Answer("ra", "Noted.")}
	for i := 0; i < 12; i++ {
		msgs = append(msgs, compact.Prompt(fmt.Sprint("u", i), fmt.Sprintf("request %d: add a flag", i)),
			compact.Answer(fmt.Sprint("a", i), strings.Repeat("detail ", 6000))) // 10500 tokens: the tail alone is over
	}
	for _, withStore := range []bool{true, false} {
		st := &compact.State{}
		cfg := extract.FlushConfig{}
		if withStore {
			cfg.Collapse = &st.Collapse
		}
		hook := extract.NewFlushExtractor(cfg)
		pc := compact.SmallConfig()
		pc.FlushHook = hook
		res, err := compact.Run(compact.Input{Messages: msgs}, pc, st, enginetest.Now)
		if err != nil {
			t.Fatal(err)
		}
		if got := compact.StageNames(res); !strings.Contains(got, "context-collapse*") || !strings.Contains(got, "autocompact*") {
			t.Fatalf("stages %q: want a collapse and then autocompact", got)
		}
		handed := hook.Runs()[0]
		cands := hook.Result().Candidates
		if withStore {
			if handed.Handed >= len(msgs) || handed.Expanded != len(msgs) || handed.New != len(msgs) || len(cands) != 1 || cands[0].Provenance.MessageUUID != "r" {
				t.Errorf("with the store: run %+v candidates %+v", handed, cands)
			}
		} else if handed.Expanded != handed.Handed || handed.New >= len(msgs) || len(cands) != 0 {
			t.Errorf("without the store the folds should hide the prompt: run %+v candidates %+v", handed, cands)
		}
	}
}

func (f *flakyExtractor) Extract(ctx context.Context, msgs []extract.Input, existing []extract.ExistingMemory) (extract.Result, error) {
	f.mu.Lock()
	f.calls++
	n := f.calls
	f.mu.Unlock()
	if n == 1 {
		return extract.Result{}, errors.New("model unavailable")
	}
	return extract.RuleExtractor{}.Extract(ctx, msgs, existing)
}

func (c *countingExtractor) Extract(_ context.Context, msgs []extract.Input, _ []extract.ExistingMemory) (extract.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range msgs {
		c.seen[m.UUID]++
	}
	return extract.Result{}, nil
}
