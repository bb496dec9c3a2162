package export

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/model"
)

const (
	fxHome    = "projects/-home-me-app/"
	fxCWD     = "/home/me/app"
	fxSession = "5e551011-0000-4000-8000-00000000aaaa"
)

var fxStart = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// fxTranscript builds transcript lines.
type fxTranscript struct {
	lines []string
	n     int
}

func fxParent(p string) any {
	if p == "" {
		return nil
	}
	return p
}

func fxText(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func fxToolUse(id, name string, input map[string]any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}

func fxToolRes(id, content string, isErr bool) map[string]any {
	return map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isErr}
}

// fxBoundary: a full auto compaction with its summary, then a
// microcompaction, and a turn after each.
func fxBoundary() fstest.MapFS {
	var b fxTranscript
	b.user("u1", "", "Plan the cache rewrite.")
	b.assistant("a1", "u1", "claude-opus-5-5", "1", 170000, 400, fxText("Here is the plan: tenant-keyed LRU."))
	b.rec(map[string]any{"type": "system", "subtype": "compact_boundary", "uuid": "b1", "parentUuid": nil, "logicalParentUuid": "a1",
		"content": "Conversation compacted", "isMeta": false, "level": "info",
		"compactMetadata": map[string]any{"trigger": "auto", "preTokens": 170400, "postTokens": 4100, "durationMs": 23000}})
	b.rec(map[string]any{"type": "user", "uuid": "s1", "parentUuid": "b1", "isCompactSummary": true, "isVisibleInTranscriptOnly": true,
		"message": map[string]any{"role": "user", "content": "This session is being continued from a previous conversation.\n<summary>\nThe user asked for a cache plan; a tenant-keyed LRU was proposed.\n</summary>"}})
	b.user("u2", "s1", "Now write the invalidation.")
	b.assistant("a2", "u2", "claude-opus-5-5", "2", 5000, 300, fxText("Invalidation happens on price change."))
	b.rec(map[string]any{"type": "system", "subtype": "microcompact_boundary", "uuid": "m1", "parentUuid": "a2",
		"content": "Context microcompacted", "microcompactMetadata": map[string]any{"trigger": "auto", "preTokens": 52000, "tokensSaved": 21000}})
	b.user("u3", "m1", "Thanks.")
	b.assistant("a3", "u3", "claude-opus-5-5", "3", 31000, 20, fxText("You're welcome."))
	b.lastPrompt("a3")
	return fstest.MapFS{fxHome + fxSession + ".jsonl": {Data: []byte(b.String())}}
}

// fxPaste: pastes in each form the export resolves.
func fxPaste() fstest.MapFS {
	cached := "func main() {\n\tfmt.Println(\"hi\")\n}"
	hash := string(model.HashPaste([]byte(cached)))
	hist := []map[string]any{
		{"display": "[Pasted text #1 +2 lines] review this", "pastedContents": map[string]any{"1": map[string]any{"id": 1, "type": "text", "contentHash": hash}},
			"timestamp": 1795338060000, "project": fxCWD, "sessionId": fxSession},
		{"display": "and [Pasted text #2 +1 lines] too", "pastedContents": map[string]any{"2": map[string]any{"id": 2, "type": "text", "content": "one\ntwo"}},
			"timestamp": 1795338120000, "project": fxCWD, "sessionId": fxSession},
		{"display": "[Pasted text #3 +9 lines] swept", "pastedContents": map[string]any{"3": map[string]any{"id": 3, "type": "text", "contentHash": "00000000deadbeef"}},
			"timestamp": 1795338180000, "project": fxCWD, "sessionId": fxSession},
		{"display": "[Pasted text #1 +2 lines] other session", "pastedContents": map[string]any{"1": map[string]any{"id": 1, "type": "text", "content": "not\nthis\none"}},
			"timestamp": 1795338180000, "project": fxCWD, "sessionId": "other"},
	}
	var h fxTranscript
	for _, m := range hist {
		h.raw(m)
	}
	var b fxTranscript
	b.user("u1", "", cached+" review this")
	b.assistant("a1", "u1", "claude-opus-5-5", "1", 900, 40, fxText("Looks fine."))
	b.user("u2", "a1", "and [Pasted text #2 +1 lines] too")
	b.assistant("a2", "u2", "claude-opus-5-5", "2", 950, 12, fxText("Noted."))
	b.user("u3", "a2", "[Pasted text #3 +9 lines] swept")
	b.assistant("a3", "u3", "claude-opus-5-5", "3", 990, 12, fxText("That paste is gone."))
	b.user("u4", "a3", "see <pasted_content id=\"p1\">line a\nline b</pasted_content id=\"p1\"> please")
	b.assistant("a4", "u4", "claude-opus-5-5", "4", 1000, 12, fxText("Seen."))
	b.lastPrompt("a4")
	return fstest.MapFS{
		fxHome + fxSession + ".jsonl":  {Data: []byte(b.String())},
		"history.jsonl":                {Data: []byte(h.String())},
		"paste-cache/" + hash + ".txt": {Data: []byte(cached)},
	}
}

