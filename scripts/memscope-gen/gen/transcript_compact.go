package gen

import (
	"fmt"
	"strings"
	"time"
)

// compact writes a compact_boundary and its summary, as /compact or
// autocompact does. A partial compaction keeps the last few messages as a
// preserved segment relinked after the summary (the anchor).
func (g *sessionGen) compact(partial bool) {
	t, r := g.t, g.r
	boundary, summary := newUUID(r), newUUID(r)
	pre := g.ctx
	summaryText := filler(r, 3000+r.IntN(9000))
	post := int64(len(summaryText))/4 + 2000 + r.Int64N(1500)
	g.cumDropped += max(pre-post, 0)
	trigger := "auto"
	if partial || r.IntN(10) == 0 {
		trigger = "manual"
	}
	var meta strings.Builder
	fmt.Fprintf(&meta, `"trigger":"%s","preTokens":%d,"preCompactOrganizationsCoverStart":false`, trigger, pre)
	// Older records lack the optional figures; keep a few that way.
	full := r.IntN(20) > 0
	if full {
		fmt.Fprintf(&meta, `,"durationMs":%d`, 2000+r.IntN(60000))
	}
	if partial {
		keep := g.recent[len(g.recent)-min(len(g.recent), 1+r.IntN(3)):]
		ids := `"` + strings.Join(keep, `","`) + `"`
		fmt.Fprintf(&meta, `,"preservedSegment":{"headUuid":"%s","anchorUuid":"%s","tailUuid":"%s"},"preservedMessages":{"anchorUuid":"%s","uuids":[%s],"allUuids":[%s]}`,
			keep[0], summary, keep[len(keep)-1], summary, ids, ids)
	}
	if full {
		fmt.Fprintf(&meta, `,"postTokens":%d,"cumulativeDroppedTokens":%d`, post, g.cumDropped)
	}
	logical := t.parent
	t.parent = ""
	ts := t.tick(2*time.Second, time.Minute)
	t.chain("system", "compact_boundary", boundary, fmt.Sprintf(`"logicalParentUuid":"%s","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{%s}`, logical, meta.String()), ts)
	t.chain("user", "", summary, fmt.Sprintf(`"promptId":"%s","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n<summary>\n%s\n</summary>"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true`, newUUID(r), summaryText), t.tick(time.Millisecond, 20*time.Millisecond))
	t.st.CompactBoundaries++
	if partial {
		t.st.PartialCompactions++
	}
	g.ctx, g.sinceReq = post, post
	g.recent = []string{summary}
	g.fresh = true
}

// microcompact writes a microcompact_boundary: old tool results cleared,
// at least 20000 tokens saved, the chain kept.
func (g *sessionGen) microcompact() {
	t, r := g.t, g.r
	saved := microSaveMin + r.Int64N(max(g.ctx/4-microSaveMin, 1))
	ids := make([]string, 2+r.IntN(6))
	for i := range ids {
		ids[i] = "toolu_01" + randHex(r, 22)
	}
	t.chain("system", "microcompact_boundary", newUUID(r), fmt.Sprintf(`"content":"Context microcompacted","isMeta":false,"level":"info","microcompactMetadata":{"trigger":"auto","preTokens":%d,"tokensSaved":%d,"compactedToolIds":["%s"],"clearedAttachmentUUIDs":[]}`,
		g.ctx, saved, strings.Join(ids, `","`)), t.tick(time.Second, 10*time.Second))
	t.st.MicrocompactBoundaries++
	g.ctx -= saved
}
