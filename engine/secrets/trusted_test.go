package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// watchFS counts the folders listed through it and the regular files
// opened through it that counted says to count.
type watchFS struct {
	fs.FS
	counted func(name string) bool
	mu      sync.Mutex
	lists   map[string]int
	opens   map[string]int
}

func newWatchFS(fsys fs.FS, counted func(string) bool) *watchFS {
	return &watchFS{FS: fsys, counted: counted, lists: map[string]int{}, opens: map[string]int{}}
}

func (c *watchFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return f, err
	}
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && c.counted(name) {
		c.mu.Lock()
		c.opens[name]++
		c.mu.Unlock()
	}
	return f, nil
}

func (c *watchFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *watchFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.lists[name]++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

// take is the folders listed and the files opened since the last call.
func (c *watchFS) take() (lists, opens map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	lists, opens = c.lists, c.opens
	c.lists, c.opens = map[string]int{}, map[string]int{}
	return lists, opens
}

// listed is the write-once folders Counts walks (the paste cache,
// file-history/<session>; a session's tool-results are listed by
// model.FindSessionFiles) listed since the last take, and the number of
// files opened.
func (c *watchFS) listed() (dirs []string, opens int) {
	lists, m := c.take()
	for d := range lists {
		if model.WriteOnceFolder(d) && (d == model.PasteCacheDir || strings.HasPrefix(d, "file-history/")) {
			dirs = append(dirs, d)
		}
	}
	for _, n := range m {
		opens += n
	}
	return dirs, opens
}

// countsAsBegin is a checker of Counts through ch (cache kept in
// cache) against Begin on h: it fails the test when they differ.
func countsAsBegin(t *testing.T, ch, h *model.Home, cache *diskcache.Store) func(when string) Report {
	return func(when string) Report {
		t.Helper()
		got := Counts(Options{Home: ch}, cache)
		want := Begin(Options{Home: h}).Report
		if !reflect.DeepEqual(got.Stores, want.Stores) || got.Count() != want.Count() {
			t.Fatalf("%s: counts %+v, Begin's %+v", when, got.Stores, want.Stores)
		}
		return got
	}
}

// A warm Counts lists no write-once folder (the paste cache, each
// session's file history) whose stamp is the one it had when the last run
// listed it, nor opens its files; a paste added, removed or renamed over
// is counted by the next run even with the folder's modification time
// set back (its change time moved), and a file appended to outside those
// folders too. (On the old code every run listed every folder.)
func TestCountsListNoUnchangedWriteOnceFolder(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	dirs := writeOnceFolders(t, h)
	pastes := dirs[0]
	settle := func(dirs ...string) { settleFolders(t, dirs...) }
	settle(dirs...)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	lf := newWatchFS(h.FS, func(name string) bool {
		return strings.HasPrefix(name, model.PasteCacheDir+"/") || strings.HasPrefix(name, "file-history/")
	})
	ch := *h
	ch.FS = lf
	check := countsAsBegin(t, &ch, h, cache)
	first := check("cold")
	if d, _ := lf.listed(); len(d) != len(dirs) {
		t.Fatalf("the cold run listed %v, want the %d write-once folders", d, len(dirs))
	}
	check("warm")
	if d, n := lf.listed(); len(d) != 0 || n != 0 {
		t.Errorf("a warm run on unchanged write-once folders listed %v and opened %d of their files, want none", d, n)
	}
	check("warm again")
	if d, n := lf.listed(); len(d) != 0 || n != 0 {
		t.Errorf("a second warm run listed %v and opened %d files, want none", d, n)
	}

	// A paste holding a key is added, the folder's time set back.
	paste := "SENDGRID_API_KEY=SG.aB3dE5gH7jK9mN1pQ3sT5v.wX7yZ9bC1dF3gH5jK7mN9pQ1sT3vW5xY7zA9bC1dE3\n"
	sum := sha256.Sum256([]byte(paste))
	added := filepath.Join(pastes, hex.EncodeToString(sum[:8])+".txt")
	if err := os.WriteFile(added, []byte(paste), 0o600); err != nil {
		t.Fatal(err)
	}
	settle(pastes)
	if r := check("a paste added"); r.Count() != first.Count()+1 {
		t.Errorf("after a paste holding a key: %d counted, before %d", r.Count(), first.Count())
	}
	if d, _ := lf.listed(); len(d) != 1 || d[0] != model.PasteCacheDir {
		t.Errorf("after a paste added the run listed %v, want the paste cache alone", d)
	}
	check("trusted after the paste")
	if d, n := lf.listed(); len(d) != 0 || n != 0 {
		t.Errorf("the run after listed %v and opened %d files, want none", d, n)
	}
	// Renamed over: another paste's bytes under the added one's name.
	other := filepath.Join(filepath.Dir(pastes), "other.txt")
	if err := os.WriteFile(other, []byte("no key here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, added); err != nil {
		t.Fatal(err)
	}
	settle(pastes)
	if r := check("a paste renamed over"); r.Count() != first.Count() {
		t.Errorf("after the paste renamed over: %d counted, want %d", r.Count(), first.Count())
	}
	lf.listed()
	// Removed.
	if err := os.Remove(added); err != nil {
		t.Fatal(err)
	}
	settle(pastes)
	check("a paste removed")
	if d, _ := lf.listed(); len(d) != 1 {
		t.Errorf("after a paste removed the run listed %v, want the paste cache", d)
	}
	// A backup removed from a session's file history.
	var backup string
	_ = fs.WalkDir(h.FS, "file-history", func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() && backup == "" {
			backup = p
		}
		return nil
	})
	if backup == "" {
		t.Fatal("no backup in the planted home")
	}
	if err := os.Remove(filepath.Join(h.Dir, filepath.FromSlash(backup))); err != nil {
		t.Fatal(err)
	}
	settle(filepath.Join(h.Dir, filepath.FromSlash(path.Dir(backup))))
	removed := check("a backup removed")
	if d, _ := lf.listed(); len(d) != 1 || d[0] != path.Dir(backup) {
		t.Errorf("after a backup removed the run listed %v, want %s", d, path.Dir(backup))
	}
	// A key appended to a transcript, outside the write-once folders.
	files, _ := model.FindTranscripts(h.FS)
	f, err := os.OpenFile(filepath.Join(h.Dir, filepath.FromSlash(files[0].Path)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"user","message":{"role":"user","content":"key ghp_Zq7Rk2Lm9Xw4Tb8Yc1Vn5Hs3Jd6Fg0Pa2Qe7 here"}}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if r := check("a key appended"); r.Count() != removed.Count()+1 {
		t.Errorf("after a key appended: %d counted, want %d", r.Count(), removed.Count()+1)
	}
}

// A cold Counts looks at each paste and backup once, by the open that
// scans it: their sizes are the open's, no Info (an lstat) is asked of
// their listing's entries (the old code asked each file's, to order the
// scan), and Begin's findings are as before.
func TestColdCountsAsksNoInfoOfTheFilesItOpens(t *testing.T) {
	t.Parallel()
	_, h := plantedHome(t)
	// A big text paste (read line by line, past maxTextBytes) among them.
	big := strings.Repeat("plain text line without any key in it at all\n", maxTextBytes/45+10) +
		"SENDGRID_API_KEY=SG.aB3dE5gH7jK9mN1pQ3sT5v.wX7yZ9bC1dF3gH5jK7mN9pQ1sT3vW5xY7zA9bC1dE3\n"
	sum := sha256.Sum256([]byte(big))
	if err := os.WriteFile(filepath.Join(h.Dir, model.PasteCacheDir, hex.EncodeToString(sum[:8])+".txt"), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	want := Scan(Options{Home: h})
	pf := &prefixFS{FS: h.FS, prefixes: []string{model.PasteCacheDir + "/", "file-history/"}}
	ch := *h
	ch.FS = pf
	if got := Scan(Options{Home: &ch}); !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Stores, want.Stores) {
		t.Fatalf("a scan through the counting file system found %+v, want %+v", got.Findings, want.Findings)
	}
	pf.infos.Store(0)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	got := Counts(Options{Home: &ch}, cache)
	if !reflect.DeepEqual(got.Stores, want.Stores) {
		t.Fatalf("cold counts %+v, Scan's %+v", got.Stores, want.Stores)
	}
	if pf.opens.Load() == 0 {
		t.Fatal("no paste nor backup opened: the test proves nothing")
	}
	if n := pf.infos.Load(); n != 0 {
		t.Errorf("a cold Counts asked the Info of %d pastes and backups, want 0 (sized by their opens)", n)
	}
	// Each's read again of a file whose findings were not held reads it
	// as the scan did (line by line for the big paste).
	var ids []string
	s := begin(Options{Home: &ch}, 0)
	s.Each(func(f *Finding) { ids = append(ids, f.ID+" "+f.File+" "+f.JSONPath) })
	var wantIDs []string
	for _, f := range want.Findings {
		wantIDs = append(wantIDs, f.ID+" "+f.File+" "+f.JSONPath)
	}
	if !reflect.DeepEqual(ids, wantIDs) {
		t.Errorf("findings read again: %v, want %v", ids, wantIDs)
	}
}

// A warm Counts opens no file outside the write-once folders (memory,
// transcripts, settings) that its cache counted with the file's change
// time settled and whose lstat is as stamped; a file appended to,
// rewritten in place to the same size with its modification time set
// back, or replaced is read again (on the old code every such file was
// opened, to hash its head, at every run). Not parallel: it moves
// processStart, as if the process had started an hour from now.
func TestWarmCountsOpenNoSettledFile(t *testing.T) {
	_, h := plantedHome(t)
	startAnHourAhead(t)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	of := newWatchFS(h.FS, func(name string) bool { return !model.WriteOnceFolder(path.Dir(name)) })
	ch := *h
	ch.FS = of
	check := countsAsBegin(t, &ch, h, cache)
	check("cold")
	if _, m := of.take(); len(m) == 0 {
		t.Fatal("the cold run opened nothing outside the write-once folders: the test proves nothing")
	}
	// What the listing itself opens (the projects' paths probed in a
	// transcript's first lines, settings.json for the memory folders).
	listUnits(Options{Home: &ch})
	_, listing := of.take()
	scanned := func() map[string]int {
		_, m := of.take()
		for name, n := range listing {
			if m[name] -= n; m[name] <= 0 {
				delete(m, name)
			}
		}
		return m
	}
	check("warm")
	if m := scanned(); len(m) != 0 {
		t.Errorf("a warm run opened %v beyond its listing's opens, want nothing", m)
	}
	var mem string
	_ = fs.WalkDir(h.FS, "projects", func(p string, e fs.DirEntry, err error) error {
		if err == nil && mem == "" && e.Type().IsRegular() && strings.Contains(p, "/memory/") && strings.HasSuffix(p, ".md") {
			mem = p
		}
		return nil
	})
	if mem == "" {
		t.Fatal("no memory file in the planted home")
	}
	abs := filepath.Join(h.Dir, filepath.FromSlash(mem))
	key := "ghp_Zq7Rk2Lm9Xw4Tb8Yc1Vn5Hs3Jd6Fg0Pa2Qe7"
	// Appended to.
	before := check("before").Count()
	f, err := os.OpenFile(abs, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\ntoken " + key + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if r := check("a key appended"); r.Count() != before+1 {
		t.Errorf("after a key appended to %s: %d counted, want %d", mem, r.Count(), before+1)
	}
	if m := scanned(); m[mem] == 0 {
		t.Errorf("the run after the append did not read %s: %v", mem, m)
	}
	// Rewritten in place to the same size, its modification time set back.
	info, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	clean := strings.Replace(string(data), key, strings.Repeat("x", len(key)), 1)
	if err := os.WriteFile(abs, []byte(clean), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(abs, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if r := check("rewritten in place"); r.Count() != before {
		t.Errorf("after the key rewritten away in place: %d counted, want %d", r.Count(), before)
	}
	scanned()
	check("warm again")
	if m := scanned(); len(m) != 0 {
		t.Errorf("a warm run after the rewrite opened %v beyond its listing's, want nothing", m)
	}
	// Replaced: another file renamed over it.
	tmp := filepath.Join(h.Dir, "replacement.tmp")
	if err := os.WriteFile(tmp, []byte(string(data)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, abs); err != nil {
		t.Fatal(err)
	}
	if r := check("replaced"); r.Count() != before+1 {
		t.Errorf("after the file replaced by one holding a key: %d counted, want %d", r.Count(), before+1)
	}
}

// TestTrustedFoldersNamesInOneSlab: the names of the trusted folders
// are listed from the kept entries into one slab, not appended folder by
// folder (slices grown by doubling: 1.6 MB of a warm start on W), and
// each folder's come in name order.
func TestTrustedFoldersNamesInOneSlab(t *testing.T) {
	kept := map[string]diskcache.Entry[counted]{}
	listings := map[string]model.FileStamp{}
	dirs := []string{model.PasteCacheDir, model.FileHistoryDir + "/s1", model.FileHistoryDir + "/s2"}
	for _, d := range dirs {
		listings[d] = model.FileStamp{ID: model.FileID{Dev: 1, Ino: 2, Known: true}}
		for i := range 1000 {
			kept[fmt.Sprintf("%s/%04d", d, (i*7919)%1000)] = diskcache.Entry[counted]{}
		}
	}
	kept["notes/a.md"] = diskcache.Entry[counted]{}
	now := time.Now()
	folders := diskcache.Folders{Full: now.Add(-time.Minute)}
	var tf *trustedFolders
	allocs := testing.AllocsPerRun(5, func() { tf = newTrustedFolders(nil, kept, folders, listings, now) })
	for _, d := range dirs {
		names := tf.names[d]
		if len(names) != 1000 || !slices.IsSorted(names) || names[0] != d+"/0000" {
			t.Fatalf("%s: %d names, sorted %v, first %q", d, len(names), slices.IsSorted(names), names[0])
		}
	}
	if len(tf.names) != len(dirs) {
		t.Fatalf("names of %d folders, want %d", len(tf.names), len(dirs))
	}
	t.Logf("newTrustedFolders: %.0f allocations for 3 000 names in 3 folders", allocs)
	if allocs > 12 {
		t.Fatalf("newTrustedFolders allocates %.0f times for 3 000 names in 3 folders, want at most 12", allocs)
	}
}
