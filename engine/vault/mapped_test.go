package vault

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// cutBoth cuts path from start (completeLines as cut's) by reading it
// and from a mapping of it, and fails unless both give the same result.
func cutBoth(t *testing.T, path string, start, prefixAt int64, completeLines bool) cutResult {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	n := info.Size() - start
	store := func(key, []byte) (bool, error) { return true, nil }
	read := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, store: store, prefixAt: prefixAt}
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	want, err := read.cut(f, start, n, completeLines)
	if err != nil {
		t.Fatal(err)
	}
	data, ok := model.MapFile(f, start, n)
	if !ok {
		t.Fatal("the file was not mapped")
	}
	defer model.UnmapFile(data)
	mapped := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, store: store, prefixAt: prefixAt}
	got, err := mapped.cutMapped(data, start, completeLines)
	if err != nil {
		t.Fatal(err)
	}
	if !sameChunks(got.chunks, want.chunks) || got.size != want.size || got.lastStart != want.lastStart ||
		got.prefixSeen != want.prefixSeen || got.prefixChunks != want.prefixChunks || got.prefixPart.H != want.prefixPart.H || got.prefixPart.N != want.prefixPart.N {
		t.Fatalf("%s from %d: mapped %d chunks, size %d, last at %d, prefix %v %d %+v; read %d chunks, size %d, last at %d, prefix %v %d %+v",
			filepath.Base(path), start, len(got.chunks), got.size, got.lastStart, got.prefixSeen, got.prefixChunks, got.prefixPart,
			len(want.chunks), want.size, want.lastStart, want.prefixSeen, want.prefixChunks, want.prefixPart)
	}
	if mapped.mapped || mapped.buf != nil {
		t.Errorf("the cutter still holds the mapping")
	}
	return want
}

// A file cut from a mapping of it (model.MapFile, cutter.cutMapped) gives
// the chunks reading it gives: a transcript (session ids taken out), one
// with a line longer than maxChunk, a trailing line without its newline
// (left when complete lines are wanted, cut otherwise), from its start
// and from an offset inside it (not on a page's start), with the prefix
// of an older version noted.
func TestMappedCutSameAsRead(t *testing.T) {
	dir := t.TempDir()
	plain := transcript(sidA, 0, 3000, 450)
	long := transcript(sidA, 0, 500, 450) + strings.Repeat("x", 2*maxChunk+12345) + "\n" + transcript(sidA, 500, 900, 450)
	files := map[string]string{
		"plain.jsonl":   plain,
		"long.jsonl":    long,
		"partial.jsonl": plain + `{"type":"user","sessionId":"` + sidA + `","uuid":"u-tail"`,
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, start := range []int64{0, int64(strings.Index(content, `{"type":"user","sessionId":"`+sidA+`","uuid":"u-000700"`))} {
			for _, complete := range []bool{true, false} {
				res := cutBoth(t, path, start, int64(len(content)/2), complete)
				if len(res.chunks) == 0 || start == 0 && len(res.chunks) < 3 {
					t.Errorf("%s: %d chunks", name, len(res.chunks))
				}
			}
		}
	}
}

// A file cut shorter while a sync cuts it from a mapping faults on the
// pages past its new end: the cut returns an error (the file is
// reported, not stored), the process goes on, and the cutter reads the
// next file as before.
func TestMappedFileCutShorterIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	content := transcript(sidA, 0, 6000, 450)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, ok := model.MapFile(f, 0, int64(len(content)))
	if !ok {
		t.Fatal("the file was not mapped")
	}
	defer model.UnmapFile(data)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	stored := 0
	c := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, prefixAt: -1,
		store: func(key, []byte) (bool, error) { stored++; return true, nil }}
	if _, err := c.cutMapped(data, 0, true); err == nil || !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("a mapped file cut shorter: %v, want an error", err)
	}
	if c.mapped || c.buf != nil {
		t.Errorf("the cutter still holds the mapping")
	}
	res, err := c.cut(strings.NewReader(content), 0, int64(len(content)), true)
	if err != nil || res.size != int64(len(content)) {
		t.Fatalf("the next cut: %d bytes, %v", res.size, err)
	}
}

// A sync cuts a home's large files from mappings of them and stores the
// same chunks, under the same names, as a sync that reads them; the
// vault verifies and restores byte for byte.
func TestSyncCutsLargeFilesFromMappings(t *testing.T) {
	home := testHome(t, 300)
	rel := "projects/" + proj + "/" + sidC + ".jsonl"
	write(t, home, rel, transcript(sidC, 0, 3000, 450), t0.Add(time.Hour))
	relatedSessions(t, home, 4)
	before := snapshot(t, home, ofSessionA)
	var mu sync.Mutex
	var mappedFiles []string
	mapHook = func(rel string) {
		mu.Lock()
		mappedFiles = append(mappedFiles, rel)
		mu.Unlock()
	}
	t.Cleanup(func() { mapHook = nil })
	v := openVault(t, nil)
	syncHome(t, v, home, t0.Add(2*time.Hour))
	if !slices.Contains(mappedFiles, rel) {
		t.Fatalf("files cut from mappings: %q, want %s among them", mappedFiles, rel)
	}
	mapFiles = false
	t.Cleanup(func() { mapFiles = true })
	read := openVault(t, nil)
	syncHome(t, read, home, t0.Add(2*time.Hour))
	a, err := v.loadState()
	if err != nil {
		t.Fatal(err)
	}
	b, err := read.loadState()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range mappedFiles {
		ra, rb := a.get(p), b.get(p)
		if ra == nil || rb == nil || !sameChunks(ra.Latest().Chunks, rb.Latest().Chunks) || ra.Latest().Sum != rb.Latest().Sum {
			t.Errorf("%s: cut from a mapping, its chunks differ from the read's", p)
		}
	}
	mapFiles = true
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	sweep(t, home)
	syncHome(t, v, home, t0.Add(3*time.Hour))
	restoreSessionA(t, v, home, before, t0.Add(4*time.Hour))
}
