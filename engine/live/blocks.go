package live

import (
	"slices"
	"time"

	"github.com/memscope/memscope/model"
)

// The 5-hour usage blocks follow ccusage 18.0.11's `blocks` command
// (identifySessionBlocks, createBlock, createGapBlock and
// calculateBurnRate in its dist/data-loader-*.js, the same code as
// src/_session-blocks.ts of github.com/ryoppippi/ccusage):
//   - usage entries from every transcript of the home (projects/**/*.jsonl,
//     subagents included), a response counted once per
//     "message.id:requestId" when both are present, sorted by timestamp;
//   - a block starts at its first entry's timestamp floored to the UTC
//     hour and lasts 5 hours;
//   - an entry more than 5 hours after the block's start, or more than 5
//     hours after the previous entry, closes the block and starts the
//     next (floored again); a silence longer than 5 hours also leaves a
//     gap block from the last entry + 5 h to the next entry;
//   - a block is active when now is less than 5 hours after its last
//     entry and before its end;
//   - burn rate: all tokens (input, output, cache creation, cache read)
//     divided by the minutes from the block's first to its last entry
//     (none when they coincide); the projection adds that rate over the
//     minutes left in the block.
// ccusage validates each line against its own schema; here a line counts
// when it decodes as a record with message.usage and a timestamp.

// BlockDuration is the length of a usage block (ccusage's default
// --session-length, the client's billing window).
const BlockDuration = 5 * time.Hour

// UsageEntry is one API response's usage, as the blocks count it.
type UsageEntry struct {
	Time  time.Time   `json:"time"`
	Usage model.Usage `json:"usage"`
	Model string      `json:"model,omitempty"`
	// Key is "message.id:requestId", "" when either is missing.
	Key string `json:"key,omitempty"`
}

// Block is one 5-hour usage block, or a gap between two.
type Block struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// LastActivity is the block's last entry (ccusage's actualEndTime).
	LastActivity time.Time   `json:"lastActivity,omitzero"`
	Active       bool        `json:"active"`
	Gap          bool        `json:"gap,omitempty"`
	Entries      int         `json:"entries"`
	Tokens       model.Usage `json:"tokens"`
	// Models lists the models used, in order of first use.
	Models []string `json:"models,omitempty"`
	// TokensPerMinute is ccusage's burn rate; 0 when the block's entries
	// all share one timestamp.
	TokensPerMinute float64 `json:"tokensPerMinute"`
	// ProjectedTokens and RemainingMinutes project an active block to its
	// end at the current burn rate.
	ProjectedTokens  int64 `json:"projectedTokens,omitempty"`
	RemainingMinutes int   `json:"remainingMinutes,omitempty"`
}

// TotalTokens sums the four token kinds, as ccusage's getTotalTokens does.
func TotalTokens(u model.Usage) int64 {
	return u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// Blocks groups entries into usage blocks and gaps, oldest first, judged
// active at now. entries need not be sorted.
func Blocks(entries []UsageEntry, now time.Time) []Block {
	if len(entries) == 0 {
		return nil
	}
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(a, b UsageEntry) int { return a.Time.Compare(b.Time) })
	return blocksOfSorted(sorted, now)
}

// blocksOfSorted is Blocks over entries already sorted by time.
func blocksOfSorted(sorted []UsageEntry, now time.Time) []Block {
	if len(sorted) == 0 {
		return nil
	}
	var out []Block
	start, from := sorted[0].Time.UTC().Truncate(time.Hour), 0
	for i := 1; i < len(sorted); i++ {
		t, last := sorted[i].Time, sorted[i-1].Time
		if t.Sub(start) <= BlockDuration && t.Sub(last) <= BlockDuration {
			continue
		}
		out = append(out, newBlock(start, sorted[from:i], now))
		if t.Sub(last) > BlockDuration {
			out = append(out, Block{Start: last.Add(BlockDuration), End: t, Gap: true})
		}
		start, from = t.UTC().Truncate(time.Hour), i
	}
	return append(out, newBlock(start, sorted[from:], now))
}

// CurrentBlock is the active block at now, if there is one.
func CurrentBlock(entries []UsageEntry, now time.Time) (Block, bool) {
	bs := Blocks(entries, now)
	if n := len(bs); n > 0 && bs[n-1].Active {
		return bs[n-1], true
	}
	return Block{}, false
}

func newBlock(start time.Time, es []UsageEntry, now time.Time) Block {
	b := Block{Start: start, End: start.Add(BlockDuration), Entries: len(es)}
	b.LastActivity = es[len(es)-1].Time
	b.Active = now.Sub(b.LastActivity) < BlockDuration && now.Before(b.End)
	for _, e := range es {
		b.Tokens = b.Tokens.Add(e.Usage)
		if e.Model != "" && !slices.Contains(b.Models, e.Model) {
			b.Models = append(b.Models, e.Model)
		}
	}
	if minutes := b.LastActivity.Sub(es[0].Time).Minutes(); minutes > 0 {
		b.TokensPerMinute = float64(TotalTokens(b.Tokens)) / minutes
		if b.Active {
			left := max(0, b.End.Sub(now).Minutes())
			b.ProjectedTokens = int64(float64(TotalTokens(b.Tokens)) + b.TokensPerMinute*left + 0.5)
			b.RemainingMinutes = int(left + 0.5)
		}
	}
	return b
}

// UsageOf is rec's usage entry, if it carries usage with a timestamp.
func UsageOf(rec *model.Record) (UsageEntry, bool) {
	m := rec.Message
	if m == nil || m.Usage == nil || rec.Timestamp.IsZero() {
		return UsageEntry{}, false
	}
	e := UsageEntry{Time: rec.Timestamp, Usage: *m.Usage, Model: m.Model}
	if m.ID != "" && rec.RequestID != "" {
		e.Key = m.ID + ":" + rec.RequestID
	}
	return e, true
}

// Dedupe keeps the first entry of each response (by Key); entries
// without a key all count. Order the input as ccusage reads files: by
// each file's earliest timestamp, then in file order.
func Dedupe(entries []UsageEntry) []UsageEntry {
	return dedupeInto(make([]UsageEntry, 0, len(entries)), entries)
}

// dedupeInto is Dedupe appending to out, which may be entries[:0].
func dedupeInto(out, entries []UsageEntry) []UsageEntry {
	seen := make(map[string]struct{}, len(entries))
	for _, e := range entries {
		if e.Key != "" {
			if _, dup := seen[e.Key]; dup {
				continue
			}
			seen[e.Key] = struct{}{}
		}
		out = append(out, e)
	}
	return out
}