// fxTools: tool calls with results (one an error), and a result whose call
// is not in the file.
func fxTools() fstest.MapFS {
	var b fxTranscript
	b.user("u1", "", "What is in the repo?")
	b.assistant("a1", "u1", "claude-sonnet-5", "1", 2000, 80, fxText("Let me look."),
		fxToolUse("toolu_1", "Bash", map[string]any{"command": "ls -la", "description": "list files"}),
		fxToolUse("toolu_2", "Read", map[string]any{"file_path": "/home/me/app/missing.go"}))
	b.user("r1", "a1", []any{fxToolRes("toolu_1", "total 8\ndrwxr-xr-x main.go\n", false), fxToolRes("toolu_2", "File does not exist.", true)})
	b.assistant("a2", "r1", "claude-sonnet-5", "2", 2300, 60, fxText("There is one Go file."),
		fxToolUse("toolu_3", "mcp__db__query", map[string]any{"sql": "select 1", "limit": 5}))
	b.user("r2", "a2", []any{fxToolRes("toolu_3", "1", false), fxToolRes("toolu_gone", "orphan result", false)})
	b.assistant("a3", "r2", "claude-sonnet-5", "3", 2400, 10, fxText("Done."))
	b.lastPrompt("a3")
	return fstest.MapFS{fxHome + fxSession + ".jsonl": {Data: []byte(b.String())}}
}

// fxSidechain: an inline sidechain (older clients) and a subagent file.
func fxSidechain() fstest.MapFS {
	var b fxTranscript
	b.user("u1", "", "Find the flaky test.")
	b.assistant("a1", "u1", "claude-opus-5-5", "1", 3000, 50,
		fxToolUse("toolu_t", "Task", map[string]any{"description": "hunt flaky test", "subagent_type": "general-purpose", "prompt": "find it"}))
	b.rec(map[string]any{"type": "user", "uuid": "sc1", "parentUuid": nil, "isSidechain": true, "agentId": "inl1",
		"message": map[string]any{"role": "user", "content": "find it"}})
	b.rec(map[string]any{"type": "assistant", "uuid": "sc2", "parentUuid": "sc1", "isSidechain": true, "agentId": "inl1", "requestId": "req_s1",
		"message": map[string]any{"role": "assistant", "id": "msg_s1", "model": "claude-haiku-5", "content": []any{fxText("TestCart is flaky.")},
			"usage": map[string]any{"input_tokens": 700, "output_tokens": 30}}})
	b.user("r1", "a1", []any{fxToolRes("toolu_t", "TestCart is flaky.", false)})
	b.assistant("a2", "r1", "claude-opus-5-5", "2", 3100, 20, fxText("It is TestCart."))
	b.lastPrompt("a2")
	var s fxTranscript
	s.rec(map[string]any{"type": "user", "uuid": "x1", "parentUuid": nil, "isSidechain": true, "agentId": "b2",
		"message": map[string]any{"role": "user", "content": "check CI logs"}})
	s.rec(map[string]any{"type": "assistant", "uuid": "x2", "parentUuid": "x1", "isSidechain": true, "agentId": "b2", "requestId": "req_x",
		"message": map[string]any{"role": "assistant", "id": "msg_x", "model": "claude-haiku-5", "content": []any{fxText("CI shows a timeout.")},
			"usage": map[string]any{"input_tokens": 500, "output_tokens": 25}}})
	return fstest.MapFS{
		fxHome + fxSession + ".jsonl":                      {Data: []byte(b.String())},
		fxHome + fxSession + "/subagents/agent-b2.jsonl":   {Data: []byte(s.String())},
		fxHome + fxSession + "/subagents/notes.txt":        {Data: []byte("not a transcript")},
		fxHome + fxSession + "/tool-results/toolu_big.txt": {Data: []byte("big")},
	}
}

// fxBranches: a /rewind: u2 was answered, then the user went back to a1
// and asked u2b instead.
func fxBranches() fstest.MapFS {
	var b fxTranscript
	b.user("u1", "", "Name the service.")
	b.assistant("a1", "u1", "claude-opus-5-5", "1", 100, 5, fxText("cartd"))
	b.user("u2", "a1", "Longer please.")
	b.assistant("a2", "u2", "claude-opus-5-5", "2", 120, 5, fxText("cart-daemon"))
	b.user("u2b", "a1", "Shorter please.")
	b.assistant("a2b", "u2b", "claude-opus-5-5", "3", 120, 5, fxText("cd"))
	b.lastPrompt("a2b")
	return fstest.MapFS{fxHome + fxSession + ".jsonl": {Data: []byte(b.String())}}
}

