package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/preview"
)

// TestNestedClaudeMdCut: a nested CLAUDE.md of 400 000 characters joins
// when the model reads a file beside it; the tool result's request holds
// exactly what preview.NestedMemoryText computes (its start, cut at a
// line end under preview.NestedMaxChars, and the client's note), and a
// small one arrives whole, its final newline included.
func TestNestedClaudeMdCut(t *testing.T) {
	claude := client(t)
	for _, size := range []int{20000, 400000} {
		w := newWorld(t)
		sub := filepath.Join(w.project, "sub")
		os.MkdirAll(sub, 0o755)
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "- rule %05d: %s\n", i, strings.Repeat("x", 190))
		}
		md := filepath.Join(sub, "CLAUDE.md")
		os.WriteFile(md, []byte(b.String()), 0o644)
		os.WriteFile(filepath.Join(sub, "x.go"), []byte("package sub\n"), 0o644)
		reqs := w.run(t, claude, "Read", map[string]any{"file_path": filepath.Join(sub, "x.go")})
		text := preview.JoinedText([]byte(b.String()))
		want := preview.NestedMemoryText(md, text)
		_, cut := preview.CutNested(md, text)
		if cut != (size > preview.NestedMaxChars) {
			t.Fatalf("size %d: cut %v", size, cut)
		}
		found := false
		for _, r := range reqs {
			walkStrings(r.Body["messages"], func(s string) {
				i := strings.Index(s, "Contents of "+md)
				if i < 0 {
					return
				}
				got := strings.TrimSuffix(s[i:], "\n</system-reminder>")
				if got == want {
					found = true
				} else {
					t.Logf("size %d: the client sent %d characters ending %q; memscope computes %d ending %q", size, len(got), got[max(0, len(got)-160):], len(want), want[max(0, len(want)-160):])
				}
			})
		}
		if !found {
			t.Errorf("size %d: no request carries the nested CLAUDE.md as memscope computes it (%d requests)", size, len(reqs))
		}
	}
}

// walkStrings calls f with every string in a decoded JSON value.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	case map[string]any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}
