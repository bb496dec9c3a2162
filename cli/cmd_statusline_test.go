package cli

import (
	"strings"
	"testing"
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
