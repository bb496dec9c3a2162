package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/memscope/memscope/model"
)

// The demo's model window: a 200k-token model with 32k max output, so the
// effective window is 180 000 and autocompact fires at 167 000 tokens.
const (
	demoAutocompactAt = 167000
	demoBaseTokens    = 14200 // system prompt, tools, CLAUDE.md, memory
	demoVersion       = "2.1.330"
)

// transcriptBuilder writes a session transcript in the real client's
// format: one JSON object per line, chain records linked by parentUuid,
// assistant usage that adds up to the context size, and compaction
// boundaries followed by their summary message.
type transcriptBuilder struct {
	buf        bytes.Buffer
	session    string
	cwd        string
	branch     string
	t          time.Time
	parent     string
	n          int
	ctx        int // tokens the model sees now
	dropped    int
	sidechain  bool
	lastPrompt string
	leaf       string
	// context is re-attached after every compaction, as the client does.
	context []contextFile
}

func newTranscript(session, cwd string, start time.Time) *transcriptBuilder {
	return &transcriptBuilder{session: session, cwd: cwd, branch: "main", t: start, ctx: demoBaseTokens}
}

// id makes a stable uuid-shaped id from the session and a counter.
func (b *transcriptBuilder) id() string {
	b.n++
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", b.session, b.n)))
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

func (b *transcriptBuilder) tick(d time.Duration) string {
	b.t = b.t.Add(d)
	return b.t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// write appends rec as one line: an Encoder writes json.Marshal's bytes
// and the newline straight into the buffer.
func (b *transcriptBuilder) write(rec map[string]any) {
	if err := json.NewEncoder(&b.buf).Encode(rec); err != nil {
		panic(err) // only plain maps of strings and numbers are written
	}
}

func (b *transcriptBuilder) chain(typ string, extra map[string]any) string {
	u := b.id()
	rec := map[string]any{
		"parentUuid":  nullable(b.parent),
		"isSidechain": b.sidechain,
		"type":        typ,
		"uuid":        u,
		"timestamp":   b.tick(3 * time.Second),
		"userType":    "external",
		"entrypoint":  "cli",
		"cwd":         b.cwd,
		"sessionId":   b.session,
		"version":     demoVersion,
		"gitBranch":   b.branch,
	}
	for k, v := range extra {
		rec[k] = v
	}
	b.write(rec)
	b.parent = u
	b.leaf = u
	return u
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func tokensOf(s string) int { return (len(s) + 3) / 4 }

// prompt writes a typed user prompt.
func (b *transcriptBuilder) prompt(text string) string {
	b.lastPrompt = text
	b.ctx += tokensOf(text)
	u := b.chain("user", map[string]any{
		"message":      map[string]any{"role": "user", "content": text},
		"promptSource": "typed",
	})
	if !b.sidechain {
		// The client snapshots files per prompt of the main conversation.
		b.write(map[string]any{"type": "file-history-snapshot", "messageId": u, "snapshot": map[string]any{
			"messageId": u, "trackedFileBackups": map[string]any{}, "timestamp": b.t.UTC().Format(time.RFC3339Nano),
		}, "isSnapshotUpdate": false})
	}
	return u
}

type toolCall struct {
	name   string
	input  map[string]any
	result string
}

// reply writes one assistant response (possibly with tool calls, each
// followed by its tool_result user record), with usage that accounts for
// the whole context.
func (b *transcriptBuilder) reply(text string, calls ...toolCall) {
	content := []any{map[string]any{"type": "text", "text": text}}
	ids := make([]string, len(calls))
	for i, c := range calls {
		ids[i] = "toolu_" + b.id()[:8] + b.id()[:8]
		content = append(content, map[string]any{"type": "tool_use", "id": ids[i], "name": c.name, "input": c.input})
	}
	stop := "end_turn"
	if len(calls) > 0 {
		stop = "tool_use"
	}
	out := tokensOf(text) + 40*len(calls)
	prev := b.ctx
	msgID := "msg_demo_" + b.id()[:12]
	req := "req_demo_" + b.id()[:12]
	usage := map[string]any{
		"input_tokens":                4,
		"cache_read_input_tokens":     prev - 4 - 600,
		"cache_creation_input_tokens": 600,
		"output_tokens":               out,
	}
	if prev < 1000 {
		usage["cache_read_input_tokens"] = 0
		usage["cache_creation_input_tokens"] = prev - 4
	}
	b.chain("assistant", map[string]any{
		"message": map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": "claude-opus-5-5",
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		},
		"requestId": req,
	})
	b.ctx += out
	for i, c := range calls {
		b.ctx += tokensOf(c.result)
		b.chain("user", map[string]any{
			"message": map[string]any{"role": "user", "content": []any{map[string]any{
				"type": "tool_result", "tool_use_id": ids[i], "content": c.result,
			}}},
			"sourceToolAssistantUUID": b.parent,
		})
	}
	b.write(map[string]any{"type": "last-prompt", "lastPrompt": b.lastPrompt, "leafUuid": b.leaf, "sessionId": b.session})
}

// compact writes a compact_boundary and its summary. A partial compaction
// preserves the last n chain messages: they stay where they are in the file
// and are relinked after the summary on resume.
func (b *transcriptBuilder) compact(trigger, summary string, preserved []string) {
	pre := b.ctx
	post := demoBaseTokens + tokensOf(summary)
	for range preserved {
		post += 400
	}
	b.dropped += pre - post
	boundary := b.id()
	summaryID := b.id()
	meta := map[string]any{
		"trigger":                 trigger,
		"preTokens":               pre,
		"durationMs":              18000 + pre/10,
		"postTokens":              post,
		"cumulativeDroppedTokens": b.dropped,
	}
	if len(preserved) > 0 {
		meta["preservedSegment"] = map[string]any{"headUuid": preserved[0], "anchorUuid": summaryID, "tailUuid": preserved[len(preserved)-1]}
		meta["preservedMessages"] = map[string]any{"anchorUuid": summaryID, "uuids": preserved, "allUuids": preserved}
	}
	logical := b.parent
	b.write(map[string]any{
		"parentUuid": nil, "logicalParentUuid": logical, "isSidechain": false, "type": "system",
		"subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": false, "level": "info",
		"uuid": boundary, "timestamp": b.tick(time.Duration(18000+pre/10) * time.Millisecond),
		"compactMetadata": meta, "userType": "external", "entrypoint": "cli", "cwd": b.cwd,
		"sessionId": b.session, "version": demoVersion, "gitBranch": b.branch,
	})
	b.write(map[string]any{
		"parentUuid": boundary, "isSidechain": false, "type": "user",
		"message":                   map[string]any{"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n<summary>\n" + summary + "\n</summary>"},
		"isVisibleInTranscriptOnly": true, "isCompactSummary": true, "uuid": summaryID,
		"timestamp": b.tick(time.Second), "userType": "external", "entrypoint": "cli", "cwd": b.cwd,
		"sessionId": b.session, "version": demoVersion, "gitBranch": b.branch,
	})
	b.parent = summaryID
	b.leaf = summaryID
	b.ctx = post
	if b.context != nil {
		b.contextAttachments(b.context)
	}
}

// microcompact writes a microcompact_boundary: old tool results cleared.
func (b *transcriptBuilder) microcompact(freed int) {
	pre := b.ctx
	b.ctx -= freed
	b.chain("system", map[string]any{
		"subtype": "microcompact_boundary", "content": "Context microcompacted", "isMeta": false, "level": "info",
		"microcompactMetadata": map[string]any{"trigger": "auto", "preTokens": pre, "tokensSaved": freed, "clearedToolResults": 6},
	})
}

// metadata writes the non-chain records an interactive session writes.
func (b *transcriptBuilder) metadata(title string) {
	b.write(map[string]any{"type": "mode", "mode": "normal", "sessionId": b.session})
	b.write(map[string]any{"type": "permission-mode", "permissionMode": "default", "sessionId": b.session})
	b.write(map[string]any{"type": "ai-title", "aiTitle": title, "sessionId": b.session})
}

// autoCompactIfNeeded compacts the way the client's autocompact would.
func (b *transcriptBuilder) autoCompactIfNeeded(summary string) bool {
	if b.ctx < demoAutocompactAt {
		return false
	}
	b.compact("auto", summary, nil)
	return true
}

// contextFile is a file the client attaches as instructions or memory.
type contextFile struct {
	path, kind, content string
}

// systemPrompt fakes a system prompt with tool definitions of a realistic
// size (about 10 000 tokens). It is the same at every start and
// compaction of every session: made once (callers only read it).
var systemPrompt = sync.OnceValue(func() []string {
	tools := []string{"Read", "Edit", "Write", "Bash", "Grep", "Glob", "WebFetch", "Task", "TodoWrite", "NotebookEdit"}
	var parts []string
	parts = append(parts, "You are the demo agent of memscope's example home. Work in the user's repository; keep answers short.")
	for i := 0; i < 40; i++ {
		t := tools[i%len(tools)]
		parts = append(parts, fmt.Sprintf("Tool %s (variant %d): takes a JSON object with the fields the schema lists; returns text. Use it only when the task needs it; prefer the dedicated tool over a shell command; report errors plainly and do not retry blindly. Parameters are validated before the call and rejected with a message naming the field.", t, i))
	}
	for i := 0; i < 80; i++ {
		parts = append(parts, fmt.Sprintf("Guideline %d: read before you edit, keep changes small, run the project's tests, and say what you could not verify.", i+1))
	}
	return parts
})

// contextAttachments writes what the client attaches at session start and
// after a compaction: the prompt snapshot (system prompt and tools) and
// the instructions (CLAUDE.md files, rules, MEMORY.md).
func (b *transcriptBuilder) contextAttachments(files []contextFile) {
	var fs []any
	for _, f := range files {
		fs = append(fs, map[string]any{"path": f.path, "type": f.kind, "content": f.content})
	}
	b.chain("attachment", map[string]any{"attachment": map[string]any{"type": "prompt_snapshot", "systemPrompt": systemPrompt()}})
	b.chain("attachment", map[string]any{"attachment": map[string]any{"type": "instructions", "files": fs}})
}

// nestedMemory records a path-scoped rule joining the session when the
// model read a file its paths: match (the client's nested_memory
// attachment, sent without the session-start header's label).
func (b *transcriptBuilder) nestedMemory(f contextFile, globs []string) {
	b.chain("attachment", map[string]any{"attachment": map[string]any{"type": "nested_memory", "path": f.path, "displayPath": filepath.Base(f.path),
		"content": map[string]any{"path": f.path, "type": f.kind, "globs": globs, "rawContent": f.content, "contentDiffersFromDisk": false}}})
}

// fileEdit records, as the client does, that the turn its prompt started
// (prompt is the prompt's uuid) first touched rel (relative to the cwd):
// a file-history-delta naming the backup of the file as it stood before
// the turn. It returns the backup's file name, which the caller writes
// under file-history/<session>/, or "" when the file did not exist
// (the client's null backup: rewinding deletes it).
func (b *transcriptBuilder) fileEdit(prompt, rel string, version int, existed bool) string {
	abs := filepath.Join(b.cwd, filepath.FromSlash(rel))
	backup := map[string]any{"backupFileName": nil, "version": version, "backupTime": b.tick(time.Second),
		"realParentDir": filepath.Dir(abs)}
	name := ""
	if existed {
		name = model.BackupFileName(abs, version)
		backup["backupFileName"] = name
	}
	b.write(map[string]any{"type": "file-history-delta", "messageId": b.leaf, "snapshotMessageId": prompt,
		"trackingPath": rel, "backup": backup, "timestamp": b.tick(time.Second)})
	return name
}
