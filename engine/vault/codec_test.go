package vault

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// packHeaders reads the first line of every pack of v.
func packHeaders(t *testing.T, v *Vault) []string {
	t.Helper()
	packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack"))
	var out []string
	for _, p := range packs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.IndexByte(data, '\n')
		out = append(out, string(data[:i+1]))
	}
	return out
}

// useCodec makes new packs c's until the test ends.
func useCodec(t *testing.T, c codec) {
	t.Helper()
	old := writeCodec
	writeCodec = c
	t.Cleanup(func() { writeCodec = old })
}

// A vault written by the first format (flate packs) is read by this
// one: verify passes, a session is restored byte for byte, and the next
// syncs add zstd packs (format 2), s2 frames (format 3) and MinLZ
// frames (format 4) beside the flate ones, the four read together.
func TestFlatePacksStillReadBesideZstd(t *testing.T) {
	home := testHome(t, 300)
	before := snapshot(t, home, ofSessionA)
	v := openVault(t, nil)
	useCodec(t, codecFlate)
	syncHome(t, v, home, t0.Add(2*time.Hour))
	writeCodec = codecZstd
	if h := packHeaders(t, v); len(h) != 1 || h[0] != packHeaderFlate {
		t.Fatalf("the old format's pack headers: %q", h)
	}
	// Each append is stored by the codec of its format.
	for i, c := range []codec{codecZstd, codecS2, codecMinLZ} {
		writeCodec = c
		f, err := os.OpenFile(filepath.Join(home, "projects", proj, sidB+".jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(transcript(sidB, 9000+100*i, 9100+100*i, 300))
		f.Close()
		syncHome(t, v, home, t0.Add(3*time.Hour+time.Duration(i)*time.Minute))
	}
	heads := strings.Join(packHeaders(t, v), "")
	if strings.Count(heads, packHeaderFlate) != 1 || strings.Count(heads, packHeaderZstd) != 1 || strings.Count(heads, packHeaderS2) != 1 || strings.Count(heads, packHeaderMinLZ) != 1 {
		t.Fatalf("after four syncs the packs are %q, want one flate, one zstd, one s2, one MinLZ", heads)
	}
	rep, err := v.Verify()
	if err != nil || !rep.OK() || rep.Packs != 4 {
		t.Fatalf("verify of a vault with both codecs: %+v %v", rep, err)
	}
	sweep(t, home)
	syncHome(t, v, home, t0.Add(4*time.Hour))
	restoreSessionA(t, v, home, before, t0.Add(5*time.Hour))
}

// restoreSessionA restores session A into home (swept) and checks its
// files against before.
func restoreSessionA(t *testing.T, v *Vault, home string, before map[string]fileState, now time.Time) {
	t.Helper()
	if _, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: now}); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, home, ofSessionA)
	for rel, b := range before {
		if after[rel].data != b.data {
			t.Errorf("%s: restored, its bytes differ", rel)
		}
	}
}

// zstd packs are smaller than flate's on the same home (the reason for
// the codec), and hold the same chunks.
func TestZstdPacksSmallerThanFlate(t *testing.T) {
	home := testHome(t, 300)
	sizes := map[codec]int64{}
	chunks := map[codec]int{}
	for _, c := range []codec{codecFlate, codecZstd} {
		v := openVault(t, nil)
		useCodec(t, c)
		syncHome(t, v, home, t0)
		u, err := v.Usage()
		if err != nil {
			t.Fatal(err)
		}
		sizes[c], chunks[c] = u.Stored, u.Chunks
		if h := packHeaders(t, v); len(h) != 1 || h[0] != c.header() {
			t.Fatalf("codec %d wrote packs headed %q", c, h)
		}
	}
	if chunks[codecZstd] != chunks[codecFlate] {
		t.Errorf("zstd stored %d chunks, flate %d: the codec changed the chunking", chunks[codecZstd], chunks[codecFlate])
	}
	if sizes[codecZstd] >= sizes[codecFlate] {
		t.Errorf("zstd packs %d bytes, flate %d: zstd should be smaller", sizes[codecZstd], sizes[codecFlate])
	}
}

// A pack whose first line names no format this memscope knows is an
// error naming the pack and quoting the line, not a garbled read.
func TestUnknownPackFormatIsNamed(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack"))
	data, _ := os.ReadFile(packs[0])
	copy(data, "memscope pack 9 lz77x")
	os.WriteFile(packs[0], data, 0o600)
	rep, err := v.Verify()
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSuffix(filepath.Base(packs[0]), ".pack")
	if rep.OK() || len(rep.Problems) == 0 || !strings.Contains(rep.Problems[0], "pack "+name) || !strings.Contains(rep.Problems[0], `"memscope pack 9 lz77x"`) {
		t.Errorf("verify of a pack of an unknown format: %q", rep.Problems)
	}
}

// A zstd chunk whose frame holds more than its index line says is an
// error, and the decoder never grows past the index's length.
func TestZstdChunkLongerThanItsIndexLine(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	useCodec(t, codecZstd)
	syncHome(t, v, home, t0)
	ix, err := v.loadIndex()
	if err != nil {
		t.Fatal(err)
	}
	for k, l := range ix.m {
		l.raw--
		ix.m[k] = l
		rd := newChunkReader(v, ix)
		_, err := rd.read(k)
		rd.close()
		if err == nil || !strings.Contains(err.Error(), "chunk "+k.String()) {
			t.Fatalf("a chunk one byte longer than its index line: %v", err)
		}
		break
	}
}

// A first sync reads files on several workers at once: copies of one
// transcript synced together store each of its chunks once (the claim
// of a new chunk is one step), the packs hold no chunk twice, every
// copy restores, and the state lists the files in order.
func TestParallelFirstSyncStoresSharedChunksOnce(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	a := transcript(sidA, 0, 600, 400)
	write(t, home, "projects/"+proj+"/"+sidA+".jsonl", a, t0)
	single := openVault(t, nil)
	alone := syncHome(t, single, home, t0)
	for i := range 12 {
		write(t, home, fmt.Sprintf("projects/%s/tool-copy-%02d.txt", proj, i), a, t0)
		write(t, home, fmt.Sprintf("projects/%s/%s/tool-results/copy-%02d.txt", proj, sidA, i), a, t0)
	}
	v := openVault(t, nil)
	rep := syncHome(t, v, home, t0)
	u, err := v.Usage()
	if err != nil {
		t.Fatal(err)
	}
	ix, err := v.loadIndex()
	if err != nil {
		t.Fatal(err)
	}
	lines, _ := indexLines(v)
	if lines != len(ix.m) {
		t.Errorf("the packs' index lines name %d chunks, %d distinct: a chunk stored twice", lines, len(ix.m))
	}
	if rep.Chunks != len(ix.m) || u.Chunks != len(ix.m) {
		t.Errorf("sync reported %d chunks, usage %d, the index holds %d", rep.Chunks, u.Chunks, len(ix.m))
	}
	// The copies are not transcripts (no session id taken out), so they
	// share their chunks with each other, not with the transcript: one
	// copy's bytes more than the transcript alone.
	if limit := alone.BytesNew + int64(len(a)); rep.BytesNew > limit {
		t.Errorf("the transcript and 24 copies stored %d new bytes, want at most %d (the transcript alone %d, one copy %d)", rep.BytesNew, limit, alone.BytesNew, len(a))
	}
	vr, err := v.Verify()
	if err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	sweep(t, home)
	if _, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: t0}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(home, "projects", proj, sidA, "tool-results", "copy-07.txt"))
	if string(got) != a {
		t.Error("a copy restored differs from the original")
	}
}
