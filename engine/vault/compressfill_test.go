package vault

import (
	"strings"
	"testing"
)

// A sync worker compresses the frame it filled itself and fills its next
// frame in the same buffer: here no buffer handed back is kept
// (frameBufs.max 0), and the worker's frame is still the one buffer
// through five frames. Before, a full frame went to the compressors'
// queue and the worker took a new buffer for the next (a sync held a
// frame filling, one queued and one being compressed for each CPU).
// Each frame's chunks are placed in the pack once addFilled returns, and
// every chunk reads back.
func TestWorkerCompressesTheFrameItFilled(t *testing.T) {
	v, ix, pw := framedPackWriter(t, 64<<10)
	pw.frameBufs.max = 0
	f := pw.fill()
	var keys []key
	var datas [][]byte
	var first *byte
	for i := range 20 {
		k, d := addTranscriptChunk(t, v, pw, f, i, 16<<10)
		keys, datas = append(keys, k), append(datas, d)
		if cap(f.buf) == 0 {
			t.Fatalf("after chunk %d the worker has no frame buffer: its frame went elsewhere", i)
		}
		if first == nil {
			first = &f.buf[:1][0]
		} else if &f.buf[:1][0] != first {
			t.Fatalf("after chunk %d the worker fills another buffer than its first", i)
		}
		if len(f.members) == 0 {
			pw.mu.Lock()
			l := pw.pending[k]
			pw.mu.Unlock()
			if l.stored < 0 {
				t.Fatalf("chunk %d filled a frame, not compressed once addFilled returned", i)
			}
		}
	}
	pw.park(f)
	if err := pw.flush(); err != nil {
		t.Fatal(err)
	}
	readsBack(t, v, ix, keys, datas)
}

// addTranscriptChunk stores chunk i, size bytes of a transcript, through
// addFilled into f (through add when f is nil), and returns its key and
// bytes.
func addTranscriptChunk(t *testing.T, v *Vault, pw *packWriter, f *frameFill, i, size int) (key, []byte) {
	t.Helper()
	d := []byte(strings.Repeat(transcript(sidA, i, i+1, 200), 100)[:size])
	k := v.hash.sum(d)
	var fresh bool
	var err error
	if f != nil {
		fresh, err = pw.addFilled(f, k, d)
	} else {
		fresh, err = pw.add(k, d)
	}
	if err != nil || !fresh {
		t.Fatalf("chunk %d: %v %v", i, fresh, err)
	}
	return k, d
}
