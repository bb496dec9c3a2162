package secrets

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// TestScanWholeReusesItsBuffer: a file read whole (a tool result, a
// paste) is read into the worker's buffer, not a new one grown by
// doubling each time (io.ReadAll: a dozen allocations and twice the
// file's bytes for a 200 kB file), so a scan of many such files does not
// feed the collector its bytes again and again.
func TestScanWholeReusesItsBuffer(t *testing.T) {
	data := []byte(strings.Repeat("a line of a tool's output, nothing secret in it\n", 4000))
	u := unit{store: StoreToolResult, name: "t.txt", file: "t.txt", format: formatText, size: int64(len(data))}
	w := newWorker()
	var res fileResult
	r := bytes.NewReader(data)
	scan := func() {
		r.Reset(data)
		res = fileResult{}
		w.scanWhole(r, u, &res, func(*Finding) {})
	}
	scan()
	if res.bytes != int64(len(data)) {
		t.Fatalf("read %d bytes, want %d", res.bytes, len(data))
	}
	if n := testing.AllocsPerRun(20, scan); n > 0 {
		t.Fatalf("scanWhole allocates %.0f times a file once its buffer is grown, want 0", n)
	}
}

// TestFeedLineAllocates: the shared pass's secrets count allocates
// nothing for a line without a secret's anchor, short or long (a line of
// 16 to 64 bytes and the last bytes of a longer one were copied into a
// block that escaped to the heap, one allocation a line).
func TestFeedLineAllocates(t *testing.T) {
	f := &Feed{}
	u := unit{store: StoreTranscript, name: "s.jsonl", file: "s.jsonl", format: formatJSONL}
	ff := &feedFile{f: f, u: u, w: newWorker()}
	for _, line := range []string{
		`{"type":"user","message":{"content":"hello"}}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"` + strings.Repeat("plain words ", 40) + `"}]}}`,
	} {
		l := model.Line{Bytes: []byte(line), Size: int64(len(line)), Number: 2}
		ff.Line(l)
		if n := testing.AllocsPerRun(50, func() { ff.Line(l) }); n > 0 {
			t.Errorf("Line of %d bytes allocates %.0f times, want 0", len(line), n)
		}
	}
}
