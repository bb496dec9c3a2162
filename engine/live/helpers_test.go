package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// now is the tests' fixed clock.
var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// script writes transcript lines the way the client does, one record a
// line, with a timestamp per line and chain links.
type script struct {
	b       strings.Builder
	session string
	cwd     string
	t       time.Time
	n       int
	parent  string
}

func newScript(session, cwd string, start time.Time) *script {
	return &script{session: session, cwd: cwd, t: start}
}

func (s *script) String() string { return s.b.String() }

// at sets the time of the next line.
func (s *script) at(t time.Time) *script { s.t = t; return s }

func (s *script) line(typ, body string) string {
	s.n++
	uuid := fmt.Sprintf("u%04d", s.n)
	parent := "null"
	if s.parent != "" {
		parent = fmt.Sprintf("%q", s.parent)
	}
	fmt.Fprintf(&s.b, `{"parentUuid":%s,"isSidechain":false,"type":%q,"uuid":%q,"timestamp":%q,"sessionId":%q,"cwd":%q,"version":"2.1.331"%s}`+"\n",
		parent, typ, uuid, s.t.UTC().Format(model.ISOMillis), s.session, s.cwd, body)
	s.parent = uuid
	s.t = s.t.Add(3 * time.Second)
	return uuid
}

func (s *script) user(text string) string {
	return s.line("user", fmt.Sprintf(`,"message":{"role":"user","content":%q}`, text))
}

// answer writes one response with the given context size (split between
// cache read and creation as the client's cached requests are) and
// content blocks; each block gets a line of its own, as the client
// writes them, all with the response's ids and usage.
func (s *script) answer(id string, context int64, blocks ...string) {
	if len(blocks) == 0 {
		blocks = []string{`{"type":"text","text":"ok"}`}
	}
	read := context * 9 / 10
	for _, b := range blocks {
		s.line("assistant", fmt.Sprintf(`,"requestId":"req_%s","message":{"id":"msg_%s","role":"assistant","model":"claude-opus-5-5","content":[%s],"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":100}}`,
			id, id, b, read, context-read-3))
	}
}

func writeBlock(id, tool, path string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":{"file_path":%q,"content":"x"}}`, id, tool, path)
}

func (s *script) result(toolID string, isError bool) {
	s.line("user", fmt.Sprintf(`,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"done","is_error":%v}]}`, toolID, isError))
}

// compact writes a compact boundary; post < 0 leaves postTokens out.
func (s *script) compact(trigger string, pre, post int) string {
	meta := fmt.Sprintf(`"trigger":%q,"preTokens":%d`, trigger, pre)
	if post >= 0 {
		meta += fmt.Sprintf(`,"postTokens":%d`, post)
	}
	s.parent = ""
	u := s.line("system", fmt.Sprintf(`,"subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{%s}`, meta))
	s.line("user", `,"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued"}`)
	return u
}

// feed runs text through a Session as the tail reader would.
func feed(t *testing.T, sess *Session, text string) {
	t.Helper()
	ld := model.NewLineDecoder("s.jsonl", ScanOptions)
	lr := model.NewLineReader(strings.NewReader(text))
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		var rec model.Record
		if probs, ok := ld.Decode(line, &rec); !ok {
			t.Fatalf("line %d does not decode: %v", line.Number, probs)
		}
		sess.Add(&rec, line.Bytes)
	}
}

// writeFile writes content at dir/rel, making folders.
func writeFile(t testing.TB, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func appendFile(t testing.TB, p, content string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
}
