package cli

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/model"
)

// TestLostAllJSONIsWriteJSON holds `replay --lost --all --json`'s
// encoder, which makes the sessions' JSON on several workers, to
// writeJSON of the same value byte for byte: no session, one, and many,
// with terminal controls, escapes and text outside ASCII in the items,
// with and without problems.
func TestLostAllJSONIsWriteJSON(t *testing.T) {
	pre, post := 167000, 14000
	session := func(i int) ledger.Session {
		b := ledger.Boundary{Index: 1, UUID: fmt.Sprintf("u%d", i), Line: 10 + i, Time: time.Date(2026, 11, 30, 4, 0, i, 0, time.UTC),
			Compaction: "auto", PreTokens: &pre, PostTokens: &post, Had: map[ledger.Kind]int{ledger.KindRule: 2, ledger.KindFile: i},
			Lost: []ledger.Item{
				{ID: "r1", Kind: ledger.KindRule, Text: fmt.Sprintf("Never\x1b[31m run \"make\" <here> ünd %d\u2028", i), Detail: "rule word", Line: 3, UUID: "a"},
				{ID: "f1", Kind: ledger.KindFile, Text: "/w/a\\b.go", Detail: "read, edit", Line: 4, UUID: "b"},
			},
			Memory: []ledger.MemoryFile{{Path: "/w/CLAUDE.md", Type: "Project", Before: true}}}
		if i%3 == 0 {
			b.Lost, b.Memory, b.PreTokens = []ledger.Item{}, []ledger.MemoryFile{}, nil
		}
		return ledger.Session{File: model.TranscriptFile{Path: fmt.Sprintf("projects/p/%d.jsonl", i), SessionID: fmt.Sprint(i), Size: int64(i)},
			Boundaries: []ledger.Boundary{b, b}}
	}
	probs := []model.Problem{{File: "projects/p/x.jsonl", Line: 7, Kind: model.ProblemMalformed, Reason: "invalid JSON at byte 3\x07"}}
	for _, n := range []int{0, 1, 2, 7, 50} {
		for _, ps := range [][]model.Problem{{}, probs} {
			out := lostAllOut{Sessions: []ledger.Session{}, Problems: ps}
			for i := range n {
				out.Sessions = append(out.Sessions, session(i))
			}
			var want, got bytes.Buffer
			if err := writeJSON(&want, out); err != nil {
				t.Fatal(err)
			}
			if err := writeJSONPart(&got, lostAllJSON(out)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%d sessions, %d problems: lostAllJSON printed\n%s\nwant writeJSON's\n%s", n, len(ps), got.Bytes(), want.Bytes())
			}
		}
	}
}
