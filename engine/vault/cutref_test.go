package vault

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/zeebo/blake3"
)

// refChunk is a chunk as the reference cutter (refCut) makes it: its
// bytes in the file, its bytes as stored, and its session ids.
type refChunk struct {
	n      int
	stored string
	raw    bool
	ids    []IDRun
}

// refForward is the normalizer's forward written plainly: the bytes
// stored of data (session ids' values replaced by the marker), whether
// they are data itself because it holds a NUL, and the ids taken out.
func refForward(data []byte) (string, bool, []IDRun) {
	if bytes.IndexByte(data, 0) >= 0 {
		return string(data), true, nil
	}
	var out []byte
	var ids []IDRun
	for {
		i := bytes.Index(data, []byte(sessionKey))
		if i < 0 {
			return string(append(out, data...)), false, ids
		}
		i += len(sessionKey)
		j := refIDEnd(data[i:])
		if j < 0 {
			out = append(out, data[:i]...)
			data = data[i:]
			continue
		}
		id := string(data[i : i+j])
		if len(ids) > 0 && ids[len(ids)-1].ID == id {
			ids[len(ids)-1].N++
		} else {
			ids = append(ids, IDRun{ID: id, N: 1})
		}
		out = append(append(out, data[:i]...), 0)
		data = data[i+j:]
	}
}

// refTail is what decides whether a whole line ends a chunk: the last
// 64 bytes of its end as stored (the session ids of its last 141 bytes
// out, in a JSON Lines file) and the line's length so shortened.
func refTail(line []byte, jsonl bool) (string, int) {
	tail, n := string(line), len(line)
	if w := line[max(0, len(line)-tailWindow):]; jsonl && bytes.Contains(w, []byte(sessionKey)) {
		t, _, _ := refForward(w)
		tail, n = t, len(line)-len(w)+len(t)
	}
	return tail[max(0, len(tail)-tailBytes):], n
}

// refEnds is whether a whole line ends a chunk: FNV-1a 64 of refTail's
// bytes and length, against the line's share of chunkTarget.
func refEnds(line []byte, jsonl bool) bool {
	tail, n := refTail(line, jsonl)
	h := uint64(14695981039346656037)
	for i := range len(tail) {
		h = (h ^ uint64(tail[i])) * 1099511628211
	}
	h = (h ^ uint64(n)) * 1099511628211
	share := max(uint64(n), 128<<10/64)
	return uint64(uint32(h>>32))*(128<<10) < share<<32
}

// refCut cuts data the plain way: lines as a bufio.Reader of maxChunk
// bytes gives them, a chunk ending after a line that refEnds, after
// softMax bytes at the next line end, and before maxChunk bytes.
func refCut(data []byte, jsonl, completeLines bool) []refChunk {
	var chunks []refChunk
	start, end := 0, 0
	emit := func() {
		if end > start {
			c := refChunk{n: end - start, stored: string(data[start:end])}
			if jsonl {
				c.stored, c.raw, c.ids = refForward(data[start:end])
			}
			chunks = append(chunks, c)
		}
		start = end
	}
	for end < len(data) {
		rest := data[end:]
		n, whole := maxChunk, false
		if e := bytes.IndexByte(rest[:min(len(rest), maxChunk)], '\n'); e >= 0 {
			n, whole = e+1, true
		} else if len(rest) < maxChunk {
			if completeLines {
				break
			}
			n = len(rest)
		}
		if end > start && end-start+n > maxChunk {
			emit()
		}
		ends := whole && refEnds(rest[:n], jsonl)
		end += n
		if size := end - start; whole && (ends || size >= softMax) || size >= maxChunk {
			emit()
		}
	}
	emit()
	return chunks
}

