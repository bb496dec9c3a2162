package live

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func entryAt(d time.Duration, in, out int64) UsageEntry {
	return UsageEntry{Time: t0.Add(d), Usage: model.Usage{InputTokens: in, OutputTokens: out}, Model: "claude-opus-5-5"}
}

// describeBlocks writes each block as start-end[:entries][ gap][ active].
func describeBlocks(bs []Block) string {
	var parts []string
	for _, b := range bs {
		s := b.Start.Format("15:04") + "-" + b.End.Format("15:04")
		if b.Gap {
			s += " gap"
		} else {
			s += fmt.Sprintf(":%d", b.Entries)
		}
		if b.Active {
			s += " active"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func TestBlocks(t *testing.T) {
	h := time.Hour
	tests := []struct {
		name    string
		entries []UsageEntry
		now     time.Time
		want    string
	}{
		{"none", nil, t0, ""},
		{"start floored to the hour", []UsageEntry{entryAt(55*time.Minute+30*time.Second, 1, 1)}, t0.Add(h), "10:00-15:00:1 active"},
		{"within five hours", []UsageEntry{entryAt(0, 1, 1), entryAt(h, 1, 1), entryAt(2*h, 1, 1)}, t0.Add(3 * h), "10:00-15:00:3 active"},
		{"unsorted input", []UsageEntry{entryAt(2*h, 1, 1), entryAt(0, 1, 1), entryAt(h, 1, 1)}, t0.Add(3 * h), "10:00-15:00:3 active"},
		// 4h50 after 10:20 is 15:10: more than five hours after the
		// floored start (10:00), so a new block, without a gap.
		{"five hours from the floored start", []UsageEntry{entryAt(20*time.Minute, 1, 1), entryAt(5*h+10*time.Minute, 1, 1)}, t0.Add(6 * h),
			"10:00-15:00:1, 15:00-20:00:1 active"},
		{"exactly five hours stays in", []UsageEntry{entryAt(0, 1, 1), entryAt(5*h, 1, 1)}, t0.Add(5*h - time.Second),
			"10:00-15:00:2 active"},
		{"silence over five hours leaves a gap", []UsageEntry{entryAt(0, 1, 1), entryAt(2*h, 1, 1), entryAt(8*h+30*time.Minute, 1, 1)}, t0.Add(9 * h),
			"10:00-15:00:2, 17:00-18:30 gap, 18:00-23:00:1 active"},
		{"inactive after the end", []UsageEntry{entryAt(0, 1, 1), entryAt(4*h, 1, 1)}, t0.Add(5 * h), "10:00-15:00:2"},
		{"inactive five hours after the last entry", []UsageEntry{entryAt(0, 1, 1)}, t0.Add(5 * h), "10:00-15:00:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeBlocks(Blocks(tt.entries, tt.now)); got != tt.want {
				t.Errorf("blocks %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCurrentBlockFigures(t *testing.T) {
	es := []UsageEntry{entryAt(10*time.Minute, 1000, 500), entryAt(40*time.Minute, 2000, 1000)}
	es[1].Usage.CacheReadInputTokens, es[1].Usage.CacheCreationInputTokens = 300, 200
	es[1].Model = "claude-sonnet-5"
	now := t0.Add(time.Hour)
	b, ok := CurrentBlock(es, now)
	if !ok {
		t.Fatal("no current block")
	}
	want := model.Usage{InputTokens: 3000, OutputTokens: 1500, CacheReadInputTokens: 300, CacheCreationInputTokens: 200}
	if b.Tokens != want || b.Entries != 2 || !b.LastActivity.Equal(t0.Add(40*time.Minute)) {
		t.Errorf("block %+v", b)
	}
	if strings.Join(b.Models, ",") != "claude-opus-5-5,claude-sonnet-5" {
		t.Errorf("models %v", b.Models)
	}
	// 5000 tokens over the 30 minutes from the first to the last entry;
	// 4 hours are left, so 5000 + 4 × 60 × 5000/30.
	if b.TokensPerMinute != 5000.0/30 || b.RemainingMinutes != 240 || b.ProjectedTokens != 45000 {
		t.Errorf("rate %v remaining %d projected %d", b.TokensPerMinute, b.RemainingMinutes, b.ProjectedTokens)
	}
	if _, ok := CurrentBlock(es, t0.Add(6*time.Hour)); ok {
		t.Error("a block six hours old is current")
	}
	one, _ := CurrentBlock(es[:1], now)
	if one.TokensPerMinute != 0 || one.ProjectedTokens != 0 {
		t.Errorf("one entry has a burn rate: %+v", one)
	}
}

func TestUsageOfAndDedupe(t *testing.T) {
	usage := &model.Usage{InputTokens: 5, OutputTokens: 7}
	recs := []*model.Record{
		{Type: model.RecordAssistant, Timestamp: t0, RequestID: "req_1", Message: &model.Message{ID: "msg_1", Usage: usage}},
		// The same response again (a second content block, or a resumed
		// session's copy): counted once.
		{Type: model.RecordAssistant, Timestamp: t0.Add(time.Second), RequestID: "req_1", Message: &model.Message{ID: "msg_1", Usage: usage}},
		// Without a request id: always counted.
		{Type: model.RecordAssistant, Timestamp: t0, Message: &model.Message{ID: "msg_2", Usage: usage}},
		{Type: model.RecordAssistant, Timestamp: t0, Message: &model.Message{ID: "msg_2", Usage: usage}},
		// No timestamp, no usage: not entries.
		{Type: model.RecordAssistant, RequestID: "req_3", Message: &model.Message{ID: "msg_3", Usage: usage}},
		{Type: model.RecordAssistant, Timestamp: t0, Message: &model.Message{ID: "msg_4"}},
	}
	var es []UsageEntry
	for _, r := range recs {
		if e, ok := UsageOf(r); ok {
			es = append(es, e)
		}
	}
	if len(es) != 4 || es[0].Key != "msg_1:req_1" || es[2].Key != "" {
		t.Fatalf("entries %+v", es)
	}
	d := Dedupe(es)
	if len(d) != 3 || !d[0].Time.Equal(t0) {
		t.Errorf("deduped %+v", d)
	}
}
