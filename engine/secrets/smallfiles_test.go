package secrets

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// countedReader counts its reads.
type countedReader struct {
	r     io.Reader
	reads int
}

func (c *countedReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

// TestReadWholeOneRead: a file read whole whose size is known (its
// open's fstat, or its listing) is read with one read when that read
// comes back short at that size: the end needs no second read, which
// would say only that (one system call a file: some 11 500 at a cold
// start). A file that grew since is read to its end.
func TestReadWholeOneRead(t *testing.T) {
	data := []byte(strings.Repeat("x", 3000))
	w := newWorker()
	c := &countedReader{r: bytes.NewReader(data)}
	got, eof, err := w.readWhole(c, int64(len(data)), true)
	if err != nil || !eof || !bytes.Equal(got, data) || c.reads != 1 {
		t.Fatalf("read %d bytes (eof %v, %v) in %d reads, want %d in 1", len(got), eof, err, c.reads, len(data))
	}
	// A reader that is not the file itself may come back short before
	// its end: it is read to its end.
	c = &countedReader{r: bytes.NewReader(data)}
	got, eof, err = w.readWhole(c, int64(len(data)), false)
	if err != nil || !eof || !bytes.Equal(got, data) || c.reads != 2 {
		t.Fatalf("not the file: read %d bytes (eof %v, %v) in %d reads, want %d in 2", len(got), eof, err, c.reads, len(data))
	}
	grown := append(bytes.Clone(data), strings.Repeat("y", 5000)...)
	c = &countedReader{r: bytes.NewReader(grown)}
	got, eof, err = w.readWhole(c, int64(len(data)), true)
	if err != nil || !eof || !bytes.Equal(got, grown) {
		t.Fatalf("grown file: read %d bytes (eof %v, %v), want %d", len(got), eof, err, len(grown))
	}
	c = &countedReader{r: bytes.NewReader(data[:100])}
	got, eof, err = w.readWhole(c, int64(len(data)), true)
	if err != nil || !eof || !bytes.Equal(got, data[:100]) {
		t.Fatalf("shrunk file: read %d bytes (eof %v, %v), want 100", len(got), eof, err)
	}
}

func write(t *testing.T, name, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
