package secrets

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// TestSmallFilesAllocations: the cold count's scan of the home's small
// files (pastes, backups, tool results, memory files: some 11 500 on W)
// allocates next to nothing a file once its worker's buffers are grown:
// the file is opened from its listed folder into the worker's own
// (model.HeldRead: no file, cleanup, information or path made), its
// stamp's tee is the worker's, its hashes reset, no closure made for the
// stamp. (It allocated 11 times a paste before: the held file, its
// cleanup and information, the tee, the head's hash, the stamp's
// closure. What is left is the name the open hands the kernel.)
func TestSmallFilesAllocations(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are opened from held folders on Linux only")
	}
	dir := t.TempDir()
	names := []string{}
	for i := range 40 {
		body := strings.Repeat("some pasted text, nothing secret\n", 10+i)
		name := model.PasteCacheDir + "/" + string(model.HashPaste([]byte(body))) + ".txt"
		write(t, filepath.Join(dir, name), body)
		names = append(names, name)
	}
	fsys := model.ListOnce(model.HomeFS(dir))
	units := make([]unit, len(names))
	ents, err := fs.ReadDir(fsys, model.PasteCacheDir)
	if err != nil || len(ents) != len(names) {
		t.Fatalf("listing: %v, %d entries", err, len(ents))
	}
	for i, e := range ents {
		units[i] = unit{store: StorePaste, fsys: fsys, name: model.PasteCacheDir + "/" + e.Name(), file: e.Name(), inHome: true, format: formatText, ent: e}
	}
	w := newWorker()
	hist := &lazyHistory{fsys: fsys}
	stamps := 0
	stamp := func(int, model.FileStamp) { stamps++ }
	scanAll := func() {
		for i := range units {
			u := units[i]
			if r := w.scanUnit(&u, hist, "", nil, stamp, i); !r.read || r.bytes == 0 || len(r.problems) > 0 {
				t.Fatalf("%s: %+v", u.name, r)
			}
		}
	}
	scanAll()
	if stamps != len(units) {
		t.Fatalf("%d stamps, want %d", stamps, len(units))
	}
	per := testing.AllocsPerRun(5, scanAll) / float64(len(units))
	if per > 1 {
		t.Fatalf("the scan of a small file allocates %.1f times, want at most 1", per)
	}
}

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
	got, eof, err := w.readWhole(c, int64(len(data)))
	if err != nil || !eof || !bytes.Equal(got, data) || c.reads != 1 {
		t.Fatalf("read %d bytes (eof %v, %v) in %d reads, want %d in 1", len(got), eof, err, c.reads, len(data))
	}
	grown := append(bytes.Clone(data), strings.Repeat("y", 5000)...)
	c = &countedReader{r: bytes.NewReader(grown)}
	got, eof, err = w.readWhole(c, int64(len(data)))
	if err != nil || !eof || !bytes.Equal(got, grown) {
		t.Fatalf("grown file: read %d bytes (eof %v, %v), want %d", len(got), eof, err, len(grown))
	}
	c = &countedReader{r: bytes.NewReader(data[:100])}
	got, eof, err = w.readWhole(c, int64(len(data)))
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
