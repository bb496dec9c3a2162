package vault

import (
	"bytes"
	"testing"
)

// The frame a sync's workers leave partly filled, which flush sends last,
// is compressed in two halves at once when it holds splitMin bytes or
// more (the half from the first chunk at or past its middle by a
// compressor, the other by flush): two frames of about half its bytes
// each, where there was one, compressed on one core while the other
// waited. A smaller one stays whole. Every chunk reads back.
func TestLastFrameSplitInTwo(t *testing.T) {
	v, ix, pw := framedPackWriter(t, 4<<20)
	var keys []key
	var datas [][]byte
	fill := func(from, n, size int) {
		f := pw.fill()
		for i := from; i < from+n; i++ {
			d := bytes.Repeat([]byte{byte('a' + i%26), byte(i)}, size/2)
			k := v.hash.sum(d)
			if fresh, err := pw.addFilled(f, k, d); err != nil || !fresh {
				t.Fatalf("chunk %d: %v %v", i, fresh, err)
			}
			keys, datas = append(keys, k), append(datas, d)
		}
		pw.park(f)
		if err := pw.flush(); err != nil {
			t.Fatal(err)
		}
	}
	frames := func(ks []key) map[frameID]int {
		fr := map[frameID]int{}
		for _, k := range ks {
			l := ix.m[k]
			fr[frameID{l.pack, l.off}] += int(l.raw)
		}
		return fr
	}
	fill(0, 12, 128<<10) // 1.5 MiB
	fr := frames(keys)
	if len(fr) != 2 {
		t.Fatalf("a last frame of 1.5 MiB stored in %d frames, want 2", len(fr))
	}
	for id, n := range fr {
		if n != 768<<10 {
			t.Errorf("frame at %d holds %d bytes, want half of 1.5 MiB", id.off, n)
		}
	}
	fill(12, 6, 128<<10) // 768 KiB
	if fr := frames(keys[12:]); len(fr) != 1 {
		t.Errorf("a last frame of 768 KiB stored in %d frames, want 1", len(fr))
	}
	readsBack(t, v, ix, keys, datas)
}
