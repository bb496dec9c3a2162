package lint

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/model"
)

func TestLintLeftoverCopies(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	old, fresh := now.Add(-time.Hour), now.Add(-time.Minute)
	mfs := fstest.MapFS{
		".a.md.memscope-123":                   {Data: []byte("old a"), ModTime: old},
		".b.md.memscope-stage-4-99":            {Data: []byte("in progress"), ModTime: fresh},
		".memscope/.journal.jsonl.memscope-77": {Data: []byte("{}"), ModTime: old},
		".trash/x/.c.md.memscope-remove-1-2":   {Data: []byte("c"), ModTime: old},
		".hidden.md":                           {Data: []byte("not ours"), ModTime: old},
		".memscope-write-test-42":              {ModTime: old},
		"a.memscope-1.md":                      {Data: []byte("not hidden"), ModTime: old},
		"MEMORY.md":                            {Data: []byte("- [A](a.md) — a\n"), ModTime: old},
	}
	r := Run(Input{Memory: &model.MemoryDir{}, MemoryFS: mfs, Now: now})
	var got []string
	for _, f := range r.Findings {
		if f.Kind == Leftover {
			if f.Severity != SevWarning {
				t.Errorf("%s: severity %s", f.Path, f.Severity)
			}
			got = append(got, f.Path)
		}
	}
	want := []string{".a.md.memscope-123", ".memscope-write-test-42", ".memscope/.journal.jsonl.memscope-77", ".trash/x/.c.md.memscope-remove-1-2"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("leftovers %v, want %v", got, want)
	}
	for _, f := range r.Findings {
		if f.Path == ".trash/x/.c.md.memscope-remove-1-2" && !strings.Contains(f.Message, "a copy of .trash/x/c.md") {
			t.Errorf("message does not name the file it copies: %s", f.Message)
		}
		if f.Path == ".memscope-write-test-42" && !strings.Contains(f.Message, "write probe") {
			t.Errorf("a probe file is not called one: %s", f.Message)
		}
	}
}
