package jsonscan

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// A Finder answers as bytes.Contains: on lines made to hold the string,
// parts of it, its rare part without the rest, and at both ends.
func TestFinderIsContains(t *testing.T) {
	for _, s := range []string{"compact_boundary", `"agentId":"`, "memory/", `"toolUseResult"`, "x", "aa", "Id"} {
		f := NewFinder(s)
		cut := len(f.head)
		pieces := []string{s, s[:len(s)/2], s[len(s)/2:], s[cut:], s[:cut], s[1:], s[:len(s)-1], "compact", "_boundary", `"`, "\n"}
		r := rand.New(rand.NewPCG(1, uint64(len(s))))
		for range 3000 {
			var b bytes.Buffer
			for range r.IntN(6) {
				b.WriteString(pieces[r.IntN(len(pieces))])
				if r.IntN(3) == 0 {
					b.WriteString("abc")
				}
			}
			d := b.Bytes()
			if got, want := f.In(d), bytes.Contains(d, []byte(s)); got != want {
				t.Fatalf("%q in %q: %v, bytes.Contains: %v", s, d, got, want)
			}
		}
	}
}

// The rarest byte leads the search: '_' of compact_boundary, '/' of
// memory/ (so a line is passed over by memchr of a rare byte).
func TestFinderRarestByte(t *testing.T) {
	for s, head := range map[string]string{"compact_boundary": "compact", "memory/": "memory", `"agentId":"`: `"agent`} {
		if f := NewFinder(s); string(f.head) != head {
			t.Errorf("%q: searched from %q on, want %q", s, f.tail, s[len(head):])
		}
	}
}

// BenchmarkFinder against bytes.Contains on a transcript-like line.
func BenchmarkFinder(b *testing.B) {
	line := bytes.Repeat([]byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"the cache control and compact code"}],"usage":{"input_tokens":12}},"cwd":"/home/me/proj"}`), 20)
	f := NewFinder("compact_boundary")
	b.Run("finder", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if f.In(line) {
				b.Fatal("found")
			}
		}
	})
	b.Run("contains", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if bytes.Contains(line, []byte("compact_boundary")) {
				b.Fatal("found")
			}
		}
	})
}
