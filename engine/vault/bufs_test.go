package vault

import (
	"encoding/hex"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
)

// A pack writer reuses its frames' buffers and its compressed frames'
// through a sync (before: a sync.Pool's, emptied at every collection,
// and a copy of each compressed frame, bytes.Clone): storing 16 MB that
// s2 does not shrink, in packs of 256 KiB, allocates well under half the
// bytes it writes (before: more than all of them, the copies alone).
// The chunks read back as they were stored.
func TestPackWriterReusesItsBuffers(t *testing.T) {
	old, oldF := packLimit, frameTarget
	packLimit, frameTarget = 256<<10, 16<<10
	t.Cleanup(func() { packLimit, frameTarget = old, oldF })
	v := openVault(t, faultfs.NoSync{})
	if err := v.ensure(); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(5, 5))
	const chunks, size = 2048, 8 << 10
	data := make([][]byte, chunks)
	keys := make([]key, chunks)
	for i := range data {
		raw := make([]byte, size/2)
		for j := range raw {
			raw[j] = byte(rnd.Uint32())
		}
		data[i] = hex.AppendEncode(nil, raw)
		keys[i] = v.hash.sum(data[i])
	}
	ix := &index{load: v.loadIndex}
	pw := newPackWriter(v, ix, time.Now)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range data {
		if fresh, err := pw.add(keys[i], data[i]); err != nil || !fresh {
			t.Fatalf("add %d: %v %v", i, fresh, err)
		}
	}
	if err := pw.flush(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	pw.close()
	alloc := after.TotalAlloc - before.TotalAlloc
	if pw.written < chunks*size {
		t.Fatalf("%d bytes written for %d: the data shrank", pw.written, chunks*size)
	}
	if alloc > uint64(pw.written)/2 && !raceBuild {
		t.Errorf("%d bytes allocated to write %d (want under half)", alloc, pw.written)
	} else {
		t.Logf("%d bytes allocated to write %d", alloc, pw.written)
	}
	r := newChunkReader(v, ix)
	defer r.close()
	for i, k := range keys {
		got, err := r.read(k)
		if err != nil || string(got) != string(data[i]) {
			t.Fatalf("chunk %d read back: %v", i, err)
		}
	}
}
