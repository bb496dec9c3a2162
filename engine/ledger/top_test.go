package ledger

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// newestBoth reads data as HomeSince's own raw pass does (newest.line,
// what the shared pass ran before i28f) and as the shared pass does now
// (the feed's LineTop, with the members stat's check kept).
func newestBoth(data []byte) (line, top newest) {
	var sc jsonscan.Scanner
	ff := &feedFile{}
	sum := sessions.NewSummarizing("f")
	sum.KeepTop(true)
	lr := model.NewLineReader(bytes.NewReader(data))
	for {
		l, ok := lr.Next()
		if !ok {
			break
		}
		line.line(l, &sc)
		sum.Line(l)
		// Through the interface the shared pass uses: a feed that does
		// not take the members is handed the line (homepass.read).
		if w, ok := homepass.File(ff).(homepass.Walking); ok {
			w.LineTop(l, sum.Top())
		} else {
			ff.Line(l)
		}
	}
	sum.Summary(0, nil)
	return line, ff.n
}

// The shared pass's newest boundary of each transcript, read from the
// lines' members, is what searching each line gives, on every transcript
// of the repo's test data and of a generated home (W's kind of lines).
func TestLineTopNewestIsLines(t *testing.T) {
	boundaries := 0
	check := func(name string, data []byte) {
		line, top := newestBoth(data)
		if line != top {
			t.Errorf("%s: searching each line %+v, from its members %+v", name, line, top)
		}
		if top.Has {
			boundaries++
		}
	}
	gen := t.TempDir()
	if err := genhome.Run(gen, "2M", "5"); err != nil {
		t.Fatal(err)
	}
	_ = filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".cache" || d.Name() == ".git") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") && strings.Contains(p, "testdata") {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			check(p, data)
		}
		return nil
	})
	_ = filepath.WalkDir(gen, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			check(p, data)
		}
		return err
	})
	if boundaries < 5 {
		t.Fatalf("%d transcripts with a boundary: the test compares nothing", boundaries)
	}
}

// The ledger's feed takes the members stat's check walked
// (homepass.Walking) and names a boundary from the line's subtype: a
// message quoting "compact_boundary" (a user pasting a transcript) is
// not one, so the file is not read whole for it. Before i28f it searched
// every line whole and counted that line's time as a compaction's.
func TestLineTopBoundaryIsTheSubtype(t *testing.T) {
	if _, ok := homepass.File(&feedFile{}).(homepass.Walking); !ok {
		t.Fatal("the ledger's feed does not take the shared pass's members (homepass.Walking): it searches each line whole")
	}
	q, _ := json.Marshal(`{"type":"system","subtype":"compact_boundary"}`)
	data := `{"type":"system","subtype":"compact_boundary","timestamp":"2026-01-01T00:00:00.000Z","uuid":"b"}
{"type":"user","message":{"role":"user","content":` + string(q) + `},"timestamp":"2026-02-01T00:00:00.000Z","uuid":"u"}
{"type":"system","subtype":"microcompact_boundary","timestamp":"2026-01-02T00:00:00.000Z","uuid":"m"}
{"type":"system","subtype":"compact_boundary" broken
`
	line, top := newestBoth([]byte(data))
	if !top.Has || top.Unknown != line.Unknown || !top.Newest.Equal(time2(t, "2026-01-02T00:00:00.000Z")) {
		t.Errorf("from the members %+v, want the microcompaction's time (the quote is no boundary; the broken line searched as before: %+v)", top, line)
	}
}

func time2(t *testing.T, s string) time.Time {
	t.Helper()
	tm, ok := model.ParseTimestamp([]byte(`"` + s + `"`))
	if !ok {
		t.Fatalf("bad time %s", s)
	}
	return tm
}

// FuzzLineTopNewestIsLines holds the feed's reading from the members to
// newest.line's search on boundary lines and others, whatever text they
// carry outside the subtype, and on any line at all.
func FuzzLineTopNewestIsLines(f *testing.F) {
	for _, s := range []string{"x", "2026-01-01T00:00:00Z", "\xff", `\u0041`, "compact"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, _ := json.Marshal(s)
		lines := []string{
			`{"type":"system","subtype":"compact_boundary","content":` + string(q) + `,"timestamp":` + string(q) + `}`,
			`{"type":"system","subtype":"microcompact_boundary","timestamp":"2026-03-01T00:00:00Z","level":` + string(q) + `}`,
			`{"type":"system","subtype":` + string(q) + `,"timestamp":"2026-04-01T00:00:00Z"}`,
			s,
		}
		line, top := newestBoth([]byte(strings.Join(lines, "\n")))
		if strings.Contains(s, string(compactMark)) {
			// A line quoting the mark outside a subtype is no boundary:
			// the members name fewer, never more, nor newer.
			if top.Has && !line.Has || top.Newest.After(line.Newest) || top.Unknown && !line.Unknown {
				t.Fatalf("%q: searching each line %+v, from its members %+v", s, line, top)
			}
			return
		}
		if line != top {
			t.Fatalf("%q: searching each line %+v, from its members %+v", s, line, top)
		}
	})
}
