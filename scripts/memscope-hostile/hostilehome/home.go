package hostilehome

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Fixed identities, so every run writes the same home.
const (
	// SessionID is the main transcript's session.
	SessionID = "0badc0de-0000-4000-8000-000000000001"
	// ProjectPath is the main project's startup directory (its cwd).
	ProjectPath = "/home/me/hostile"
	version     = "2.1.330"
)

// baseTime is the clock of the written records.
var baseTime = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// homeWriter writes files under one home and remembers the first error, so
// scenario code reads as a list of files.
type homeWriter struct {
	dir string
	res *Result
	err error
}

func (w *homeWriter) path(rel string) string { return filepath.Join(w.dir, filepath.FromSlash(rel)) }

// file writes data at rel, creating its folders.
func (w *homeWriter) file(rel string, data []byte) {
	if w.err != nil {
		return
	}
	p := w.path(rel)
	if !w.mkdirFor(rel) {
		return
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		w.err = fmt.Errorf("write %s: %w", rel, err)
		return
	}
	w.res.Files = append(w.res.Files, rel)
}

// mkdirFor creates the folders above rel and reports whether it could.
func (w *homeWriter) mkdirFor(rel string) bool {
	if err := os.MkdirAll(filepath.Dir(w.path(rel)), 0o755); err != nil {
		w.err = fmt.Errorf("mkdir for %s: %w", rel, err)
		return false
	}
	return true
}

// jsonl writes one JSON record per line at rel.
func (w *homeWriter) jsonl(rel string, records ...any) {
	var b bytes.Buffer
	for _, r := range records {
		b.Write(w.marshal(r))
		b.WriteByte('\n')
	}
	w.file(rel, b.Bytes())
}

