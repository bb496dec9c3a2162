package secrets

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
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

// TestHeldReadsAsTheUsualWay: a scan through a listed home (its small
// files opened into the worker's model.HeldRead) reports what a scan
// through the home's own file system does: every finding, count and
// problem, with a paste that is a link (inside the home, and out of it),
// a named pipe, a folder and an empty file in the paste cache.
func TestHeldReadsAsTheUsualWay(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are opened from held folders on Linux only")
	}
	_, h := plantedHome(t)
	pastes := filepath.Join(h.Dir, model.PasteCacheDir)
	ents, err := os.ReadDir(pastes)
	if err != nil || len(ents) == 0 {
		t.Fatalf("the planted home has no paste: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "outside.txt")
	write(t, outside, "AKIAIOSFODNN7EXAMPLE outside the home\n")
	for name, target := range map[string]string{"0000000000000001.txt": ents[0].Name(), "0000000000000002.txt": outside} {
		if err := os.Symlink(target, filepath.Join(pastes, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(pastes, "0000000000000003.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(pastes, "0000000000000004.txt"), "")
	if err := os.Mkdir(filepath.Join(pastes, "0000000000000005.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	lh := *h
	lh.FS = model.ListOnce(h.FS)
	got, want := Scan(Options{Home: &lh}), Scan(Options{Home: h})
	if !reflect.DeepEqual(got.Stores, want.Stores) || !reflect.DeepEqual(got.Problems, want.Problems) || got.Bytes != want.Bytes ||
		!reflect.DeepEqual(findingKeys(got), findingKeys(want)) {
		t.Fatalf("through the listed home:\n%+v %+v %d\nthrough the home:\n%+v %+v %d", got.Stores, got.Problems, got.Bytes, want.Stores, want.Problems, want.Bytes)
	}
}

func findingKeys(r Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, key(f.Store, f.File, f.Line, f.JSONPath, string(f.Rule))+" "+f.ID)
	}
	return out
}
