package model

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestProbeProjectPathLongLines: the cwd probe reads in small chunks into
// a buffer of that size, and still finds a cwd past lines many times
// that long, or at the end of one, and none past cwdProbeBytes.
func TestProbeProjectPathLongLines(t *testing.T) {
	big := strings.Repeat("x", 20*probeChunk)
	longFirst := `{"type":"user","message":{"role":"user","content":"` + big + `"}}` + "\n" + `{"type":"user","cwd":"/w/after"}` + "\n"
	cwdLast := `{"type":"user","message":{"role":"user","content":"` + big + `"},"cwd":"/w/end"}` + "\n"
	tooFar := strings.Repeat(`{"type":"user","message":{"role":"user","content":"`+big+`"}}`+"\n", cwdProbeBytes/len(big)+1) + `{"type":"user","cwd":"/w/far"}` + "\n"
	fsys := fstest.MapFS{
		"a.jsonl": {Data: []byte(longFirst)},
		"b.jsonl": {Data: []byte(cwdLast)},
		"c.jsonl": {Data: []byte(tooFar)},
	}
	for name, want := range map[string]string{"a.jsonl": "/w/after", "b.jsonl": "/w/end", "c.jsonl": ""} {
		got := ProbeProjectPath(fsys, []TranscriptFile{{Path: name, Kind: TranscriptMain}})
		if got != want {
			t.Errorf("%s: probed %q, want %q", name, got, want)
		}
	}
	// A cwd on the first line of a small file: the probe allocates about
	// its chunk, not a quarter of a megabyte (the line reader's own).
	small := fstest.MapFS{"s.jsonl": {Data: []byte(`{"type":"user","cwd":"/w/s"}` + "\n")}}
	ts := []TranscriptFile{{Path: "s.jsonl", Kind: TranscriptMain}}
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ProbeProjectPath(small, ts)
		}
	})
	if per := res.AllocedBytesPerOp(); per >= lineReaderBufSize/4 {
		t.Errorf("a probe of a one-line file allocates %d bytes", per)
	}
}