// fxHostileStrings go everywhere a transcript can put text.
var fxHostileStrings = []string{
	"<script>alert(1)</script>",
	`"><img src=x onerror=alert(1)>`,
	"[click](javascript:alert(1))",
	"<a href=\"javascript:alert(1)\">x</a>",
	"\x1b]0;pwned\x07\x1b[2J\x1b[31mred",
	"\u009b31mC1 CSI",
	"\u202eevil bidi",
	"```\n# fake heading\n</details>\n<style>@import url(https://evil.example/x.css)</style>",
	"<link rel=stylesheet href=https://evil.example/a.css><iframe src=http://evil.example>",
}

func fxHostile() fstest.MapFS {
	h := strings.Join(fxHostileStrings, "\n")
	var b fxTranscript
	b.rec(map[string]any{"type": "user", "uuid": "u1", "parentUuid": nil, "cwd": "/home/me/<b>app</b>",
		"message": map[string]any{"role": "user", "content": h + "\n<pasted_content id=\"q\">" + h + "</pasted_content id=\"q\">"}})
	b.assistant("a1", "u1", "<script>model</script>", "1", 10, 10, fxText(h),
		map[string]any{"type": "thinking", "thinking": h},
		fxToolUse("toolu_<x>", "<img src=x onerror=alert(2)>", map[string]any{"command": h}))
	b.user("r1", "a1", []any{fxToolRes("toolu_<x>", h, true)})
	b.rec(map[string]any{"type": "system", "subtype": "compact_boundary", "uuid": "b1", "parentUuid": nil, "logicalParentUuid": "r1",
		"content": h, "compactMetadata": map[string]any{"trigger": "<b>manual</b>", "preTokens": 10}})
	b.rec(map[string]any{"type": "user", "uuid": "s1", "parentUuid": "b1", "isCompactSummary": true,
		"message": map[string]any{"role": "user", "content": h}})
	b.rec(map[string]any{"type": "attachment", "uuid": "t1", "parentUuid": "s1",
		"attachment": map[string]any{"type": "<b>nested_memory</b>", "path": "/x/<script>.md", "content": h}})
	b.rec(map[string]any{"type": "system", "subtype": "<i>odd</i>", "uuid": "y1", "parentUuid": "t1", "content": h})
	b.rec(map[string]any{"type": "user", "uuid": "sc1", "parentUuid": nil, "isSidechain": true, "agentId": "<svg onload=alert(3)>",
		"message": map[string]any{"role": "user", "content": h}})
	b.raw(map[string]any{"type": "summary", "summary": h, "leafUuid": "y1"})
	b.lastPrompt("y1")
	return fstest.MapFS{fxHome + fxSession + ".jsonl": {Data: []byte(b.String() + "{\"type\":\"user\",\"uuid\":\"<tail>")}}
}

// fxCase is a fixture home and the transcript to export from it.
type fxCase struct {
	name string
	home func() fstest.MapFS
}

var fxCases = []fxCase{
	{"boundary", fxBoundary},
	{"paste", fxPaste},
	{"tools", fxTools},
	{"sidechain", fxSidechain},
	{"branches", fxBranches},
	{"hostile", fxHostile},
}

func loadFixture(t testing.TB, home fstest.MapFS) *SessionExport {
	t.Helper()
	x, err := LoadSessionExport(SessionSource{FS: home, Transcript: fxHome + fxSession + ".jsonl", Home: home}, exportNow)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

var exportNow = time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)

// rec adds a chain record with the common fields.
func (b *fxTranscript) rec(m map[string]any) {
	b.n++
	base := map[string]any{"sessionId": fxSession, "cwd": fxCWD, "version": "2.1.330", "gitBranch": "main",
		"isSidechain": false, "timestamp": fxStart.Add(time.Duration(b.n) * time.Minute).Format(time.RFC3339Nano)}
	for k, v := range base {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	b.raw(m)
}

func (b *fxTranscript) raw(m map[string]any) {
	data, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	b.lines = append(b.lines, string(data))
}

func (b *fxTranscript) user(uuid, par string, content any) {
	b.rec(map[string]any{"type": "user", "uuid": uuid, "parentUuid": fxParent(par), "message": map[string]any{"role": "user", "content": content}})
}

func (b *fxTranscript) assistant(uuid, par, model, id string, in, out int, content ...map[string]any) {
	b.rec(map[string]any{"type": "assistant", "uuid": uuid, "parentUuid": fxParent(par), "requestId": "req_" + id,
		"message": map[string]any{"role": "assistant", "id": "msg_" + id, "model": model, "content": content,
			"usage": map[string]any{"input_tokens": in, "output_tokens": out, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 10}}})
}

func (b *fxTranscript) lastPrompt(leaf string) {
	b.raw(map[string]any{"type": "last-prompt", "lastPrompt": "x", "leafUuid": leaf, "sessionId": fxSession})
}

func (b *fxTranscript) String() string { return strings.Join(b.lines, "\n") + "\n" }
