package vault

import (
	"bytes"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// indexSessionKey finds what bytes.Index finds, on seeds of every
// shape: the key at the start, the end, cut short, its 'I' alone, a
// near miss before the real one.
func FuzzIndexSessionKey(f *testing.F) {
	for _, s := range []string{
		"", "I", sessionKey, sessionKey[:len(sessionKey)-1], "xx" + sessionKey + "abc",
		`"sessionIdx":"` + sessionKey, `I I I "sessionId": "` + sessionKey,
		strings.Repeat(`{"a":"b"}`, 20) + sessionKey, `"sessionI"` + sessionKey[8:],
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := indexSessionKey(data), bytes.Index(data, []byte(sessionKey)); got != want {
			t.Fatalf("indexSessionKey(%q) = %d, bytes.Index = %d", data, got, want)
		}
	})
}

// forward and back are inverse on lines naming ids, runs of one id,
// keys whose value is not an id, and text with many 'I's.
func TestForwardBackRoundTrip(t *testing.T) {
	n := normalizer{enabled: true}
	for _, data := range []string{
		line(sidA, 1, 50) + line(sidA, 2, 50) + line(sidB, 3, 50),
		`{"sessionId":"` + strings.Repeat("a", maxIDLen+1) + `"}` + "\n",
		`{"sessionId":""}` + "\n" + `{"sessionId":"x y"}` + "\n",
		strings.Repeat("I said I would. ", 40) + line(sidB, 4, 10),
	} {
		stored, raw, ids := n.forward([]byte(data))
		stored = bytes.Clone(stored)
		if raw {
			t.Fatalf("%q stored raw", data)
		}
		back, err := (&normalizer{enabled: true}).back(stored, raw, ids)
		if err != nil || string(back) != data {
			t.Errorf("round trip of %q: %q, %v", data, back, err)
		}
		if want := strings.Count(data, sessionKey); strings.Count(string(stored), sessionKey+string(marker)) > want {
			t.Errorf("%q: more markers than keys", data)
		}
	}
}

func BenchmarkForward(b *testing.B) {
	var data []byte
	for i := 0; len(data) < 128<<10; i++ {
		data = append(data, line(sidA, i, 900)...)
	}
	n := normalizer{enabled: true}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n.forward(data)
	}
}

// A normalizer matches the session id it took out last by one
// comparison (normalizer.idEnd): it finds what idEnd finds, after any
// id, on the last id followed by more id bytes, by no quote, cut short,
// and on another id.
func FuzzNormalizerIdEnd(f *testing.F) {
	for _, s := range [][2]string{
		{sidA, sidA + `"`}, {sidA, sidA + `x"`}, {sidA, sidA}, {sidA, sidA[:10]},
		{sidA, sidB + `"`}, {"a", `a"`}, {"a", `ab"`}, {sidA, sidA + `-"`},
		{sidA, sidA + " \""},
	} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, last string, data []byte) {
		if j := idEnd([]byte(last + `"`)); j != len(last) {
			return // last is always an id idEnd found
		}
		n := normalizer{last: last}
		if got, want := n.idEnd(data), idEnd(data); got != want {
			t.Fatalf("after %q, idEnd(%q) = %d, want %d", last, data, got, want)
		}
	})
}

// A chunk's session ids, when they are the id the normalizer took out
// last, are neither checked byte by byte nor copied into a new string:
// the second chunk of a file allocates only its list of runs (on the old
// code, its id's string too).
func TestForwardKeepsTheLastID(t *testing.T) {
	n := normalizer{enabled: true}
	chunk := []byte(line(sidA, 1, 50) + line(sidA, 2, 50) + line(sidA, 3, 50))
	_, _, first := n.forward(chunk)
	var ids []IDRun
	allocs := testing.AllocsPerRun(20, func() { _, _, ids = n.forward(chunk) })
	if allocs > 1 {
		t.Errorf("forward of a chunk naming the last id: %.0f allocations, want 1 (its runs)", allocs)
	}
	if len(ids) != 1 || ids[0] != (IDRun{ID: sidA, N: 3}) || first[0] != ids[0] {
		t.Errorf("runs %v, first chunk's %v", ids, first)
	}
}

// boundaries decides two lines as isBoundary decides each (the pair's
// hashes computed side by side): lines of every length around the
// tail's 64 bytes, with and without session ids in their tails, in JSON
// Lines files and others.
func TestBoundariesAsIsBoundary(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	var lines [][]byte
	for i := range 4000 {
		n := r.IntN(300)
		b := make([]byte, n)
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		if i%3 == 0 {
			b = append(b, `,"sessionId":"`+sidA+`","uuid":"u-`+strconv.Itoa(i)+`"}`...)
		}
		lines = append(lines, append(b, '\n'))
	}
	ends := 0
	for _, jsonl := range []bool{true, false} {
		c := &cutter{norm: normalizer{enabled: jsonl}}
		for i := 0; i+1 < len(lines); i++ {
			a, b := c.boundaries(lines[i], lines[i+1])
			if a != c.isBoundary(lines[i]) || b != c.isBoundary(lines[i+1]) {
				t.Fatalf("lines %d and %d (JSON Lines %v): boundaries %v %v, isBoundary %v %v", i, i+1, jsonl, a, b, c.isBoundary(lines[i]), c.isBoundary(lines[i+1]))
			}
			if a {
				ends++
			}
		}
	}
	if ends == 0 {
		t.Error("no line ended a chunk: the test decides nothing")
	}
}

// A file's chunks do not depend on how its reads come: read whole (the
// line after each is found beside it and both decided at once) or a
// byte at a time (the next line is never in the buffer yet), the same
// chunks, and at the same places.
func TestCutSameWhateverTheReads(t *testing.T) {
	content := transcript(sidA, 0, 600, 450) + strings.Repeat("y", maxChunk+999) + "\n" + transcript(sidA, 600, 700, 40)
	cutWith := func(r io.Reader) cutResult {
		c := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, prefixAt: -1,
			store: func(key, []byte) (bool, error) { return true, nil }}
		res, err := c.cut(r, 0, int64(len(content)), true)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	whole := cutWith(strings.NewReader(content))
	bytewise := cutWith(iotest.OneByteReader(strings.NewReader(content)))
	if len(whole.chunks) < 3 || !sameChunks(whole.chunks, bytewise.chunks) || whole.size != bytewise.size || whole.lastStart != bytewise.lastStart {
		t.Fatalf("read whole: %d chunks, %d bytes, last at %d; a byte at a time: %d chunks, %d bytes, last at %d",
			len(whole.chunks), whole.size, whole.lastStart, len(bytewise.chunks), bytewise.size, bytewise.lastStart)
	}
}

// A cutter whose chunks are not written into a frame (into unset, or no
// room left in it) keeps its normalizer's buffer from chunk to chunk:
// cutting a transcript again allocates a small part of its bytes, not a
// new buffer a chunk (hundreds of MB over a first sync when into's room
// was put back over the buffer forward had grown).
func TestCutterKeepsItsNormalizerBuffer(t *testing.T) {
	content := transcript(sidA, 0, 4000, 450)
	c := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, prefixAt: -1,
		store: func(key, []byte) (bool, error) { return true, nil }}
	cut := func() {
		if _, err := c.cut(strings.NewReader(content), 0, int64(len(content)), true); err != nil {
			t.Fatal(err)
		}
	}
	cut()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cut()
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(content))/4 && !raceBuild {
		t.Errorf("cutting %d bytes again allocated %d", len(content), alloc)
	}
}
