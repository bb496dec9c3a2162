package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// countFS counts the transcripts opened through it.
type countFS struct {
	fs.FS
	transcripts atomic.Int64
}

func (c *countFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".jsonl") && strings.HasPrefix(name, "projects/") {
		c.transcripts.Add(1)
	}
	return c.FS.Open(name)
}

// Stat is not an open (fs.Stat would open the file).
func (c *countFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// Counts answers as Begin's Report (every store's files, bytes and
// findings, the scrub copies) with and without its cache; a second run
// on an unchanged home reads no transcript, and a secret appended to a
// transcript is counted by the next run.
func TestCountsEqualBeginAndCacheReadsNoTranscript(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	want := Begin(Options{Home: h}).Report
	if want.Count() == 0 {
		t.Fatal("the planted home has no finding: the test proves nothing")
	}
	if got := Counts(Options{Home: h}, nil); !reflect.DeepEqual(got.Stores, want.Stores) || len(got.Copies) != len(want.Copies) {
		t.Fatalf("uncached counts %+v, Begin's %+v", got.Stores, want.Stores)
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	cf := &countFS{FS: h.FS}
	ch := *h
	ch.FS = cf
	first := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(first.Stores, want.Stores) {
		t.Fatalf("first cached counts %+v, Begin's %+v", first.Stores, want.Stores)
	}
	if cf.transcripts.Load() == 0 {
		t.Fatal("the first run read no transcript")
	}
	firstOpens := cf.transcripts.Load()
	cf.transcripts.Store(0)
	again := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(again.Stores, want.Stores) {
		t.Fatalf("counts from the cache %+v, Begin's %+v", again.Stores, want.Stores)
	}
	// Each transcript is opened once, to be stamped (diskcache.PerFile),
	// and not read; the first run opened each once too, stamping it from
	// the open that scanned it (diskcache.PerFileStamping; before, twice:
	// to stamp it, then to scan it).
	if n := cf.transcripts.Load(); n == 0 || n != firstOpens {
		t.Errorf("a run on an unchanged home opened transcripts %d times, the first run %d: want as many (one open each)", n, firstOpens)
	}
	files, _ := model.FindTranscripts(h.FS)
	// A session appends a line holding a key: the next run counts it.
	if len(files) == 0 {
		t.Fatal("no transcript in the planted home")
	}
	name := files[0].Path
	f, err := os.OpenFile(filepath.Join(h.Dir, filepath.FromSlash(name)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"user","message":{"role":"user","content":"key ghp_Zq7Rk2Lm9Xw4Tb8Yc1Vn5Hs3Jd6Fg0Pa2Qe7 here"}}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	after := Counts(Options{Home: &ch}, cache)
	if got, want := after.Count(), Begin(Options{Home: h}).Report.Count(); got != want || got != first.Count()+1 {
		t.Errorf("after an appended key: %d counted, Begin %d, before %d", got, want, first.Count())
	}
}

// prefixFS counts the regular files opened through it whose names start with
// one of its prefixes.
type prefixFS struct {
	fs.FS
	prefixes []string
	opens    atomic.Int64
	infos    atomic.Int64
}

func (c *prefixFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return f, err
	}
	for _, p := range c.prefixes {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && strings.HasPrefix(name, p) {
			c.opens.Add(1)
		}
	}
	return f, nil
}

// Stat is not an open (fs.Stat would open the file).
func (c *prefixFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// ReadDir lists name, its entries under a prefix counting the Info
// (an lstat) asked of them in infos.
func (c *prefixFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(c.FS, name)
	for i, e := range ents {
		for _, p := range c.prefixes {
			if strings.HasPrefix(name+"/"+e.Name(), p) {
				ents[i] = testenv.InfoLooked(e, func() { c.infos.Add(1) })
				break
			}
		}
	}
	return ents, err
}

// writeOnceFolders are the planted home's paste cache (first) and its
// sessions' file-history folders, absolute.
func writeOnceFolders(t *testing.T, h *model.Home) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(h.Dir, "file-history"))
	if err != nil || len(ents) == 0 {
		t.Fatalf("the planted home has no file history: %v", err)
	}
	dirs := []string{filepath.Join(h.Dir, model.PasteCacheDir)}
	for _, e := range ents {
		dirs = append(dirs, filepath.Join(h.Dir, "file-history", e.Name()))
	}
	return dirs
}

// settleFolders sets the folders' times an hour back: settled.
func settleFolders(t *testing.T, dirs ...string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, d := range dirs {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// The pastes and file-history backups the client writes once are not
// opened, nor lstat'ed, on a run whose folders are as the last run stamped them
// (diskcache.PerFileFolders), and a paste the client adds -- a new file
// in the folder, the client's way -- is counted by the next run.
func TestCountsTrustWriteOnceFoldersAndSeeANewPaste(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	// The folders were written an hour ago: settled.
	settleFolders(t, writeOnceFolders(t, h)...)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	pf := &prefixFS{FS: h.FS, prefixes: []string{model.PasteCacheDir + "/", "file-history/"}}
	ch := *h
	ch.FS = pf
	want := Begin(Options{Home: h}).Report
	first := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(first.Stores, want.Stores) {
		t.Fatalf("first cached counts %+v, Begin's %+v", first.Stores, want.Stores)
	}
	if pf.opens.Load() == 0 {
		t.Fatal("the first run opened no paste nor backup: the test proves nothing")
	}
	// A cold cache opens each once: stamped from the open that counts it.
	files := 0
	for _, d := range []string{model.PasteCacheDir, "file-history"} {
		_ = fs.WalkDir(h.FS, d, func(_ string, e fs.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() {
				files++
			}
			return nil
		})
	}
	if n := pf.opens.Load(); n != int64(files) {
		t.Errorf("the first run opened pastes and backups %d times, want %d (each once)", n, files)
	}
	pf.opens.Store(0)
	pf.infos.Store(0)
	again := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(again.Stores, want.Stores) {
		t.Fatalf("counts from the stamped folders %+v, Begin's %+v", again.Stores, want.Stores)
	}
	if n := pf.opens.Load(); n != 0 {
		t.Errorf("a run on unchanged write-once folders opened %d of their files, want 0", n)
	}
	// Nor lstat'ed: a unit's size is asked only when it is scanned (on
	// the old code the listing asked each file's Info).
	if n := pf.infos.Load(); n != 0 {
		t.Errorf("a run on unchanged write-once folders asked the Info of %d of their files, want 0", n)
	}
	// The client pastes a key: a new file named by its content.
	paste := "AWS_SECRET=1\nSENDGRID_API_KEY=SG.aB3dE5gH7jK9mN1pQ3sT5v.wX7yZ9bC1dF3gH5jK7mN9pQ1sT3vW5xY7zA9bC1dE3\n"
	sum := sha256.Sum256([]byte(paste))
	if err := os.WriteFile(filepath.Join(h.Dir, model.PasteCacheDir, hex.EncodeToString(sum[:8])+".txt"), []byte(paste), 0o600); err != nil {
		t.Fatal(err)
	}
	after := Counts(Options{Home: &ch}, cache)
	begin := Begin(Options{Home: h}).Report
	if after.Count() != begin.Count() || after.Count() <= first.Count() || !reflect.DeepEqual(after.Stores, begin.Stores) {
		t.Errorf("after a new paste holding a key: %d counted (%+v), Begin %d (%+v), before %d", after.Count(), after.Stores, begin.Count(), begin.Stores, first.Count())
	}
}
