package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/extract"
)

// longFlushSession writes a session that a 100k window must autocompact: a
// request to remember, then six exchanges whose answers are 20000 tokens
// each, so even the protected tail is over the threshold and context
// collapse cannot make it fit. It returns the path and the request's uuid.
func longFlushSession(t *testing.T) (string, string) {
	t.Helper()
	var b strings.Builder
	parent, chars := "null", 0
	rec := func(i int, typ, content, extra string) string {
		u := fmt.Sprintf("f1a5e000-0000-4000-8000-%012d", i)
		chars += len(content)
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"cwd":"/srv/export","sessionId":"f1a5e000-aaaa-4bbb-8ccc-dddddddddddd","version":"2.1.330","gitBranch":"main","type":%q,"message":%s,"uuid":%q,"timestamp":"2026-04-14T08:%02d:00.000Z"%s}`+"\n",
			parent, typ, content, u, i%60, extra)
		parent = fmt.Sprintf("%q", u)
		return u
	}
	user := func(i int, text string) string {
		c, _ := json.Marshal(map[string]any{"role": "user", "content": text})
		return rec(i, "user", string(c), "")
	}
	answer := func(i int, text string) {
		c, _ := json.Marshal(map[string]any{"id": fmt.Sprint("msg_", i), "role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}},
			"usage": map[string]any{"input_tokens": 3000 + chars/4, "output_tokens": len(text) / 4}})
		rec(i, "assistant", string(c), fmt.Sprintf(`,"requestId":"req_%d"`, i))
	}
	remember := user(0, "Remember that the nightly export must finish before 06:00 UTC, because the finance team loads it at six.")
	answer(1, "Understood.")
	for i := 0; i < 6; i++ {
		user(2+2*i, fmt.Sprintf("speed up export step %d without changing its output", i+1))
		answer(3+2*i, strings.Repeat("The batch reader keeps one page of rows in memory. ", 1600))
	}
	p := filepath.Join(t.TempDir(), "f1a5e000-aaaa-4bbb-8ccc-dddddddddddd.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, remember
}

type compactFlushJSON struct {
	Messages int
	Stages   []compact.StageResult
	Flush    *struct {
		Project, MemoryDir string
		Runs               []extract.FlushRun
		Candidates         []extract.Candidate
		Written            []writtenMemory
		Failed             []failedWrite
	}
}

func runCompactFlush(t *testing.T, wantCode int, args ...string) compactFlushJSON {
	t.Helper()
	return runJSONAs[compactFlushJSON](t, wantCode, append([]string{"compact", "--window", "100000", "--max-output", "8000", "--json"}, args...)...)
}

func TestCompactFlush(t *testing.T) {
	session, remember := longFlushSession(t)
	orig, _ := os.ReadFile(session)
	home := t.TempDir()

	plain := runCompactFlush(t, 0, session, "--home", home)
	if plain.Flush != nil {
		t.Errorf("flush reported without --flush: %+v", plain.Flush)
	}
	r := runCompactFlush(t, 0, session, "--home", home, "--flush")
	last := r.Stages[len(r.Stages)-1]
	if last.Stage != compact.StageAutocompact || !last.Acted {
		t.Fatalf("autocompact did not run: %+v", r.Stages)
	}
	f := r.Flush
	if f == nil || f.MemoryDir != filepath.Join(home, "projects", "-srv-export", "memory") || f.Project != "/srv/export" {
		t.Fatalf("flush %+v", f)
	}
	// Everything is summarized (no --preserve): all 14 messages, the
	// collapsed folds read as the messages they stand for.
	if len(f.Runs) != 1 || f.Runs[0].Handed >= 14 || f.Runs[0].Expanded != 14 || f.Runs[0].New != 14 || f.Runs[0].From != 0 || f.Runs[0].To != 14 || f.Runs[0].Prompts != 7 {
		t.Errorf("runs %+v", f.Runs)
	}
	if len(f.Candidates) != 1 || f.Candidates[0].Provenance.MessageUUID != remember || f.Candidates[0].Type != extract.CandidateProject {
		t.Fatalf("candidates %+v", f.Candidates)
	}
	if len(f.Written) != 0 {
		t.Errorf("wrote without --write: %+v", f.Written)
	}
	if _, err := os.Stat(f.MemoryDir); err == nil {
		t.Error("--flush without --write created the memory folder")
	}

	w := runCompactFlush(t, 0, session, "--home", home, "--flush", "--write")
	if len(w.Flush.Written) != 1 || len(w.Flush.Failed) != 0 {
		t.Fatalf("written %+v failed %+v", w.Flush.Written, w.Flush.Failed)
	}
	data, err := os.ReadFile(filepath.Join(w.Flush.MemoryDir, w.Flush.Written[0].Path))
	if err != nil || !bytes.Contains(data, []byte("must finish before 06:00 UTC")) || !bytes.Contains(data, []byte("originSessionId: f1a5e000-aaaa-4bbb-8ccc-dddddddddddd")) {
		t.Errorf("memory file (err %v):\n%s", err, data)
	}
	if now, _ := os.ReadFile(session); !bytes.Equal(now, orig) {
		t.Error("compact changed the input transcript")
	}
	// The memory is on disk now: the next flush finds it a duplicate.
	again := runCompactFlush(t, 0, session, "--home", home, "--flush", "--write")
	if len(again.Flush.Candidates) != 0 || len(again.Flush.Written) != 0 {
		t.Errorf("second flush: %+v", again.Flush)
	}
}

func TestCompactFlushText(t *testing.T) {
	session, _ := longFlushSession(t)
	e, out, errb := testEnv(t)
	if code := run(e, []string{"compact", session, "--window", "100000", "--max-output", "8000", "--home", t.TempDir(), "--flush"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"autocompact", "flush     memory ", "autocompact summarizes 9 messages (14 with context-collapse folds expanded), 14 new to the flush; messages 0..14 extracted: 7 user prompts, 1 candidate",
		"1 candidate\n1. project", "nothing written; --write saves the candidates into "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, args := range [][]string{{"compact", session, "--write"}, {"compact", session, "--flush", "--force"}, {"compact", session, "--project", "/x"}} {
		e, _, errb := testEnv(t)
		if code := run(e, args); code != 2 || !strings.Contains(errb.String(), "usage") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errb)
		}
	}
}