// cutAgainstRef cuts data with a cutter, read through r, and checks
// every chunk against refCut's: its length, its stored bytes, its name,
// its ids.
func cutAgainstRef(t *testing.T, c *cutter, data []byte, r io.Reader, jsonl, completeLines bool) {
	t.Helper()
	var stored []string
	c.norm.enabled, c.hash, c.prefixAt = jsonl, hashBLAKE3, -1
	c.store = func(k key, d []byte) (bool, error) {
		stored = append(stored, string(d))
		return true, nil
	}
	res, err := c.cut(r, 0, int64(len(data)), completeLines)
	if err != nil {
		t.Fatal(err)
	}
	want := refCut(data, jsonl, completeLines)
	if len(res.chunks) != len(want) {
		t.Fatalf("%d chunks, the reference %d (JSON Lines %v, complete lines %v)", len(res.chunks), len(want), jsonl, completeLines)
	}
	size := 0
	for i, w := range want {
		g := res.chunks[i]
		if g.N != int64(w.n) || stored[i] != w.stored || g.Raw != w.raw || !slices.Equal(g.IDs, w.ids) {
			t.Fatalf("chunk %d (at %d): %d bytes, raw %v, ids %v, stored %q; the reference: %d bytes, raw %v, ids %v, stored %q",
				i, size, g.N, g.Raw, g.IDs, clip(stored[i]), w.n, w.raw, w.ids, clip(w.stored))
		}
		if k := key(blake3.Sum256([]byte(w.stored))); g.H != k.String() {
			t.Fatalf("chunk %d named %s, its stored bytes' BLAKE3 is %s", i, g.H, k)
		}
		size += w.n
	}
	if res.size != int64(size) {
		t.Fatalf("cut %d bytes, the reference's chunks hold %d", res.size, size)
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:100] + "…" + s[len(s)-100:]
	}
	return s
}

// adversarialLines is a file of JSON-like lines made to catch a cutter
// out: session keys with ids, with values that are not ids, overlapping
// keys, keys and ids near a line's tail window, NULs, CRLF, 'I's, lines
// longer than a chunk, a key across maxChunk, and no trailing newline
// when last is set.
func adversarialLines(r *rand.Rand, size int, last bool) []byte {
	// NULs in many lines (most chunks raw) or few.
	nulEvery := []int{14, 400}[r.IntN(2)]
	ids := []string{sidA, sidB, "x", strings.Repeat("a", maxIDLen), strings.Repeat("b", maxIDLen+1)}
	var b []byte
	filler := func(n int) {
		for range n {
			switch r.IntN(40) {
			case 0:
				b = append(b, 'I')
			case 1:
				b = append(b, '"')
			default:
				b = append(b, byte('a'+r.IntN(26)))
			}
		}
	}
	for len(b) < size {
		if r.IntN(nulEvery) == 0 {
			b = append(b, 0)
		}
		switch r.IntN(14) {
		case 0:
			// A NUL in the tail window, before its key.
			defer func(at int) {
				if at < len(b) {
					b[at] = 0
				}
			}(len(b) + r.IntN(300))
		case 1:
			b = append(b, sessionKey...)
			b = append(b, sessionKey...)
			b = append(b, sidA...)
			b = append(b, '"')
		case 2:
			b = append(b, `"sessionId":" `...)
		case 3:
			b = append(b, sessionKey[:r.IntN(len(sessionKey))]...)
		case 4:
			// A line longer than a chunk, a key near maxChunk.
			n := maxChunk - 20 + r.IntN(40)
			if r.IntN(3) == 0 {
				n = 2*maxChunk + r.IntN(100)
			}
			for i := 0; i < n; i += 1 + r.IntN(64) {
				b = append(b, sessionKey...)
				b = append(b, ids[r.IntN(len(ids))]...)
				b = append(b, '"')
				filler(r.IntN(40))
			}
		}
		filler(r.IntN(300))
		// The id at a varied distance from the line's end (the tail
		// window's edges).
		b = append(b, sessionKey...)
		b = append(b, ids[r.IntN(len(ids))]...)
		if r.IntN(8) > 0 {
			b = append(b, '"')
		}
		filler([]int{0, 1, 2, 20, 50, 60, 61, 62, 63, 64, 65, 80, 127, 128, 129, 200}[r.IntN(16)])
		if r.IntN(10) == 0 {
			b = append(b, '\r')
		}
		b = append(b, '\n')
	}
	if last {
		filler(1 + r.IntN(100))
	}
	return b
}

// randomReader returns reads of random sizes (1 byte to 3 MiB), so that
// keys, ids and lines fall across the cutter's reads.
type randomReader struct {
	r   io.Reader
	rnd *rand.Rand
}

func (r *randomReader) Read(p []byte) (int, error) {
	n := 1 + r.rnd.IntN(len(p))
	if r.rnd.IntN(2) == 0 {
		n = 1 + r.rnd.IntN(min(len(p), 200))
	}
	return r.r.Read(p[:n])
}

