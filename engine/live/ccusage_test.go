package live

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

type ccusageBlocks struct {
	Blocks []struct {
		StartTime     time.Time `json:"startTime"`
		EndTime       time.Time `json:"endTime"`
		ActualEndTime time.Time `json:"actualEndTime"`
		IsActive      bool      `json:"isActive"`
		IsGap         bool      `json:"isGap"`
		Entries       int       `json:"entries"`
		TokenCounts   struct {
			InputTokens              int64 `json:"inputTokens"`
			OutputTokens             int64 `json:"outputTokens"`
			CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
			CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
		} `json:"tokenCounts"`
		Models   []string `json:"models"`
		BurnRate *struct {
			TokensPerMinute float64 `json:"tokensPerMinute"`
		} `json:"burnRate"`
		Projection *struct {
			TotalTokens      int64 `json:"totalTokens"`
			RemainingMinutes int   `json:"remainingMinutes"`
		} `json:"projection"`
	} `json:"blocks"`
}

// The 5-hour blocks agree with `ccusage blocks --json` on a home whose
// usage spans a gap of more than five hours, a block cut five hours
// after its floored start, a subagent, a response copied into a later
// session (counted once, in the file that starts first) and lines
// without ids (always counted). ccusage judges activity by the real
// clock, so the usage is placed relative to it.
func TestBlocksMatchCcusage(t *testing.T) {
	bin := enginetest.Ccusage(t)
	clock := time.Now().UTC().Truncate(time.Second)
	home := t.TempDir()
	line := func(ago time.Duration, id, req string, in, out, read int64, modelName string) string {
		ids := ""
		if id != "" {
			ids = fmt.Sprintf(`"requestId":%q,`, req)
			id = fmt.Sprintf(`"id":%q,`, id)
		}
		return fmt.Sprintf(`{"type":"assistant","timestamp":%q,"sessionId":"s","version":"2.1.331",%s"message":{%s"model":%q,"role":"assistant","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":0}}}`+"\n",
			clock.Add(-ago).Format(model.ISOMillis), ids, id, modelName, in, out, read)
	}
	h := time.Hour
	files := map[string]string{
		// An old block, then a silence of more than five hours.
		"projects/-w-a/old.jsonl": line(20*h, "m1", "r1", 100, 10, 1000, "claude-opus-4-5") + line(19*h, "m2", "r2", 200, 20, 0, "claude-opus-4-5"),
		// A block whose last entry is more than five hours after its
		// floored start, so it is cut without a gap.
		"projects/-w-a/mid.jsonl": line(12*h, "m3", "r3", 300, 30, 0, "claude-sonnet-4-5") + line(9*h, "m4", "r4", 400, 40, 0, "claude-sonnet-4-5") +
			line(6*h+50*time.Minute, "m5", "r5", 500, 50, 0, "claude-sonnet-4-5"),
		// The current block: a session, a resumed copy of one of its
		// responses in a later file, a subagent, lines without ids.
		"projects/-w-a/now.jsonl": line(2*h, "m6", "r6", 600, 60, 6000, "claude-opus-4-5") + line(90*time.Minute, "", "", 7, 7, 0, "claude-opus-4-5") +
			line(90*time.Minute, "", "", 7, 7, 0, "claude-opus-4-5") + line(40*time.Minute, "m7", "r7", 700, 70, 0, "claude-opus-4-5"),
		"projects/-w-a/resumed.jsonl":                  line(30*time.Minute, "m8", "r8", 800, 80, 0, "claude-opus-4-5") + line(20*time.Minute, "m7", "r7", 700, 70, 0, "claude-opus-4-5"),
		"projects/-w-a/now/subagents/agent-a1.jsonl":   line(35*time.Minute, "m9", "r9", 900, 90, 0, "claude-haiku-4-5"),
		"projects/-w-a/now/tool-results/toolu_1.txt":   "not a transcript",
		"projects/-w-b/other-project-same-block.jsonl": line(10*time.Minute, "m10", "r10", 1000, 100, 0, "claude-opus-4-5"),
	}
	for rel, content := range files {
		p := writeFile(t, home, rel, content)
		// ccusage reads every file; the tracker only those written in the
		// last day, which these all were.
		if err := os.Chtimes(p, clock.Add(-5*time.Minute), clock.Add(-5*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "blocks", "--json", "--offline")
	cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ccusage: %v", err)
	}
	var want ccusageBlocks
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("ccusage output: %v\n%s", err, out)
	}

	hm, err := model.OpenHome(home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracker(Options{Home: hm, Now: func() time.Time { return clock }, Alive: func(int) bool { return false }})
	snap := tr.Refresh()
	var all []UsageEntry
	var fl []*followed
	for _, f := range tr.files {
		fl = append(fl, f)
	}
	// The tracker's own order and deduplication, over every block.
	tr.mu.Lock()
	for _, f := range orderForDedupe(fl) {
		all = append(all, f.usage...)
	}
	tr.mu.Unlock()
	got := Blocks(Dedupe(all), clock)

	t.Logf("blocks: %s", describeBlocks(got))
	if len(got) != len(want.Blocks) || len(got) != 5 {
		t.Fatalf("%d blocks, ccusage %d:\n%s\n%s", len(got), len(want.Blocks), describeBlocks(got), out)
	}
	for i, w := range want.Blocks {
		g := got[i]
		wt := model.Usage{InputTokens: w.TokenCounts.InputTokens, OutputTokens: w.TokenCounts.OutputTokens,
			CacheCreationInputTokens: w.TokenCounts.CacheCreationInputTokens, CacheReadInputTokens: w.TokenCounts.CacheReadInputTokens}
		if !g.Start.Equal(w.StartTime) || !g.End.Equal(w.EndTime) || g.Gap != w.IsGap || g.Active != w.IsActive || g.Entries != w.Entries ||
			g.Tokens != wt || strings.Join(g.Models, ",") != strings.Join(w.Models, ",") || !w.IsGap && !g.LastActivity.Equal(w.ActualEndTime) {
			t.Errorf("block %d: %+v\nccusage: %+v", i, g, w)
		}
		if w.BurnRate != nil && math.Abs(g.TokensPerMinute-w.BurnRate.TokensPerMinute) > 1e-6*w.BurnRate.TokensPerMinute {
			t.Errorf("block %d burn rate %v, ccusage %v", i, g.TokensPerMinute, w.BurnRate.TokensPerMinute)
		}
		// ccusage projects from its own clock, a moment after ours.
		if w.Projection != nil && (g.RemainingMinutes-w.Projection.RemainingMinutes > 1 || w.Projection.RemainingMinutes-g.RemainingMinutes > 1) {
			t.Errorf("block %d remaining %d minutes, ccusage %d", i, g.RemainingMinutes, w.Projection.RemainingMinutes)
		}
	}
	if snap.Block == nil || !snap.Block.Start.Equal(got[len(got)-1].Start) || snap.Block.Tokens != got[len(got)-1].Tokens {
		t.Errorf("snapshot block %+v, want the last of %s", snap.Block, describeBlocks(got))
	}
}
