package testenv

import (
	"fmt"
	"strings"
	"time"
)

// Compacting writes a transcript shaped like the client's (2.1.332, -p):
// one prompt and one response per entry of contexts (the response's
// context in tokens, as input + cache read + cache creation), and an
// automatic compaction after each turn whose index is a key of autoAt,
// with that preTokens and a compact summary. The model is modelID; the
// records carry cwd and version 2.1.332.
func Compacting(session, cwd, modelID string, contexts []int, autoAt map[int]int) string {
	var b strings.Builder
	t := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	parent := "null"
	n := 0
	next := func() string {
		n++
		t = t.Add(time.Second)
		return fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n)
	}
	common := func(uuid string) string {
		return fmt.Sprintf(`"parentUuid":%s,"isSidechain":false,"uuid":"%s","timestamp":"%s","sessionId":"%s","cwd":"%s","version":"2.1.332","gitBranch":"main"`,
			parent, uuid, t.Format("2006-01-02T15:04:05.000Z"), session, cwd)
	}
	for i, ctx := range contexts {
		u := next()
		fmt.Fprintf(&b, `{%s,"type":"user","message":{"role":"user","content":"step %d"},"sentAtMs":%d}`+"\n", common(u), i, t.UnixMilli())
		parent = `"` + u + `"`
		a := next()
		fmt.Fprintf(&b, `{%s,"type":"assistant","message":{"id":"msg_%04d","type":"message","role":"assistant","model":"%s","content":[{"type":"text","text":"ok %d"}],"stop_reason":"end_turn","usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":%d,"output_tokens":40}},"requestId":"req_%04d"}`+"\n",
			common(a), i, modelID, i, ctx/10, ctx-ctx/10, i)
		parent = `"` + a + `"`
		if pre, ok := autoAt[i]; ok {
			bd, leaf := next(), parent
			parent = "null"
			fmt.Fprintf(&b, `{%s,"logicalParentUuid":%s,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{"trigger":"auto","preTokens":%d,"durationMs":900,"postTokens":4200}}`+"\n",
				common(bd), leaf, pre)
			parent = `"` + bd + `"`
			s := next()
			fmt.Fprintf(&b, `{%s,"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation. <summary>step %d</summary>"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true,"sentAtMs":%d}`+"\n", common(s), i, t.UnixMilli())
			parent = `"` + s + `"`
		}
	}
	return b.String()
}
