package vault

import (
	"bytes"
	"crypto/sha256"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"testing"
	"testing/fstest"
	"time"
)

// lostAfterSweep syncs home into a new vault, sweeps session A and opens
// the vault's view of what the home lost (closed when the test ends).
func lostAfterSweep(t *testing.T, home string) *LostFS {
	t.Helper()
	v := openVault(t, nil)
	syncHome(t, v, home, t0.Add(time.Hour))
	sweep(t, home)
	l, err := v.Lost(homeOf(t, home).FS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// After a sweep, the lost view holds session A's files, byte for byte
// as they were, at their home paths, and nothing the home still has;
// it passes the standard library's file system checks.
func TestLostViewHoldsWhatTheSweepDeleted(t *testing.T) {
	home := testHome(t, 60)
	before := snapshot(t, home, ofSessionA)
	l := lostAfterSweep(t, home)
	if got := l.Sessions(); len(got) != 1 || got[0] != sidA || !l.Has(sidA) || l.Has(sidB) {
		t.Fatalf("lost sessions %v, want only A (B is still in the home)", got)
	}
	want := []string{
		"projects/" + proj + "/" + sidA + ".jsonl",
		"projects/" + proj + "/" + sidA + "/subagents/agent-a1.jsonl",
		"projects/" + proj + "/" + sidA + "/subagents/agent-a1.meta.json",
		"projects/" + proj + "/" + sidA + "/tool-results/abc.txt",
	}
	for _, p := range want {
		data, err := fs.ReadFile(l, p)
		if err != nil || string(data) != before[p].data {
			t.Errorf("%s: %v, %d bytes, want %d bytes as before the sweep", p, err, len(data), len(before[p].data))
		}
		st, err := fs.Stat(l, p)
		if err != nil || !st.ModTime().Equal(before[p].mtime) {
			t.Errorf("%s: stat %v %v, want mtime %v", p, st, err, before[p].mtime)
		}
	}
	if _, err := fs.Stat(l, "projects/"+proj+"/"+sidB+".jsonl"); err == nil {
		t.Error("the view holds B's transcript, which the home still has")
	}
	if err := fstest.TestFS(l, want...); err != nil {
		t.Error(err)
	}
}

// A large vault-only file is read a chunk at a time: reading all of it
// allocates a small part of its size (the whole file was rebuilt in
// memory on open before), and gives its bytes exactly, read in order,
// at offsets and after a seek.
func TestLostFileStreams(t *testing.T) {
	smallFrames(t) // the reader keeps framesKept frames, a fixed cost
	home := filepath.Join(t.TempDir(), "home")
	rel := "projects/" + proj + "/" + sidA + ".jsonl"
	big := transcript(sidA, 0, 12000, 700) // about 9 MB
	write(t, home, rel, big, t0)
	l := lostAfterSweep(t, home)
	h := sha256.New()
	buf := make([]byte, 32<<10)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := l.Open(rel)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := io.CopyBuffer(h, struct{ io.Reader }{f}, buf)
	runtime.ReadMemStats(&after)
	if err != nil || n != int64(len(big)) {
		t.Fatalf("read %d bytes (%v), want %d", n, err, len(big))
	}
	if sum := sha256.Sum256([]byte(big)); !bytes.Equal(h.Sum(nil), sum[:]) {
		t.Fatal("the bytes read differ from the file's")
	}
	// A few buffers of the largest chunk (the file's, the pack's stored
	// and raw copies, the session ids put back), each at most 1 MiB, and
	// framesKept frames, whatever the file's size: well under a quarter
	// of this one.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(big))/4 {
		t.Errorf("reading %d bytes allocated %d (more than a quarter of the file)", len(big), alloc)
	} else {
		t.Logf("reading %d bytes allocated %d", len(big), alloc)
	}
	// At an offset inside a later chunk, and across chunks.
	ra := f.(io.ReaderAt)
	for _, off := range []int64{0, 1, int64(len(big)) / 2, int64(len(big)) - 5000} {
		p := make([]byte, 200000)
		k, err := ra.ReadAt(p, off)
		want := big[off:min(int(off)+len(p), len(big))]
		if string(p[:k]) != want || (k < len(p)) != (err == io.EOF) {
			t.Errorf("ReadAt %d: %d bytes (%v), want %d", off, k, err, len(want))
		}
	}
	if _, err := f.(io.Seeker).Seek(-10, io.SeekEnd); err != nil {
		t.Fatal(err)
	}
	if tail, err := io.ReadAll(f); err != nil || string(tail) != big[len(big)-10:] {
		t.Errorf("after Seek(-10, end): %q (%v), want %q", tail, err, big[len(big)-10:])
	}
}
