package sessions

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// A pack gives back every line it was given, in order, whatever the
// counts' sizes and signs, the model (none, one, several) and the flags.
func TestUsagePackRoundTrip(t *testing.T) {
	var p usagePack
	var want []packLine
	models := []string{"claude-opus-5-5", "", "claude-haiku-4-5"}
	for i := range 300 {
		l := packLine{keyed: i%3 != 0, price: pricing.Response{
			Model: models[i%len(models)],
			Usage: model.Usage{InputTokens: int64(i * i), OutputTokens: int64(-i), CacheCreationInputTokens: 1 << 53, CacheReadInputTokens: -1 << 53},
			// A third of the lines say fast, a fifth recorded a cost.
			CacheWrite1h: int64(i % 7), Fast: i%3 == 1, HasRecorded: i%5 == 0,
		}}
		if l.price.HasRecorded {
			l.price.Recorded = float64(i) / 3
		}
		if l.keyed {
			l.key = [2]uint64{uint64(i) * 0x9e3779b97f4a7c15, uint64(i)}
		}
		want = append(want, l)
		p.add(l.key, l.keyed, l.price)
	}
	if p.n != len(want) || p.keyCount() != 200 || len(p.models) != 3 {
		t.Fatalf("pack of %d lines, %d keys, %d models", p.n, p.keyCount(), len(p.models))
	}
	p.dropped = []int32{0, 7, 299}
	var got []packLine
	p.each(func(l *packLine) { got = append(got, *l) })
	if len(got) != len(want)-3 {
		t.Fatalf("each gave %d lines, want %d", len(got), len(want)-3)
	}
	j := 0
	for i, w := range want {
		if i == 0 || i == 7 || i == 299 {
			continue
		}
		if got[j] != w {
			t.Fatalf("line %d: got %+v, want %+v", i, got[j], w)
		}
		j++
	}
}

// A pack that does not read (a cut or altered cache entry) ends the
// lines where it stops reading; it never indexes out of range.
func TestUsagePackCutEndsLines(t *testing.T) {
	var p usagePack
	for i := range 10 {
		p.add([2]uint64{uint64(i + 1), 1}, true, pricing.Response{Model: "m", Usage: model.Usage{InputTokens: 1000}, HasRecorded: true, Recorded: 1})
	}
	for cut := range len(p.data) {
		q := p
		q.data = p.data[:cut]
		n := 0
		q.each(func(*packLine) { n++ })
		if n > 10 || cut < len(p.data)-1 && n == 10 {
			t.Fatalf("data cut at %d of %d: %d lines", cut, len(p.data), n)
		}
	}
	q := p
	q.keys = p.keys[:len(p.keys)-1]
	n := 0
	q.each(func(*packLine) { n++ })
	if n != 9 {
		t.Fatalf("keys cut: %d lines, want 9", n)
	}
	q = p
	q.models = nil
	q.each(func(*packLine) { n = -1 })
	if n == -1 {
		t.Fatal("a line read with no model names")
	}
}

func TestKeySet(t *testing.T) {
	s := newKeySet(3)
	keys := [][2]uint64{{}, {1, 1}, {17, 1}, {1, 2}, {33, 0}, {1<<63 + 1, 5}}
	for _, k := range keys {
		if s.add(k) {
			t.Fatalf("%v: already there on its first add", k)
		}
	}
	// More keys than the size asked for, all in one chain of slots.
	for i := range 40 {
		if s2 := newKeySet(3); s2.add([2]uint64{uint64(i) * 16, 9}) {
			t.Fatal("fresh set has a key")
		}
	}
	for _, k := range keys {
		if !s.add(k) {
			t.Fatalf("%v: not there on its second add", k)
		}
	}
}

// usageHome is a home of files transcripts holding lines responses in
// all, each line its own response; every tenth file starts with a copy
// of the previous file's first ten lines (a resumed session), which the
// dedupe drops.
func usageHome(files, lines int) fstest.MapFS {
	fsys := fstest.MapFS{}
	per := lines / files
	line := func(f, i int) string {
		return fmt.Sprintf(`{"type":"assistant","sessionId":"s%d","timestamp":"2026-11-%02dT05:%02d:%02d.000Z","requestId":"req_%d_%d","message":{"id":"msg_%d_%d","model":"claude-opus-5-5","usage":{"input_tokens":%d,"output_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d}}}`+"\n",
			f, 1+f%28, i/60%60, i%60, f, i, f, i, 3+i%11, 100+i%977, i%5000, 20000+i)
	}
	for f := range files {
		var b strings.Builder
		if f%10 == 9 {
			for i := range 10 {
				b.WriteString(line(f-1, i))
			}
		}
		for i := range per {
			b.WriteString(line(f, i))
		}
		fsys[fmt.Sprintf("projects/-p/s%d.jsonl", f)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	return fsys
}

// The report's heap does not grow with the responses beyond a few dozen
// bytes each: their keys and packed counts, and the dedupe's set. Each
// line held as a struct until the dedupe (the old way) cost about 390
// bytes a response at the peak. The growth is measured between two homes
// of files of the same size, one with four times the files (and the
// responses) of the other, so what does not depend on the home's size
// (a file's buffers) cancels out.
func TestSessionsHeapPerResponse(t *testing.T) {
	if testing.Short() {
		t.Skip("reads two homes of 20 000 and 80 000 responses")
	}
	const perFile = 500
	peak := func(lines int) (uint64, Report) {
		h := &model.Home{Dir: "/h", FS: usageHome(lines/perFile, lines)}
		var rep Report
		heap := testenv.PeakHeap(func() { rep = Summarize(Options{Home: h, Workers: 1}) })
		return heap, rep
	}
	small, rs := peak(20000)
	big, rb := peak(80000)
	// The resumed files' copies are dropped: every response counts once.
	if rs.Totals.Responses != 20000 || rb.Totals.Responses != 80000 {
		t.Fatalf("responses %d and %d, want 20000 and 80000", rs.Totals.Responses, rb.Totals.Responses)
	}
	per := (float64(big) - float64(small)) / 60000
	t.Logf("peak heap %d and %d bytes: %.0f bytes a response", small, big, per)
	if per > 120 || math.IsNaN(per) {
		t.Errorf("heap grows %.0f bytes a response, want at most 120", per)
	}
}

// Reading a line allocates nothing in the steady state: a file of 2 000
// lines costs the scan no more allocations than a file of 20 (the ids a
// line hands the summarizer were copies, and the usage counts escaped:
// an allocation or three a line).
func TestScanAllocatesNothingALine(t *testing.T) {
	small, big := usageHome(1, 20), usageHome(1, 2000)
	w := newScanWorker(true)
	allocs := func(fsys fstest.MapFS) float64 {
		data := fsys["projects/-p/s0.jsonl"].Data
		return testing.AllocsPerRun(20, func() {
			if _, err := w.scan(bytes.NewReader(data), "s0.jsonl"); err != nil {
				t.Fatal(err)
			}
		})
	}
	allocs(big) // the worker's buffers grown once
	a, b := allocs(small), allocs(big)
	if b > a+4 {
		t.Errorf("a file of 2000 lines: %.0f allocations, of 20: %.0f; want no more than a few more", b, a)
	}
}
