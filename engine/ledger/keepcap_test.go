package ledger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// A MEMORY.md of 199 lines ending in a newline has room for one more:
// the kept rule's line lands as line 200, which loads, so the keep is not
// refused (it was: the check put a blank line before it); at 200 lines it
// is refused, with the cap named.
func TestKeepToMemoryAtTheCap(t *testing.T) {
	for _, n := range []int{memindex.MaxLines - 1, memindex.MaxLines} {
		dir := filepath.Join(t.TempDir(), "memory")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "- [note %d](note_%d.md) — a line\n", i, i)
		}
		if err := os.WriteFile(filepath.Join(dir, model.MemoryIndexName), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		s, probs := store.Open(dir, nil)
		if s == nil {
			t.Fatalf("open: %v", probs)
		}
		it := Item{Kind: KindRule, ID: "r1", Line: 3, Text: "Always run the linter before committing."}
		_, err := Keep(it, Target{Kind: ToMemory}, KeepInput{Session: "s1", Memory: s, Options: store.WriteOptions{Now: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)}})
		var full *IndexFullError
		switch {
		case n < memindex.MaxLines && err != nil:
			t.Errorf("%d lines: the keep was refused though line %d loads: %v", n, n+1, err)
		case n == memindex.MaxLines && !errors.As(err, &full):
			t.Errorf("%d lines: want IndexFullError, got %v", n, err)
		}
		if n < memindex.MaxLines {
			data, _ := os.ReadFile(filepath.Join(dir, model.MemoryIndexName))
			if c := memindex.CapIndex(data); c.Truncated || c.Lines != memindex.MaxLines {
				t.Errorf("after the keep: %d lines, truncated %v", c.Lines, c.Truncated)
			}
		}
	}
}
