package vault

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A compressed frame is written to its pack's file by the goroutine that
// compressed it, before addFilled returns, once the file is created:
// here on one CPU, where the stream's own goroutine runs only when the
// test's yields. Before, the stream's goroutine alone wrote the parts,
// and while both cores were busy a first sync held six to nine
// compressed frames queued (4 MiB of room each). Every chunk reads back.
func TestCompressedFrameWrittenByItsCompressor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	v, ix, pw := framedPackWriter(t, 64<<10)
	queued := func() int {
		pw.mu.Lock()
		s := pw.stream
		pw.mu.Unlock()
		if s == nil {
			return -1
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.queue)
	}
	f := pw.fill()
	var keys []key
	var datas [][]byte
	frames := 0
	for i := range 24 {
		k, d := addTranscriptChunk(t, v, pw, f, i, 16<<10)
		keys, datas = append(keys, k), append(datas, d)
		if len(f.members) > 0 {
			continue
		}
		frames++
		if frames == 1 {
			// The pack's file is created by the stream's goroutine:
			// it runs when the test yields, and writes the first parts.
			// (The first frame's part is given back once written; a
			// few more turns let the goroutine go back to its wait.)
			given := func() int {
				pw.partBufs.mu.Lock()
				defer pw.partBufs.mu.Unlock()
				return len(pw.partBufs.bufs)
			}
			for n := 0; queued() != 0 || given() == 0; n++ {
				if n > 1e6 {
					t.Fatal("the stream's goroutine never wrote the first frame")
				}
				runtime.Gosched()
			}
			for range 100 {
				runtime.Gosched()
			}
			continue
		}
		if n := queued(); n != 0 {
			t.Fatalf("frame %d compressed: %d parts still queued once addFilled returned, want it written", frames, n)
		}
	}
	if frames < 4 {
		t.Fatalf("%d frames filled, want 4 or more", frames)
	}
	pw.park(f)
	if err := pw.flush(); err != nil {
		t.Fatal(err)
	}
	readsBack(t, v, ix, keys, datas)
}

// bufList.get takes the last buffer put back that has the room asked
// for, and keeps the others: a small frame's part put back last does not
// make a full frame's part a new buffer (before, the last one put back
// was taken, found too small and dropped).
func TestBufListTakesABufferWithTheRoom(t *testing.T) {
	l := bufList{max: 4}
	big, small := make([]byte, 0, 1<<20), make([]byte, 0, 1<<10)
	l.put(big)
	l.put(small)
	b := l.get(512<<10, 0)
	if cap(b) != cap(big) || &b[:1][0] != &big[:1][0] {
		t.Fatalf("get of 512 KiB gave a buffer of room %d, want the 1 MiB one put back", cap(b))
	}
	if len(l.bufs) != 1 || cap(l.bufs[0]) != cap(small) {
		t.Fatalf("the list keeps %d buffers after the get, want the small one", len(l.bufs))
	}
	if s := l.get(100, 0); &s[:1][0] != &small[:1][0] {
		t.Error("get of 100 bytes did not take the small buffer")
	}
}

// Once a pack is sealed, the next pack's index lines go into a buffer
// with the room of its lines (one a written pack gave back, lineBufs),
// not one grown from nothing by doubling; so, after a flush, the writer
// holds a buffer with the room of the pack it wrote. The chunks of a
// second pack, written in that buffer, read back.
func TestNextPackLinesHaveTheRoomOfTheLast(t *testing.T) {
	v, ix, pw := framedPackWriter(t, 64<<10)
	var keys []key
	var datas [][]byte
	add := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			k, d := addTranscriptChunk(t, v, pw, nil, i, 4<<10)
			keys, datas = append(keys, k), append(datas, d)
		}
		if err := pw.flush(); err != nil {
			t.Fatal(err)
		}
	}
	add(0, 100)
	idx, err := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.idx"))
	if err != nil || len(idx) != 1 {
		t.Fatalf("%d index files: %v", len(idx), err)
	}
	info, err := os.Stat(idx[0])
	if err != nil {
		t.Fatal(err)
	}
	if pw.lines.Len() != 0 || int64(pw.lines.Cap()) < info.Size() {
		t.Fatalf("after a pack of %d bytes of index lines, the next pack's lines have room %d", info.Size(), pw.lines.Cap())
	}
	add(100, 200)
	readsBack(t, v, ix, keys, datas)
}
