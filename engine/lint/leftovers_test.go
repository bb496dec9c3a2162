package lint

import (
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// Lint reports every leftover and interrupted change it is given as a
// warning naming the path and what it is.
func TestLintLeftoverCopies(t *testing.T) {
	when := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	r := Run(Input{Memory: &model.MemoryDir{},
		Leftovers: []LeftoverCopy{
			{Path: ".a.md.memscope-4242-1", What: "a copy of /m/a.md (5 B) left by an interrupted memscope write (process 4242, gone)", ModTime: when},
			{Path: "/src/app/.main.go.memscope-7-9", What: "a copy of /src/app/main.go (1 KiB) left by an interrupted memscope restore"},
		},
		Interrupted: []InterruptedChange{{Path: "/h/.memscope/file-history/s/journal.jsonl", What: "restore r1 of session s was interrupted"}},
	})
	var got []Finding
	for _, f := range r.Findings {
		if f.Kind == Leftover || f.Kind == Interrupted {
			got = append(got, f)
		}
	}
	if len(got) != 3 || r.Warnings < 3 {
		t.Fatalf("findings %+v, warnings %d; want the two leftovers and the interrupted restore", got, r.Warnings)
	}
	for _, f := range got {
		if f.Severity != SevWarning {
			t.Errorf("%s: severity %s", f.Path, f.Severity)
		}
	}
	if !strings.Contains(got[0].Message, "2026-11-22 12:00:00") || !strings.Contains(got[0].Message, "a copy of /m/a.md") || !strings.Contains(got[0].Message, "--remove-leftovers") {
		t.Errorf("leftover message %q misses what it copies, its time or how to remove it", got[0].Message)
	}
}
