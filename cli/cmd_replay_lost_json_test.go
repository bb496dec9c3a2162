package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/timeline"
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

// TestLostAppendIsEncodingJSON holds lostAppender to encoding/json (as
// jsonValue prints a session nested at a prefix) on random sessions:
// strings with every escape, bytes that are not UTF-8, U+2028, terminal
// controls; nil and empty lists and maps; zero and non-zero times;
// omitted and written optional fields; nil and set token counts.
func TestLostAppendIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 13))
	pieces := []string{"", "a", "/w/x.go", "\"", "\\", "\b\f\n\r\t", "\x00\x01\x1f", "\x7f", "ü", "\u2028\u2029", "\xff", "\xe2\x80", "\x1b[31m", "<&>", "\u0085", "✓ 𝄞"}
	str := func() string {
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	num := func() *int {
		if rng.IntN(3) == 0 {
			return nil
		}
		n := rng.IntN(300000) - 10
		return &n
	}
	when := func() time.Time {
		if rng.IntN(3) == 0 {
			return time.Time{}
		}
		return time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).In(time.FixedZone("", 3600*(rng.IntN(5)-2)))
	}
	for i := range 3000 {
		s := ledger.Session{File: model.TranscriptFile{Path: str(), ProjectSlug: str(), SessionID: str(), AgentID: str(), MetaPath: str(),
			Kind: model.TranscriptKind(str()), Size: rng.Int64N(1 << 40), ModTime: when()}}
		if rng.IntN(4) > 0 {
			s.Boundaries = []ledger.Boundary{}
		}
		for range rng.IntN(4) {
			b := ledger.Boundary{Index: rng.IntN(9), UUID: str(), Line: rng.IntN(1 << 20), Time: when(), Compaction: timeline.CompactionKind(str()),
				Sidechain: rng.IntN(2) == 0, PreTokens: num(), PostTokens: num()}
			if rng.IntN(4) > 0 {
				b.Had = map[ledger.Kind]int{}
				for range rng.IntN(6) {
					b.Had[ledger.Kind(str())] = rng.IntN(100)
				}
			}
			if rng.IntN(4) > 0 {
				b.Lost = []ledger.Item{}
				for range rng.IntN(4) {
					b.Lost = append(b.Lost, ledger.Item{ID: str(), Kind: ledger.Kind(str()), Text: str(), Detail: str(), Line: rng.IntN(999), UUID: str()})
				}
			}
			if rng.IntN(4) > 0 {
				b.Memory = []ledger.MemoryFile{}
				for range rng.IntN(3) {
					b.Memory = append(b.Memory, ledger.MemoryFile{Path: str(), Type: str(), Before: rng.IntN(2) == 0, After: rng.IntN(2) == 0})
				}
			}
			s.Boundaries = append(s.Boundaries, b)
		}
		prefix := strings.Repeat(" ", rng.IntN(6))
		var want bytes.Buffer
		if err := jsonValue(s)(&want, prefix); err != nil {
			t.Fatal(err)
		}
		w := lostAppender{prefix: prefix}
		if !w.session(s) {
			t.Fatalf("case %d: the appender refused %+v", i, s)
		}
		if got := escapeTerminalRunes(w.b); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("case %d: appender wrote\n%s\nencoding/json\n%s", i, got, want.Bytes())
		}
	}
}
