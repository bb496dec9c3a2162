package secrets

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
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
			if r := w.scanUnit(&u, hist, "", nil, stamp, nil, i); !r.read || r.bytes == 0 || len(r.problems) > 0 {
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

// TestHeldReadsAsTheUsualWay: a scan through a listed home (its small
// files opened into the worker's model.HeldRead) reports what a scan
// through the home's own file system does: every finding, count and
// problem, with a paste that is a link (inside the home, and out of it),
// a named pipe, a folder and an empty file in the paste cache.
func TestHeldReadsAsTheUsualWay(t *testing.T) {
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