// The cutter cuts, names and stores as the plain reference does, chunk
// for chunk and byte for byte, on adversarial files read whole, in
// random reads and a byte at a time, with and without normalization,
// with and without a trailing line: its marks (keys and NULs noted as
// lines are found) are what searching each chunk again finds.
func TestCutAsReference(t *testing.T) {
	eachScanner(t, testCutAsReference)
}

// eachScanner runs test with scanLine's vector loop (where there is
// one) and with bytes.IndexByte.
func eachScanner(t *testing.T, test func(t *testing.T)) {
	vector := scanBlocks
	t.Cleanup(func() { scanBlocks = vector })
	if vector != nil {
		t.Run("vector", test)
	}
	scanBlocks = nil
	t.Run("bytes", test)
	scanBlocks = vector
}

func testCutAsReference(t *testing.T) {
	sizes := []int{0, 1, 5000, 300 << 10}
	if testenv.Long() {
		sizes = append(sizes, 3<<20)
	}
	c := &cutter{}
	for seed, size := range sizes {
		for _, last := range []bool{false, true} {
			rnd := rand.New(rand.NewPCG(uint64(seed), 31))
			data := adversarialLines(rnd, size, last)
			for _, jsonl := range []bool{true, false} {
				for _, complete := range []bool{true, false} {
					cutAgainstRef(t, c, data, bytes.NewReader(data), jsonl, complete)
					cutAgainstRef(t, c, data, &randomReader{bytes.NewReader(data), rnd}, jsonl, complete)
					if size <= 300<<10 {
						cutAgainstRef(t, c, data, iotest.OneByteReader(bytes.NewReader(data)), jsonl, complete)
					}
				}
			}
		}
	}
}

// Transcript lines (a session key in most lines' tails) cut as the
// reference does.
func TestCutTranscriptAsReference(t *testing.T) {
	eachScanner(t, testCutTranscriptAsReference)
}

func testCutTranscriptAsReference(t *testing.T) {
	data := []byte(transcript(sidA, 0, 3000, 450) + transcript(sidB, 3000, 3500, 4000))
	rnd := rand.New(rand.NewPCG(1, 2))
	c := &cutter{}
	cutAgainstRef(t, c, data, bytes.NewReader(data), true, true)
	cutAgainstRef(t, c, data, &randomReader{bytes.NewReader(data), rnd}, true, true)
}

// A file of NULs and keys, more marks than the cutter keeps: the rest
// of the cut searches as before, with the same chunks.
func TestCutManyMarksAsReference(t *testing.T) {
	var b []byte
	for len(b) < 3<<20 {
		b = append(b, 0, 'x')
		if len(b)%1000 == 0 {
			b = append(b, line(sidA, len(b), 10)...)
		}
	}
	c := &cutter{}
	cutAgainstRef(t, c, b, bytes.NewReader(b), true, true)
	if !c.marksLost {
		t.Error("the cutter kept every mark: the test does not reach its fallback")
	}
}

func FuzzCutAsReference(f *testing.F) {
	f.Add([]byte(line(sidA, 1, 30)+line(sidB, 2, 200)), uint8(0))
	f.Add([]byte(sessionKey+sessionKey+sidA+"\"\n\x00"+sessionKey+"x\""), uint8(1))
	f.Add([]byte("I\nII\n"+sessionKey), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		var r io.Reader = bytes.NewReader(data)
		if mode&1 != 0 {
			r = iotest.OneByteReader(r)
		}
		cutAgainstRef(t, &cutter{}, data, r, mode&2 == 0, mode&4 == 0)
	})
}

// Every line's tail and length as stored, from the marks noted as the
// line was found (boundaryTailAt), are refTail's: a NUL in the tail
// window with a key, keys across the window's start, overlapping keys.
func TestBoundaryTailAtAsReference(t *testing.T) {
	eachScanner(t, testBoundaryTailAtAsReference)
}

