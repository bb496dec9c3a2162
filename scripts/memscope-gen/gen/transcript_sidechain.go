package gen

import (
	"fmt"
	"path"
	"time"

	"github.com/memscope/memscope/model"
)

// smallResponse is a response of a side conversation: its own small
// context, unrelated to the main one.
func smallResponse(g *sessionGen, ctx int64) apiResponse {
	r := g.r
	return apiResponse{msgID: "msg_01" + randHex(r, 22), reqID: "req_011C" + randHex(r, 20), reqRef: newUUID(r),
		usage: model.Usage{InputTokens: int64(1 + r.IntN(8)), CacheCreationInputTokens: int64(500 + r.IntN(4000)), CacheReadInputTokens: ctx, OutputTokens: int64(20 + r.IntN(1200))}}
}

// inlineSidechain writes a side conversation into the main transcript
// with isSidechain true, as older clients did for subagents: its own
// chain from a null parent; the main chain continues where it was.
func (g *sessionGen) inlineSidechain() {
	t, r := g.t, g.r
	saved := t.parent
	t.sidechain, t.parent = true, ""
	t.chain("user", "", newUUID(r), fmt.Sprintf(`"message":{"role":"user","content":"%s"}`, filler(r, 200+r.IntN(800))), t.tick(time.Second, 5*time.Second))
	ctx := int64(5000 + r.IntN(20000))
	for i, n := 0, 1+r.IntN(3); i < n; i++ {
		t.assistant(smallResponse(g, ctx), []string{fmt.Sprintf(`{"type":"text","text":"%s"}`, filler(r, 100+r.IntN(900)))}, "end_turn")
		ctx += 2000
	}
	t.sidechain, t.parent = false, saved
}

// subagent writes projects/<slug>/<sessionId>/subagents/agent-<id>.jsonl
// for an Agent tool call: a sidechain transcript with its own usage.
func (g *sessionGen) subagent() {
	r, parent := g.r, g.t
	st := TranscriptStats{Kind: "subagent", SessionID: g.plan.SID, AgentID: randHex(r, 16), CWD: g.plan.CWD}
	rel := path.Join("projects", g.plan.Slug, g.plan.SID, "subagents", "agent-"+st.AgentID+".jsonl")
	sw, err := newTranscriptWriter(g.plan.Home, rel, r, &st, parent.now)
	if err != nil {
		parent.err = err
		return
	}
	sw.sidechain = true
	sw.chain("user", "", newUUID(r), fmt.Sprintf(`"message":{"role":"user","content":"%s"}`, filler(r, 300+r.IntN(1500))), sw.tick(time.Second, 3*time.Second))
	ctx := int64(8000 + r.IntN(12000))
	for i, n := 0, 2+r.IntN(7); i <= n; i++ {
		resp := smallResponse(g, ctx)
		if i == n {
			sw.assistant(resp, []string{fmt.Sprintf(`{"type":"text","text":"%s"}`, filler(r, 300+r.IntN(2000)))}, "end_turn")
			break
		}
		toolID := "toolu_01" + randHex(r, 22)
		sw.assistant(resp, []string{fmt.Sprintf(`{"type":"tool_use","id":"%s","name":"Read","input":{"file_path":"%s/src/%s.go"}}`, toolID, jsonEscape(g.plan.CWD), words[r.IntN(len(words))])}, "tool_use")
		size := 500 + r.IntN(15000)
		sw.chain("user", "", newUUID(r), fmt.Sprintf(`"message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"%s"}]}`, toolID, filler(r, size)), sw.tick(100*time.Millisecond, 20*time.Second))
		ctx += int64(size)/4 + resp.usage.OutputTokens + resp.usage.CacheCreationInputTokens
	}
	if err := sw.close(); err != nil {
		parent.err = err
	}
	parent.now = sw.now
	g.res.Subagents = append(g.res.Subagents, st)
}
