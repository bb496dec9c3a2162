package vault

import (
	"bytes"
	"strings"
	"testing"
)

// indexSessionKey finds what bytes.Index finds, on seeds of every
// shape: the key at the start, the end, cut short, its 'I' alone, a
// near miss before the real one.
func FuzzIndexSessionKey(f *testing.F) {
	for _, s := range []string{
		"", "I", sessionKey, sessionKey[:len(sessionKey)-1], "xx" + sessionKey + "abc",
		`"sessionIdx":"` + sessionKey, `I I I "sessionId": "` + sessionKey,
		strings.Repeat(`{"a":"b"}`, 20) + sessionKey, `"sessionI"` + sessionKey[8:],
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := indexSessionKey(data), bytes.Index(data, []byte(sessionKey)); got != want {
			t.Fatalf("indexSessionKey(%q) = %d, bytes.Index = %d", data, got, want)
		}
	})
}

// forward and back are inverse on lines naming ids, runs of one id,
// keys whose value is not an id, and text with many 'I's.
func TestForwardBackRoundTrip(t *testing.T) {
	n := normalizer{enabled: true}
	for _, data := range []string{
		line(sidA, 1, 50) + line(sidA, 2, 50) + line(sidB, 3, 50),
		`{"sessionId":"` + strings.Repeat("a", maxIDLen+1) + `"}` + "\n",
		`{"sessionId":""}` + "\n" + `{"sessionId":"x y"}` + "\n",
		strings.Repeat("I said I would. ", 40) + line(sidB, 4, 10),
	} {
		stored, raw, ids := n.forward([]byte(data))
		stored = bytes.Clone(stored)
		if raw {
			t.Fatalf("%q stored raw", data)
		}
		back, err := (&normalizer{enabled: true}).back(stored, raw, ids)
		if err != nil || string(back) != data {
			t.Errorf("round trip of %q: %q, %v", data, back, err)
		}
		if want := strings.Count(data, sessionKey); strings.Count(string(stored), sessionKey+string(marker)) > want {
			t.Errorf("%q: more markers than keys", data)
		}
	}
}

func BenchmarkForward(b *testing.B) {
	var data []byte
	for i := 0; len(data) < 128<<10; i++ {
		data = append(data, line(sidA, i, 900)...)
	}
	n := normalizer{enabled: true}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n.forward(data)
	}
}

// A normalizer matches the session id it took out last by one
// comparison (normalizer.idEnd): it finds what idEnd finds, after any
// id, on the last id followed by more id bytes, by no quote, cut short,
// and on another id.
func FuzzNormalizerIdEnd(f *testing.F) {
	for _, s := range [][2]string{
		{sidA, sidA + `"`}, {sidA, sidA + `x"`}, {sidA, sidA}, {sidA, sidA[:10]},
		{sidA, sidB + `"`}, {"a", `a"`}, {"a", `ab"`}, {sidA, sidA + `-"`},
		{sidA, sidA + " \""},
	} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, last string, data []byte) {
		if j := idEnd([]byte(last + `"`)); j != len(last) {
			return // last is always an id idEnd found
		}
		n := normalizer{last: last}
		if got, want := n.idEnd(data), idEnd(data); got != want {
			t.Fatalf("after %q, idEnd(%q) = %d, want %d", last, data, got, want)
		}
	})
}

// A chunk's session ids, when they are the id the normalizer took out
// last, are neither checked byte by byte nor copied into a new string:
// the second chunk of a file allocates only its list of runs (on the old
// code, its id's string too).
func TestForwardKeepsTheLastID(t *testing.T) {
	n := normalizer{enabled: true}
	chunk := []byte(line(sidA, 1, 50) + line(sidA, 2, 50) + line(sidA, 3, 50))
	_, _, first := n.forward(chunk)
	var ids []IDRun
	allocs := testing.AllocsPerRun(20, func() { _, _, ids = n.forward(chunk) })
	if allocs > 1 {
		t.Errorf("forward of a chunk naming the last id: %.0f allocations, want 1 (its runs)", allocs)
	}
	if len(ids) != 1 || ids[0] != (IDRun{ID: sidA, N: 3}) || first[0] != ids[0] {
		t.Errorf("runs %v, first chunk's %v", ids, first)
	}
}