func testBoundaryTailAtAsReference(t *testing.T) {
	for seed := range uint64(20) {
		rnd := rand.New(rand.NewPCG(seed, 5))
		var data []byte
		for len(data) < 100<<10 {
			n := len(data)
			data = append(data, adversarialLines(rnd, 1, false)...)
			// Some lines with a NUL at every place of their end.
			if k := len(data) - n; rnd.IntN(3) == 0 && k > 1 {
				data[len(data)-2-rnd.IntN(min(k-1, tailWindow+20))] = 0
			}
		}
		for _, jsonl := range []bool{true, false} {
			c := &cutter{buf: data, end: len(data), norm: normalizer{enabled: jsonl}}
			for from := 0; from < len(data); {
				e := c.scanLine(min(len(data), from+maxChunk))
				if e < 0 {
					break
				}
				line := data[from : e+1]
				tail, n := c.boundaryTailAt(from, e+1, &c.tail)
				if wt, wn := refTail(line, jsonl); string(tail) != wt || n != wn {
					t.Fatalf("line %q: tail %q, %d bytes; the reference: %q, %d", clip(string(line)), tail, n, wt, wn)
				}
				from = e + 1
			}
		}
	}
}

// A line that ends a chunk, then a line with a NUL: the NUL, noted when
// the line was found beside the first, makes the second chunk raw.
func TestCutNULAfterAChunkAsReference(t *testing.T) {
	var first []byte
	for i := 0; first == nil || !refEnds(first, true); i++ {
		first = []byte(line(sidB, i, 100))
	}
	data := append(first, "a\x00b "+line(sidA, 1, 40)+line(sidA, 2, 40)...)
	cutAgainstRef(t, &cutter{}, data, bytes.NewReader(data), true, true)
	if got := refCut(data, true, true); len(got) < 2 || !got[1].raw {
		t.Fatalf("the reference's chunks: %+v", got)
	}
}

// refIDEnd is idEnd written plainly: the length of the id (bytes of
// [0-9a-zA-Z_-], at most maxIDLen) before a closing quote, or -1.
func refIDEnd(data []byte) int {
	j := 0
	for j < len(data) && j <= maxIDLen && strings.IndexByte("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_", data[j]) >= 0 {
		j++
	}
	if j == 0 || j > maxIDLen || j == len(data) || data[j] != '"' {
		return -1
	}
	return j
}

func FuzzIDEndAsReference(f *testing.F) {
	for _, s := range []string{"", `"`, sidA + `"`, sidA, strings.Repeat("a", maxIDLen) + `"`, strings.Repeat("a", maxIDLen+1) + `"`, "a b\"", "\x00\"", "é\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := idEnd(data), refIDEnd(data); got != want {
			t.Fatalf("idEnd(%q) = %d, want %d", data, got, want)
		}
	})
}

// Deciding whether a line ends a chunk allocates nothing, its tail's
// session id taken out or not: on the old code the normalizer's runs of
// ids were a new slice on every line whose tail names a session (nearly
// every line of a transcript written by a recent Claude Code).
// (A new id is a new string: the lines name one.)
func TestBoundaryAllocatesNothing(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector allocates")
	}
	c := &cutter{norm: normalizer{enabled: true}}
	a := []byte(`{"type":"user","uuid":"u-1","cwd":"/w","sessionId":"` + sidA + `","version":"2.1.330","gitBranch":"main"}` + "\n")
	b := []byte(`{"type":"user","uuid":"u-2","cwd":"/w","sessionId":"` + sidA + `","version":"2.1.330","gitBranch":"main"}` + "\n")
	c.boundaries(a, b)
	if allocs := testing.AllocsPerRun(50, func() { c.boundaries(a, b); c.isBoundary(a) }); allocs != 0 {
		t.Errorf("%.1f allocations to decide three lines, want 0", allocs)
	}
}

// A cut searches its bytes for session keys once, as it finds the lines
// (scanLine): neither each line's tail nor each chunk is searched again
// (on the old code, three searches a line and one of every chunk's
// bytes).
func TestCutSearchesForKeysOnce(t *testing.T) {
	data := []byte(transcript(sidA, 0, 2000, 450))
	searched := 0
	keySearchHook = func() { searched++ }
	t.Cleanup(func() { keySearchHook = nil })
	c := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, prefixAt: -1,
		store: func(key, []byte) (bool, error) { return true, nil }}
	res, err := c.cut(bytes.NewReader(data), 0, int64(len(data)), true)
	if err != nil || len(res.chunks) < 3 {
		t.Fatalf("%d chunks, %v", len(res.chunks), err)
	}
	if searched != 0 {
		t.Errorf("%d searches for session keys after the lines were found, cutting %d bytes", searched, len(data))
	}
}

