package vault

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minlz"
)

// A first sync writes a transcript's chunks, session ids taken out,
// straight into the frame they are stored in: no new chunk whose ids
// were taken out is copied there afterwards (before, each was written
// into the normalizer's buffer, then copied into the frame: a second
// copy of most of a first sync's bytes). The chunks of the home's other
// files are copied, once, and the vault verifies.
func TestNormalizedChunksWrittenInPlace(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	home := testHome(t, 300)
	relatedSessions(t, home, 4)
	var mu sync.Mutex
	var inPlace, copied, copiedIDs int
	fillHook = func(data []byte, in bool) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case in:
			inPlace++
		case bytes.Contains(data, []byte(sessionKey+string(marker))):
			copiedIDs++
		default:
			copied++
		}
	}
	t.Cleanup(func() { fillHook = nil })
	v := openVault(t, nil)
	rep := syncHome(t, v, home, t0.Add(2*time.Hour))
	t.Logf("%d chunks: %d in place, %d copied (%d of them with ids out)", rep.Chunks, inPlace, copied+copiedIDs, copiedIDs)
	if inPlace == 0 || copiedIDs > 0 || inPlace+copied != rep.Chunks {
		t.Errorf("%d chunks stored: %d written in place, %d with ids out copied, %d others copied; want every chunk with ids out in place", rep.Chunks, inPlace, copiedIDs, copied)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A sync worker's partly filled frame is parked when the worker ends,
// and the next one parked joins it when both fit in one frame's room
// (the chunks' places in the frame moved by the first's length);
// otherwise the fuller goes to the compressors and the other waits. So
// a sync of many workers ends with one partly filled frame, not one a
// worker. Every chunk reads back.
func TestParkedFramesJoin(t *testing.T) {
	v, ix, pw := framedPackWriter(t, 512<<10)
	chunk := func(i, n int) ([]byte, key) {
		b := bytes.Repeat([]byte{byte('a' + i)}, n)
		return b, v.hash.sum(b)
	}
	var keys []key
	var datas [][]byte
	add := func(f *frameFill, i, n int) {
		t.Helper()
		d, k := chunk(i, n)
		if fresh, err := pw.addFilled(f, k, d); err != nil || !fresh {
			t.Fatalf("chunk %d: %v %v", i, fresh, err)
		}
		keys, datas = append(keys, k), append(datas, d)
	}
	f1, f2 := pw.fill(), pw.fill()
	add(f1, 0, 10<<10)
	add(f2, 1, 20<<10)
	pw.park(f1)
	pw.park(f2)
	if len(pw.parked) != 1 || len(pw.parked[0].members) != 2 || len(pw.parked[0].buf) != 30<<10 {
		t.Fatalf("two small frames parked: %d parked, want one of both chunks", len(pw.parked))
	}
	// The fuller frame (f2's) is kept, f1's chunk appended to it.
	if m := pw.parked[0].members; m[0].k != keys[1] || m[0].at != 0 || m[1].k != keys[0] || m[1].at != 20<<10 {
		t.Errorf("the joined frame's chunks: %+v", m)
	}
	// Two of 500 KiB do not fit in one frame's room: the fuller is sent.
	f3 := pw.fill() // the parked one, taken up again
	add(f3, 2, 470<<10)
	f4 := pw.fill()
	add(f4, 3, 400<<10)
	pw.park(f3)
	pw.park(f4)
	if len(pw.parked) != 1 || len(pw.parked[0].members) != 1 {
		t.Fatalf("after two large frames parked: %d parked, want the smaller alone", len(pw.parked))
	}
	if err := pw.flush(); err != nil {
		t.Fatal(err)
	}
	fr := map[frameID]bool{}
	for _, k := range keys {
		l := ix.m[k]
		fr[frameID{l.pack, l.off}] = true
	}
	if len(fr) != 2 {
		t.Errorf("%d chunks in %d frames, want 2", len(keys), len(fr))
	}
	readsBack(t, v, ix, keys, datas)
}

// A frame is compressed straight into the buffer the pack's file is
// written from (a part with room for the frame's bound), not into the
// worker's buffer and copied (a copy of every compressed byte, and parts
// allocated to the compressed sizes): every part given back once written
// has the room of a whole frame's bound, and the chunks read back.
func TestFramesCompressedIntoTheirParts(t *testing.T) {
	v, ix, pw := framedPackWriter(t, 64<<10)
	var keys []key
	var datas [][]byte
	for i := range 40 {
		d := []byte(strings.Repeat(transcript(sidA, i, i+1, 200), 100)[:16<<10])
		k := v.hash.sum(d)
		if fresh, err := pw.add(k, d); err != nil || !fresh {
			t.Fatalf("chunk %d: %v %v", i, fresh, err)
		}
		keys, datas = append(keys, k), append(datas, d)
	}
	if err := pw.flush(); err != nil {
		t.Fatal(err)
	}
	pw.partBufs.mu.Lock()
	parts := slices.Clone(pw.partBufs.bufs)
	pw.partBufs.mu.Unlock()
	bound := minlz.MaxEncodedLen(frameTarget)
	if len(parts) == 0 {
		t.Fatal("no part given back")
	}
	for _, b := range parts {
		if cap(b) < bound {
			t.Errorf("a part of room %d, under a frame's bound %d: the frame was compressed elsewhere and copied", cap(b), bound)
		}
	}
	readsBack(t, v, ix, keys, datas)
}

// framedPackWriter is a pack writer of a new vault whose frames close at
// target bytes (until the test ends), closed when the test ends.
func framedPackWriter(t *testing.T, target int) (*Vault, *index, *packWriter) {
	t.Helper()
	old := frameTarget
	frameTarget = target
	t.Cleanup(func() { frameTarget = old })
	v := openVault(t, nil)
	if err := v.ensure(); err != nil {
		t.Fatal(err)
	}
	ix := &index{load: v.loadIndex}
	pw := newPackWriter(v, ix, time.Now)
	t.Cleanup(pw.close)
	return v, ix, pw
}

// readsBack checks that every chunk keys names reads back as datas has it.
func readsBack(t *testing.T, v *Vault, ix *index, keys []key, datas [][]byte) {
	t.Helper()
	r := newChunkReader(v, ix)
	defer r.close()
	for i, k := range keys {
		if got, err := r.read(k); err != nil || !bytes.Equal(got, datas[i]) {
			t.Fatalf("chunk %d read back: %v", i, err)
		}
	}
}

// A chunk copied into a worker's frame (not written in its tail) that
// does not fit in the frame's room starts the next frame: the full one
// goes to the compressors as it is, no frame's buffer grows (before,
// append moved the frame into a buffer a quarter larger). Every chunk
// reads back.
func TestCopiedChunkPastTheRoomStartsTheNextFrame(t *testing.T) {
	const target = 512 << 10
	v, ix, pw := framedPackWriter(t, target)
	room := pw.frameTarget() + softMax
	var keys []key
	var datas [][]byte
	f := pw.fill()
	for i, n := range []int{400 << 10, 400 << 10, 50 << 10} {
		d := bytes.Repeat([]byte{byte('a' + i)}, n)
		k := v.hash.sum(d)
		if fresh, err := pw.addFilled(f, k, d); err != nil || !fresh {
			t.Fatalf("chunk %d: %v %v", i, fresh, err)
		}
		keys, datas = append(keys, k), append(datas, d)
		if cap(f.buf) > room {
			t.Fatalf("after chunk %d the frame's buffer has room %d, over a frame's %d: it grew", i, cap(f.buf), room)
		}
	}
	if len(f.members) != 2 {
		t.Errorf("the frame being filled holds %d chunks, want the last two", len(f.members))
	}
	pw.park(f)
	if err := pw.flush(); err != nil {
		t.Fatal(err)
	}
	readsBack(t, v, ix, keys, datas)
}
