package vault

import (
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
)

// streamWriter is a packWriter of an empty vault written through ffs,
// and the chunks to give it: n chunks of 64 KiB that s2 cannot shrink
// (random bytes), a frame of 256 KiB every four.
func streamWriter(t *testing.T, ffs *faultfs.FS, n int) (*Vault, *packWriter, [][]byte) {
	t.Helper()
	smallFrames(t)
	v := openVault(t, ffs)
	ix, err := v.loadIndex()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 3))
	var chunks [][]byte
	for range n {
		b := make([]byte, 64<<10)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		chunks = append(chunks, b)
	}
	return v, newPackWriter(v, ix, func() time.Time { return t0 }), chunks
}

// packTempWrites is an OnCall that closes wrote at the first write to a
// pack's temporary file.
func packTempWrites(wrote chan struct{}) func(faultfs.Step, string) {
	var once sync.Once
	return func(step faultfs.Step, p string) {
		if step == faultfs.StepWrite && filepath.Base(filepath.Dir(p)) == packsDir && strings.Contains(filepath.Base(p), ".pack") {
			once.Do(func() { close(wrote) })
		}
	}
}

// addAndWaitForWrite adds the chunks to p and waits until wrote says a
// pack's temporary file was written to, before any flush (the guard
// turns the old code's wait for the flush into a failure).
func addAndWaitForWrite(t *testing.T, p *packWriter, chunks [][]byte, wrote chan struct{}) {
	t.Helper()
	for _, c := range chunks {
		if _, err := p.add(sha256.Sum256(c), c); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-wrote:
	case <-time.After(deadlockGuard):
		t.Fatalf("nothing of the pack written before its flush")
	}
}

// A pack is written to its temporary file as its frames are compressed,
// not once it is sealed: here its bytes are written before the flush
// that seals the sync's last pack is called (on the old code nothing
// was, and the guard gave up). The pack then holds every chunk and the
// vault verifies.
func TestPackWrittenWhileItFills(t *testing.T) {
	wrote := make(chan struct{})
	v, p, chunks := streamWriter(t, &faultfs.FS{OnCall: packTempWrites(wrote)}, 12)
	defer p.close()
	addAndWaitForWrite(t, p, chunks, wrote)
	if err := p.flush(); err != nil {
		t.Fatal(err)
	}
	if p.chunks != len(chunks) {
		t.Errorf("%d chunks in packs, want %d", p.chunks, len(chunks))
	}
	rd := newChunkReader(v, p.ix)
	defer rd.close()
	for _, c := range chunks {
		got, err := rd.read(sha256.Sum256(c))
		if err != nil || string(got) != string(c) {
			t.Fatalf("chunk read back: %d bytes, %v", len(got), err)
		}
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A pack being written when its sync stops (an error: the writer closed
// without a flush) is dropped: its temporary file is removed, and no
// pack or index is left.
func TestPackStreamDroppedOnClose(t *testing.T) {
	wrote := make(chan struct{})
	v, p, chunks := streamWriter(t, &faultfs.FS{OnCall: packTempWrites(wrote)}, 8)
	addAndWaitForWrite(t, p, chunks, wrote)
	p.close()
	left, err := os.ReadDir(filepath.Join(v.Dir, packsDir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in packs/: %s", e.Name())
	}
}

// A pack whose temporary file fails to be written fails the flush, and
// leaves no pack, index or temporary file.
func TestPackStreamWriteFails(t *testing.T) {
	v, p, chunks := streamWriter(t, &faultfs.FS{Step: faultfs.StepWrite, Nth: 2, Err: syscall.ENOSPC}, 12)
	defer p.close()
	for _, c := range chunks {
		if _, err := p.add(sha256.Sum256(c), c); err != nil {
			break
		}
	}
	if err := p.flush(); err == nil {
		t.Fatalf("flush after a failed write: no error")
	}
	left, _ := os.ReadDir(filepath.Join(v.Dir, packsDir))
	for _, e := range left {
		t.Errorf("left in packs/: %s", e.Name())
	}
}
