package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSanitizingWriterStripsControls(t *testing.T) {
	var b bytes.Buffer
	w := humanOutput(&b)
	n, err := w.Write([]byte("safe \x1b]0;pwned\x07text \x1b[31mred\x1b[0m\n"))
	if err != nil || n != len("safe \x1b]0;pwned\x07text \x1b[31mred\x1b[0m\n") {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got := b.String(); got != "safe text red\n" {
		t.Errorf("got %q", got)
	}
}

// Text reports print CLAUDE.md and memory content: escape sequences in
// them must not reach the terminal.
func TestPromptReportIsTerminalSafe(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(home, "CLAUDE.md"), []byte("Be brief.\x1b]52;c;ZXZpbA==\x07\n\x1b[2J\n"), 0o644)
	e, out, errb := testEnv(t)
	if code := run(e, []string{"prompt", "--home", home, "--project", proj}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if strings.ContainsRune(out.String(), 0x1b) || strings.ContainsRune(out.String(), 0x07) {
		t.Errorf("report contains control characters:\n%q", out.String())
	}
	if !strings.Contains(out.String(), "Be brief.") {
		t.Errorf("the text itself should still be shown:\n%s", out.String())
	}
	// --text piped (not a terminal) stays exact: it is what the client sends.
	out.Reset()
	if code := run(e, []string{"prompt", "--home", home, "--project", proj, "--text"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.ContainsRune(out.String(), 0x1b) {
		t.Errorf("--text to a pipe should be the exact text")
	}
}
