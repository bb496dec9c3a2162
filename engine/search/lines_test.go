package search

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// noReadAt hides the files' ReadAt: lines are then counted as they are
// read instead of lazily.
type noReadAt struct{ fs.FS }

func (n noReadAt) Open(name string) (fs.File, error) {
	f, err := n.FS.Open(name)
	if err != nil {
		return nil, err
	}
	if _, dir := f.(fs.ReadDirFile); dir {
		return f, nil
	}
	return struct{ fs.File }{f}, nil
}

// chunkyHome writes one transcript of several read chunks: lines of
// filler, with the query planted at the given lines (1-based) and, when
// long is set, a line longer than memscope reads as line 2.
func chunkyHome(t *testing.T, lines int, plant map[int]bool, long bool) string {
	t.Helper()
	dir := t.TempDir()
	var b []byte
	filler := strings.Repeat("filler words of a reply ", 6)
	// Each line's tail, the quoted text, is made once per text: the
	// lines differ only in their number.
	tails := map[string][]byte{}
	for n := 1; n <= lines; n++ {
		text := filler
		switch {
		case plant[n]:
			text += "chunkyNeedle"
		case long && n == 2:
			text = strings.Repeat("x", model.MaxLineBytes+10)
		}
		tail, ok := tails[text]
		if !ok {
			tail = fmt.Appendf(nil, `","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`+"\n", text)
			tails[text] = tail
		}
		b = append(strconv.AppendInt(append(b, `{"type":"assistant","uuid":"u`...), int64(n), 10), tail...)
	}
	p := filepath.Join(dir, "projects", "-work-app", "00000000-0000-4000-8000-000000000001.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLineNumbersAcrossChunks: hits far into a file of several chunks
// get their right line numbers whether the lines before them were
// counted lazily (read again) or as read, and whether or not an earlier
// hit counted part of the way.
func TestLineNumbersAcrossChunks(t *testing.T) {
	t.Parallel()
	const lines = 40000 // about 9 MiB: nine chunks
	for _, plants := range [][]int{{39999}, {3, 21000, 39999}, {1, 2, 40000}} {
		plant := map[int]bool{}
		for _, n := range plants {
			plant[n] = true
		}
		dir := chunkyHome(t, lines, plant, false)
		for name, fsys := range map[string]fs.FS{"lazy": model.DirFS(dir), "as read": noReadAt{model.DirFS(dir)}} {
			hits, sum := runAll(t, dir, "chunkyneedle", QueryOptions{}, func(o *Options) { o.Home = fsys; o.Stores = []Store{StoreTranscripts} })
			var got []int
			for _, h := range hits {
				got = append(got, h.Line)
				if h.UUID != fmt.Sprintf("u%d", h.Line) {
					t.Errorf("%s %v: line %d holds %s", name, plants, h.Line, h.UUID)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(plants) {
				t.Errorf("%s: lines %v, want %v", name, got, plants)
			}
			if len(sum.Problems) != 0 {
				t.Errorf("%s: problems %+v", name, sum.Problems)
			}
		}
	}
}

// TestLongLineSkippedAndCounted: a line longer than memscope reads is
// reported with its number and skipped, and the lines after it keep
// their numbers, in both ways of counting.
func TestLongLineSkippedAndCounted(t *testing.T) {
	if os.Getenv("MEMSCOPE_LONG") == "" {
		t.Skip("writes a 32 MiB line: set MEMSCOPE_LONG=1 (.ci/run does)")
	}
	t.Parallel()
	dir := chunkyHome(t, 6, map[int]bool{1: true, 5: true}, true)
	for name, fsys := range map[string]fs.FS{"lazy": model.DirFS(dir), "as read": noReadAt{model.DirFS(dir)}} {
		hits, sum := runAll(t, dir, "chunkyneedle", QueryOptions{}, func(o *Options) { o.Home = fsys; o.Stores = []Store{StoreTranscripts} })
		if len(hits) != 2 || hits[0].Line != 1 || hits[1].Line != 5 {
			t.Errorf("%s: hits %+v", name, hits)
		}
		if len(sum.Problems) != 1 || sum.Problems[0].Line != 2 || sum.Problems[0].Kind != model.ProblemTooLarge {
			t.Errorf("%s: problems %+v", name, sum.Problems)
		}
	}
}

// TestLongLineBuffersBoundedInTotal: eight workers on eight transcripts
// that each hold a 5 MiB line grow at most one buffer past a chunk at a
// time (before, each worker grew its own: 8 long lines' worth at once),
// and every hit is still found.
func TestLongLineBuffersBoundedInTotal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const files = 8
	long := strings.Repeat("y", 5<<20)
	for i := range files {
		p := filepath.Join(dir, "projects", "-work-app", fmt.Sprintf("00000000-0000-4000-8000-%012d.jsonl", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"type":"user","uuid":"a%d","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"%s longneedle"}}`+"\n", i, long)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lines := newLongLines()
	hits, sum := runAll(t, dir, "longneedle", QueryOptions{}, func(o *Options) {
		o.Stores, o.Workers, o.lines = []Store{StoreTranscripts}, files, lines
	})
	if len(hits) != files || len(sum.Problems) != 0 {
		t.Errorf("%d hits, problems %+v; want %d hits", len(hits), sum.Problems, files)
	}
	// One line of 5 MiB needs a buffer of 8 MiB (doubling from 1 MiB):
	// 7 MiB past the chunk, for one worker at a time.
	if peak, want := lines.peak.Load(), int64(8<<20-chunkSize); peak != want {
		t.Errorf("long-line buffers held %d bytes past a chunk at the peak, want %d (one worker's)", peak, want)
	}
	if lines.grown.Load() != 0 || len(lines.token) != 0 {
		t.Errorf("after the search: %d bytes still counted, token held %d", lines.grown.Load(), len(lines.token))
	}
}

// TestLastNewlineIsLastIndexByte: the eight-at-a-time search finds the
// last line break bytes.LastIndexByte finds, at every length and place
// around the word size, with bytes that differ from '\n' by one bit.
func TestLastNewlineIsLastIndexByte(t *testing.T) {
	t.Parallel()
	fill := []byte{'a', '\n' ^ 1, '\n' ^ 0x80, 0x8a, 0x0b, 0x09, 0xff, 0}
	for n := range 40 {
		for at := -1; at < n; at++ {
			for second := -1; second < at; second += 3 {
				b := make([]byte, n)
				for i := range b {
					b[i] = fill[(i*7+n)%len(fill)]
				}
				if at >= 0 {
					b[at] = '\n'
				}
				if second >= 0 {
					b[second] = '\n'
				}
				if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
					t.Fatalf("%q: %d, want %d", b, got, want)
				}
			}
		}
	}
}

// TestByteOrderMarkBeforeALongFirstLine: a transcript that opens with a
// UTF-8 byte order mark and a first line longer than a read (and than a
// chunk) is searched from the line's '{': the mark was dropped only
// when the first read held a whole line, and otherwise stayed at the
// line's start, which then did not parse (the hit was lost).
func TestByteOrderMarkBeforeALongFirstLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "projects", "-work-app", "00000000-0000-4000-8000-000000000001.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("filler words ", (chunkSize+chunkSize/2)/13)
	body := "\xEF\xBB\xBF" +
		`{"type":"user","uuid":"u1","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"` + long + ` bomNeedle"}}` + "\n" +
		`{"type":"user","uuid":"u2","timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"bomNeedle again"}}` + "\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, fsys := range map[string]fs.FS{"lazy": model.DirFS(dir), "as read": noReadAt{model.DirFS(dir)}} {
		hits, sum := runAll(t, dir, "bomneedle", QueryOptions{}, func(o *Options) { o.Home = fsys; o.Stores = []Store{StoreTranscripts} })
		var got []string
		for _, h := range hits {
			got = append(got, fmt.Sprintf("%d:%s", h.Line, h.UUID))
		}
		if fmt.Sprint(got) != "[1:u1 2:u2]" || len(sum.Problems) != 0 {
			t.Errorf("%s: hits %v, problems %+v; want [1:u1 2:u2] and none", name, got, sum.Problems)
		}
	}
}

// TestLastNewlineFarBack: a line break newlineNear bytes and more before
// the end, in a block of its own or at a block's edge, with none or
// another before it, is found where bytes.LastIndexByte finds it.
func TestLastNewlineFarBack(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, newlineNear - 1, newlineNear, newlineNear + 1, newlineNear + newlineBlock,
		newlineNear + newlineBlock + 1, 3*newlineBlock + 17, 5*newlineBlock + newlineNear} {
		places := []int{-1, 0, 1, 7, 8, n / 2}
		for _, d := range []int{1, 2, 8, 9, newlineNear - 1, newlineNear, newlineNear + 1, newlineNear + 8,
			newlineNear + newlineBlock - 1, newlineNear + newlineBlock, newlineNear + newlineBlock + 1} {
			places = append(places, n-d)
		}
		for _, at := range places {
			if at >= n {
				continue
			}
			for _, earlier := range []int{-1, 0, at / 3, at - 1} {
				b := bytes.Repeat([]byte{'\n' ^ 1}, n)
				if earlier >= 0 && earlier < n {
					b[earlier] = '\n'
				}
				if at >= 0 {
					b[at] = '\n'
				}
				if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
					t.Fatalf("length %d, breaks at %d and %d: %d, want %d", n, earlier, at, got, want)
				}
			}
		}
	}
}

// BenchmarkLastNewlineLongLine: the end of a read inside a long line
// (256 KiB with one line break at its start), as lastNewline finds it
// and as the eight-at-a-time search alone did.
func BenchmarkLastNewlineLongLine(b *testing.B) {
	buf := bytes.Repeat([]byte{'a'}, 256<<10)
	buf[0] = '\n'
	for _, f := range []struct {
		name string
		fn   func([]byte) int
	}{{"blocks", lastNewline}, {"swar", lastNewlineSWAR}} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				if f.fn(buf) != 0 {
					b.Fatal("wrong")
				}
			}
		})
	}
}
