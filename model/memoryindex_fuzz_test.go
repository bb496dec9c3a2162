package model

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func FuzzIndexRoundTrip(f *testing.F) {
	f.Add([]byte("- [A](a.md) — hook\r\n* [B](b.md) -- x\n- name -- y"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix := ParseMemoryIndex(data)
		if got := ix.Bytes(); !bytes.Equal(got, data) {
			t.Fatalf("round trip changed %q into %q", data, got)
		}
		if more := append(slices.Clone(data), 'x'); !ix.BytesEqual(data) || ix.BytesEqual(more) {
			t.Fatalf("BytesEqual of %q: %v; with a byte more: %v", data, ix.BytesEqual(data), ix.BytesEqual(more))
		}
		if len(data) > 0 && ix.BytesEqual(data[:len(data)-1]) {
			t.Fatalf("BytesEqual of %q holds a byte short", data)
		}
		if len(data) > 0 {
			other := slices.Clone(data)
			other[len(other)/2]++
			if ix.BytesEqual(other) {
				t.Fatalf("BytesEqual of %q holds for %q", data, other)
			}
		}
		for i, l := range ix.Lines {
			if l.Number != i+1 || strings.Contains(l.Text, "\n") {
				t.Fatalf("line %d: %+v", i, l)
			}
			if l.EOL == EndNone && i != len(ix.Lines)-1 {
				t.Fatalf("unterminated line %d is not the last", l.Number)
			}
			if e := l.Entry; e != nil {
				if !strings.Contains(l.Text, e.Title) || !strings.Contains(l.Text, e.Target) || !strings.Contains(l.Text, e.Hook) {
					t.Fatalf("entry %+v not taken from %q", e, l.Text)
				}
				if again := ParseIndexEntry(l.Text); *again != *e {
					t.Fatalf("entry parse not deterministic")
				}
			}
		}
	})
}
