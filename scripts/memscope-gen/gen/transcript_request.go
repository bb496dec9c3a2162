package gen

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// request writes one API round trip: the request records, the response
// lines and, unless final, a tool call and its result.
func (g *sessionGen) request(final bool) {
	t, r := g.t, g.r
	ts := t.tick(50*time.Millisecond, 3*time.Second)
	shape := randHex(r, 64)
	if g.fresh {
		t.metaAt("api-request-shape", fmt.Sprintf(`"shapeHash":"%s","version":"%s","shape":{"system":[{"type":"text","text":"%s"}],"tools":[{"name":"Agent","description":"%s"},{"name":"Bash","description":"%s"},{"name":"Edit","description":"%s"}]}`,
			shape, clientVersion, filler(r, 7000+r.IntN(2000)), filler(r, 3000), filler(r, 6000+r.IntN(6000)), filler(r, 4000+r.IntN(4000))), ts)
	}
	nBlobs := 1 + r.IntN(3)
	tail := make([]string, nBlobs)
	for i := range tail {
		size := 200 + r.IntN(9000)
		if g.fresh && i == 0 {
			size = 20000 + r.IntN(10000)
		}
		tail[i] = randHex(r, 64)
		t.meta("api-request-blob", fmt.Sprintf(`"hash":"%s","message":{"role":"user","content":[{"type":"text","text":"%s"}]}`, tail[i], filler(r, size)))
	}
	reqRef := newUUID(r)
	t.metaAt("api-request", fmt.Sprintf(`"id":"%s","version":"%s","querySource":"repl_main_thread","shapeHash":"%s","params":{"model":"%s","max_tokens":128000,"thinking":{"type":"adaptive"}},"keep":0,"tail":["%s"],"requestDigest":"%s"`,
		reqRef, clientVersion, shape, t.model, strings.Join(tail, `","`), randHex(r, 64)), ts)
	g.fresh = false
	resp := g.response(reqRef)
	var blocks []string
	if r.IntN(10) < 3 {
		blocks = append(blocks, fmt.Sprintf(`{"type":"thinking","thinking":"%s","signature":"%s"}`, filler(r, 100+r.IntN(1500)), randHex(r, 48)))
	}
	if final || r.IntN(2) == 0 {
		blocks = append(blocks, fmt.Sprintf(`{"type":"text","text":"%s"}`, filler(r, 40+r.IntN(1500))))
	}
	if final {
		t.assistant(resp, blocks, "end_turn")
		g.remember(t.parent)
		return
	}
	tool, input, file := g.pickTool()
	toolID := "toolu_01" + randHex(r, 22)
	blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":"%s","name":"%s","input":%s}`, toolID, tool, input))
	t.assistant(resp, blocks, "tool_use")
	assistantUUID := t.parent
	g.remember(assistantUUID)
	if tool == "Agent" {
		g.subagent()
	}
	if tool == "Edit" {
		g.touch(file, assistantUUID)
	}
	g.toolResult(toolID, assistantUUID)
}

// response makes the usage of the next response from the context: cached
// sessions read the earlier context from cache and write what is new.
func (g *sessionGen) response(reqRef string) apiResponse {
	r := g.r
	resp := apiResponse{msgID: "msg_01" + randHex(g.r, 22), reqID: "req_011C" + randHex(g.r, 20), reqRef: reqRef}
	out := int64(20 + r.IntN(2500))
	if g.cached {
		fresh := min(g.sinceReq, g.ctx)
		input := int64(1 + r.IntN(12))
		resp.usage = model.Usage{InputTokens: input, CacheCreationInputTokens: fresh, CacheReadInputTokens: max(g.ctx-fresh, 0), OutputTokens: out}
	} else {
		resp.usage = model.Usage{InputTokens: g.ctx, OutputTokens: out}
	}
	g.sinceReq = 0
	g.grow(out)
	return resp
}

// pickTool chooses the tool of a step, its input JSON and, for Edit, the
// file's path relative to the cwd.
func (g *sessionGen) pickTool() (tool, input, file string) {
	r := g.r
	switch n := r.IntN(20); {
	case n == 0 && g.subagents:
		return "Agent", fmt.Sprintf(`{"description":"%s","prompt":"%s","subagent_type":"Explore"}`, sentence(r, 3), filler(r, 200+r.IntN(600))), ""
	case n < 6 && len(g.edits) > 0:
		file = g.edits[r.IntN(len(g.edits))]
		return "Edit", fmt.Sprintf(`{"file_path":"%s/%s","old_string":"%s","new_string":"%s"}`, jsonEscape(g.plan.CWD), file, filler(r, 80), filler(r, 120)), file
	case n < 12:
		return "Read", fmt.Sprintf(`{"file_path":"%s/src/%s.go"}`, jsonEscape(g.plan.CWD), words[r.IntN(len(words))]), ""
	default:
		return "Bash", fmt.Sprintf(`{"command":"go test ./%s/...","description":"%s"}`, words[r.IntN(len(words))], sentence(r, 3)), ""
	}
}

// toolResult writes the user record carrying a tool's result. A result
// over largeToolResult characters goes to tool-results/<id>.txt and the
// transcript keeps a preview, as the client does.
func (g *sessionGen) toolResult(toolID, assistantUUID string) {
	t, r := g.t, g.r
	size := 100 + r.IntN(4000)
	switch n := r.IntN(100); {
	case n < 25:
		size = 4000 + r.IntN(16000)
	case n < 30:
		size = 20000 + r.IntN(28000)
	case n == 30:
		size = largeToolResult + 1 + r.IntN(60000)
	}
	content := filler(r, size)
	if size > largeToolResult {
		rel := path.Join("projects", g.plan.Slug, g.plan.SID, "tool-results", toolID+".txt")
		p := filepath.Join(g.plan.Home, filepath.FromSlash(rel))
		if err := writeFileMkdir(p, []byte(plainText(r, size))); err != nil && t.err == nil {
			t.err = err
		}
		g.res.Main.ToolResultFiles++
		content = fmt.Sprintf(`<persisted-output>\nOutput too large (%d KB). Full output saved to: %s\n\nPreview (first 2KB):\n%s\n</persisted-output>`, size/1024, jsonEscape(path.Join(syntheticHome, rel)), filler(r, previewBytes))
	}
	uuid := newUUID(r)
	t.chain("user", "", uuid, fmt.Sprintf(`"message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"%s"}]},"sourceToolAssistantUUID":"%s"`, toolID, content, assistantUUID), t.tick(10*time.Millisecond, 90*time.Second))
	g.remember(uuid)
	// Tools read more than their result shows (files, command output the
	// model keeps in context), hence the extra tokens.
	g.grow(int64(len(content))/4 + int64(1000+r.IntN(6000)))
}

func writeFileMkdir(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}
