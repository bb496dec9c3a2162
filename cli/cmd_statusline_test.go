package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Input over the bound is not read whole, and the line is still printed
// (empty) with exit 0.
func TestStatuslineBoundsItsInput(t *testing.T) {
	e, out, errb := testEnv(t)
	big := `{"session_id":"` + strings.Repeat("x", maxStatusInput) + `"}`
	e.stdin = strings.NewReader(big)
	if code := run(e, []string{"statusline", "--home", t.TempDir()}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if out.String() != "\n" {
		t.Errorf("stdout %q, want one empty line", out.String())
	}
	if !strings.Contains(errb.String(), "over 1048576 bytes") {
		t.Errorf("stderr %q does not say the input is too big", errb.String())
	}
}

// A status line from the client's own figures, with no transcript: the
// fill and nothing else (no MEMORY.md in an empty home).
func TestStatuslineFromTheClientsFigures(t *testing.T) {
	e, out, errb := testEnv(t)
	e.stdin = strings.NewReader(`{"session_id":"s","cwd":"/nowhere","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":10,"cache_read_input_tokens":121990}}}`)
	if code := run(e, []string{"statusline", "--home", t.TempDir()}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if got := out.String(); got != "ctx 61%\n" {
		t.Errorf("stdout %q, want %q", got, "ctx 61%\n")
	}
}

// openPipe is stdin whose writer wrote text and never closes it (as
// `sleep 30 | memscope statusline` or a FIFO writer that stays open).
func openPipe(t *testing.T, text string) io.Reader {
	t.Helper()
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	go w.Write([]byte(text))
	return r
}

// finishes runs f and fails the test if it has not returned long after
// any bound statusline keeps (a hang guard, not a timing assertion).
func finishes(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s never returned: it waits for stdin to close", what)
	}
}

// A complete object on a pipe nobody closes is answered without waiting
// for the end of stdin.
func TestStatuslineAnswersOnceTheObjectIsComplete(t *testing.T) {
	e, out, errb := testEnv(t)
	e.stdin = openPipe(t, `{"session_id":"s","cwd":"/nowhere","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":10,"cache_read_input_tokens":121990}}}`+"\n")
	var code int
	finishes(t, "statusline", func() { code = run(e, []string{"statusline", "--home", t.TempDir()}) })
	if code != 0 || out.String() != "ctx 61%\n" {
		t.Errorf("exit %d, stdout %q (stderr %q), want ctx 61%%", code, out.String(), errb.String())
	}
}

// Nothing, or half an object, on a pipe nobody closes: the wait runs out
// and the reason says so.
func TestStatuslineInputHasADeadline(t *testing.T) {
	for _, text := range []string{"", `{"session_id":"s","cwd":`} {
		var err error
		finishes(t, "readStatusInputWithin", func() { _, err = readStatusInputWithin(openPipe(t, text), 20*time.Millisecond) })
		if err == nil || !strings.Contains(err.Error(), "no complete JSON object on stdin") {
			t.Errorf("input %q: error %v, want the deadline's reason", text, err)
		}
	}
}

// For a minute after a compaction the status line says how many of the
// user's rules it dropped (the loss ledger of that boundary); after
// that minute it says nothing of it, and the JSON keeps the count only
// while it is shown.
func TestStatuslineSaysLostRulesForAMinute(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "engine", "ledger", "testdata", "rules-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The session up to its second compaction: the last one is the
	// first, at 10:02:13, which dropped three rules.
	lines := strings.SplitAfter(string(data), "\n")
	dir := t.TempDir()
	tr := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(tr, []byte(strings.Join(lines[:26], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 20, 10, 2, 13, 0, time.UTC)
	input := `{"session_id":"s","cwd":"/nowhere","transcript_path":"` + filepath.ToSlash(tr) + `","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":10,"cache_read_input_tokens":20000}}}`
	for _, c := range []struct {
		after time.Duration
		want  bool
	}{{30 * time.Second, true}, {2 * time.Minute, false}} {
		e, out, errb := testEnv(t)
		e.now = func() time.Time { return at.Add(c.after) }
		e.stdin = strings.NewReader(input)
		if code := run(e, []string{"statusline", "--home", t.TempDir()}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		if got := strings.Contains(out.String(), "lost 3 rules"); got != c.want {
			t.Errorf("%v after the compaction: %q, want lost 3 rules shown %v", c.after, out.String(), c.want)
		}
	}
}