// marshal encodes r as one JSON line, keeping "<", ">" and "&" as they are
// (the way Claude Code writes them).
func (w *homeWriter) marshal(r any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil && w.err == nil {
		w.err = fmt.Errorf("encode %T: %w", r, err)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// stamp is the ISO time of the n-th record.
func stamp(n int) string {
	return baseTime.Add(time.Duration(n) * time.Second).Format("2006-01-02T15:04:05.000Z")
}

// millis is history's timestamp of the n-th line.
func millis(n int) int64 { return baseTime.Add(time.Duration(n) * time.Second).UnixMilli() }

// uuidN is a fixed, valid-looking uuid numbered n.
func uuidN(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// pasteHash is the paste cache's name for content: the first 16 hex digits
// of its sha256.
func pasteHash(content []byte) string {
	s := sha256.Sum256(content)
	return hex.EncodeToString(s[:])[:16]
}

// slug is Claude Code's folder name for a path: every character outside
// [A-Za-z0-9] becomes "-" (the paths written here stay under 200).
func slug(p string) string {
	var b strings.Builder
	for _, r := range p {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			continue
		}
		b.WriteByte('-')
		if r > 0xffff {
			b.WriteByte('-') // one per UTF-16 unit
		}
	}
	return b.String()
}

// chain is the fields every chain record of a transcript carries.
func chain(n int, parent any, session, cwd string) map[string]any {
	return map[string]any{
		"uuid":        uuidN(n),
		"parentUuid":  parent,
		"isSidechain": false,
		"timestamp":   stamp(n),
		"sessionId":   session,
		"cwd":         cwd,
		"version":     version,
		"gitBranch":   "main",
		"userType":    "external",
	}
}

// with returns m with the extra fields set.
func with(m map[string]any, kv ...any) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// transcriptRecords is a small but complete session whose every text field
// carries text: prompts with a pasted block, assistant text, a tool call
// and its result, titles, a compaction and a follow-up turn.
func transcriptRecords(session, cwd, text string) []any {
	usage := func(in, out int) map[string]any {
		return map[string]any{"input_tokens": in, "output_tokens": out, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000}
	}
	assistant := func(n int, parent string, msgID string, content []any, in, out int) map[string]any {
		return with(chain(n, parent, session, cwd),
			"type", "assistant",
			"requestId", "req_"+msgID,
			"message", map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": content, "usage": usage(in, out)})
	}
	pasted := "<pasted_content id=\"p1\">\n" + text + "\n</pasted_content id=\"p1\">"
	return []any{
		map[string]any{"type": "mode", "mode": "normal", "sessionId": session},
		with(chain(1, nil, session, cwd), "type", "user", "message", map[string]any{"role": "user", "content": "please look at this " + text + "\n" + pasted}),
		assistant(2, uuidN(1), "msg_01", []any{
			map[string]any{"type": "text", "text": "Reading it. " + text},
			map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Read", "input": map[string]any{"file_path": "/tmp/x" + text}},
		}, 1200, 40),
		with(chain(3, uuidN(2), session, cwd), "type", "user", "message", map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_01", "content": "file says: " + text},
		}}),
		assistant(4, uuidN(3), "msg_02", []any{map[string]any{"type": "text", "text": "Done. " + text}}, 1500, 60),
		map[string]any{"type": "custom-title", "customTitle": "title " + text, "sessionId": session},
		map[string]any{"type": "ai-title", "aiTitle": "ai title " + text, "sessionId": session},
		map[string]any{"type": "summary", "summary": "summary " + text, "leafUuid": uuidN(4)},
		with(chain(5, nil, session, cwd), "type", "system", "subtype", "compact_boundary", "content", "Conversation compacted",
			"logicalParentUuid", uuidN(4), "isMeta", false, "level", "info",
			"compactMetadata", map[string]any{"trigger": "manual", "preTokens": 2700, "postTokens": 300}),
		with(chain(6, uuidN(5), session, cwd), "type", "user", "isCompactSummary", true, "isVisibleInTranscriptOnly", true,
			"message", map[string]any{"role": "user", "content": "This session is being continued from a previous conversation. <summary>" + text + "</summary>"}),
		with(chain(7, uuidN(6), session, cwd), "type", "user", "message", map[string]any{"role": "user", "content": "and now " + text}),
		assistant(8, uuidN(7), "msg_03", []any{map[string]any{"type": "text", "text": "Sure. " + text}}, 400, 20),
		map[string]any{"type": "last-prompt", "lastPrompt": "and now " + text, "leafUuid": uuidN(8), "sessionId": session},
	}
}

// historyLine is one history.jsonl record.
func historyLine(n int, display, project, session string, pastes map[string]any) map[string]any {
	m := map[string]any{"display": display, "pastedContents": pastes, "timestamp": millis(n), "project": project}
	if session != "" {
		m["sessionId"] = session
	}
	return m
}

// memoryFile is a typed memory file with frontmatter as Claude Code writes it.
func memoryFile(name, description, typ, body string) []byte {
	return []byte("---\nname: " + yamlScalar(name) + "\ndescription: " + yamlScalar(description) +
		"\nmetadata:\n  node_type: memory\n  type: " + typ + "\n  originSessionId: " + SessionID +
		"\n  modified: " + stamp(0) + "\n---\n\n" + body + "\n")
}

// yamlScalar quotes s as a YAML double-quoted scalar (JSON's escapes are a
// subset YAML reads), so control characters survive the frontmatter.
func yamlScalar(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// contentHome writes a complete home where text appears in every store:
// CLAUDE.md and a rule, history (inline and cached pastes, one raw line
// that is not valid JSON), a transcript and a subagent transcript, the
// MEMORY.md index and typed memory files, and a second project whose cwd
// itself carries text.
func contentHome(w *homeWriter, text string) {
	w.res.Project, w.res.Slug, w.res.SessionID = ProjectPath, slug(ProjectPath), SessionID
	proj := "projects/" + w.res.Slug
	w.file("settings.json", []byte("{\"cleanupPeriodDays\": 30}\n"))
	w.file("CLAUDE.md", []byte("# User instructions\n\nBe careful with"+text+"\n"))
	w.file("rules/hostile.md", []byte("# Rule\n"+text+"\n"))

	long := strings.Repeat("pasted line "+text+"\n", 1+2048/(len(text)+13))
	hash := pasteHash([]byte(long))
	w.file("paste-cache/"+hash+".txt", []byte(long))
	w.res.Paste = "paste-cache/" + hash + ".txt"
	// The odd project's folder name is its slug: keep it under the
	// 200-character limit where Claude Code switches to a hashed name.
	odd := "/home/me/odd" + prefix(text, 120)
	var hist bytes.Buffer
	for i, rec := range []any{
		historyLine(1, "first prompt "+text, ProjectPath, SessionID, map[string]any{}),
		historyLine(2, "[Pasted text #1 +3 lines] inline "+text, ProjectPath, SessionID, map[string]any{
			"1": map[string]any{"id": 1, "type": "text", "content": "one\ntwo " + text + "\nthree\nfour"}}),
		historyLine(3, "[Pasted text #2 +"+fmt.Sprint(strings.Count(long, "\n"))+" lines] cached", ProjectPath, SessionID, map[string]any{
			"2": map[string]any{"id": 2, "type": "text", "contentHash": hash}}),
		historyLine(4, "[Image #3] image "+text, ProjectPath, "", map[string]any{
			"3": map[string]any{"id": 3, "type": "image", "mediaType": "image/png", "filename": "shot" + text + ".png"}}),
		historyLine(5, "odd project "+text, odd, "", map[string]any{}),
	} {
		w.res.HistoryLines++
		hist.Write(w.marshal(rec))
		hist.WriteByte('\n')
		if i == 1 {
			// Raw control bytes inside a JSON string are invalid JSON: the
			// reader must report this line, and its report must not carry
			// the bytes to the screen.
			raw := "{\"display\":\"raw " + text + "\",\"timestamp\":1}"
			hist.WriteString(raw + "\n")
			if json.Valid([]byte(raw)) {
				w.res.HistoryLines++
			} else {
				w.res.BadHistoryLines++
			}
		}
	}
	w.file("history.jsonl", hist.Bytes())

	w.jsonl(proj+"/"+SessionID+".jsonl", transcriptRecords(SessionID, ProjectPath, text)...)
	w.jsonl(proj+"/"+SessionID+"/subagents/agent-0bad.jsonl", transcriptRecords(SessionID, ProjectPath, "subagent "+text)[1:5]...)
	w.file(proj+"/"+SessionID+"/tool-results/toolu_01.txt", []byte("big result "+text+"\n"))
	w.res.Transcript = proj + "/" + SessionID + ".jsonl"

	mem := proj + "/memory"
	w.res.MemoryDir = mem
	w.file(mem+"/MEMORY.md", []byte("# Memory index "+text+"\n\n"+
		"- [Terse "+text+"](feedback_terse.md) — hook "+text+"\n"+
		"- [Deploy](project_deploy.md) — "+text+"\n"+
		"- [Missing "+text+"](missing"+strings.Map(stripSpace, text)+".md) — dangling\n"))
	w.file(mem+"/feedback_terse.md", memoryFile("prefers-terse", "User prefers terse answers "+text, "feedback",
		"Be terse. "+text+"\n\n**Why:** "+text+"\n**How to apply:** always [[project-deploy]]"))
	w.file(mem+"/project_deploy.md", memoryFile("project-deploy"+text, "Deploys "+text, "project", "Deploy on Fridays "+text))
	w.file(mem+"/untyped.md", []byte("no frontmatter at all "+text+"\n"))
	w.file(mem+"/team/shared.md", memoryFile("team-shared", "Team note "+text, "reference", text))

	oddSession := uuidN(99)
	w.jsonl("projects/"+slug(odd)+"/"+oddSession+".jsonl", transcriptRecords(oddSession, odd, text)[1:5]...)
}

// stripSpace drops white space, so text can sit inside a link target.
func stripSpace(r rune) rune {
	if r == ' ' || r == '\n' || r == '\t' {
		return -1
	}
	return r
}

// sha256File is the hex sha256 of the file at p.
func sha256File(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// bufferedFile creates rel and hands a buffered writer to fill, flushing
// and closing it after.
func (w *homeWriter) bufferedFile(rel string, fill func(*bufio.Writer) error) {
	if w.err != nil {
		return
	}
	p := w.path(rel)
	if !w.mkdirFor(rel) {
		return
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		w.err = fmt.Errorf("create %s: %w", rel, err)
		return
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		w.err = fmt.Errorf("write %s: %w", rel, err)
		return
	}
	w.res.Files = append(w.res.Files, rel)
}

// prefix is at most n bytes of s, cut at a rune boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if i > n {
			break
		}
		cut = i
	}
	return s[:cut]
}