// endsQuad decides four lines as endsChunk decides each: tails of every
// length up to tailBytes, of equal and unequal lengths.
func TestEndsQuadAsEndsChunk(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	ends := 0
	for range 20000 {
		var tails [aheadLines][]byte
		var n [aheadLines]int
		for i := range tails {
			tails[i] = make([]byte, r.IntN(tailBytes+1))
			for j := range tails[i] {
				tails[i][j] = byte(r.Uint32())
			}
			n[i] = len(tails[i]) + r.IntN(1<<20)
		}
		got := endsQuad(&tails, &n)
		for i := range tails {
			if want := endsChunk(fnvFrom(fnvOffset, tails[i]), n[i]); got[i] != want {
				t.Fatalf("line %d of %q (lengths %v): endsQuad %v, endsChunk %v", i, tails, n, got[i], want)
			}
			if got[i] {
				ends++
			}
		}
	}
	if ends == 0 {
		t.Error("no line ended a chunk: the test decides nothing")
	}
}

// scanBlocks (the vector loop, where there is one) finds the first
// 32-byte block holding a newline, an 'I' or a NUL and marks exactly
// those bytes of it, from any start in the data.
func FuzzScanBlocks(f *testing.F) {
	f.Add([]byte("abc\nI\x00"+strings.Repeat("x", 100)+"I"), uint8(0))
	f.Add([]byte(strings.Repeat("y", 64)+"\n"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, off uint8) {
		if scanBlocks == nil {
			t.Skip("no vector loop here")
		}
		o := int(off) % (len(data) + 1)
		n := (len(data) - o) / 32
		if n == 0 {
			return
		}
		k, m := scanBlocks(&data[o], n)
		wantK, wantM := n, uint64(0)
		for b := range n {
			for j := range 32 {
				if c := data[o+32*b+j]; c == '\n' || c == 'I' || c == 0 {
					wantM |= 1 << j
				}
			}
			if wantM != 0 {
				wantK = b
				break
			}
		}
		if k != wantK || m != wantM {
			t.Fatalf("scanBlocks of %d blocks from %d: block %d, mask %#x; want %d, %#x", n, o, k, m, wantK, wantM)
		}
	})
}

// A file that is not JSON Lines (a file-history backup may be binary)
// is cut at its newlines alone: no stop at its NULs and 'I's, no marks
// noted (on a file of NULs they would be more than maxMarks).
func TestCutNotesNoMarksUnlessWanted(t *testing.T) {
	many := bytes.Repeat([]byte("\x00\x00I"), maxMarks)
	c := &cutter{}
	cutAgainstRef(t, c, many, bytes.NewReader(many), false, false)
	if c.marksLost {
		t.Error("a file not JSON Lines: more marks noted than maxMarks")
	}
	c = &cutter{}
	cutAgainstRef(t, c, many, bytes.NewReader(many), true, false)
	if !c.marksLost {
		t.Error("a JSON Lines file of NULs: its marks kept, the test does not reach maxMarks")
	}
}

// scanBlocks finds one byte to stop at in every place of 1 to 7 blocks
// (the first or second of a pair, the last odd block), two in a block,
// and none.
func TestScanBlocksEveryPlace(t *testing.T) {
	if scanBlocks == nil {
		t.Skip("no vector loop here")
	}
	for n := 1; n <= 7; n++ {
		data := bytes.Repeat([]byte("x"), 32*n+1)
		if k, m := scanBlocks(&data[0], n); k != n || m != 0 {
			t.Fatalf("%d blocks of x: block %d, mask %#x", n, k, m)
		}
		for pos := range 32 * n {
			for _, c := range []byte{'\n', 'I', 0} {
				data[pos] = c
				data[32*(pos/32)+31-pos%32] = 'I'
				want := uint64(1)<<(pos%32) | 1<<(31-pos%32)
				if k, m := scanBlocks(&data[0], n); k != pos/32 || m != want {
					t.Fatalf("%d blocks, %q at %d: block %d, mask %#x; want %d, %#x", n, c, pos, k, m, pos/32, want)
				}
				data[pos], data[32*(pos/32)+31-pos%32] = 'x', 'x'
			}
		}
	}
}
