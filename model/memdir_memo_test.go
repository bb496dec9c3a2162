//go:build linux || darwin

package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingFS counts the files opened through it, by name.
type countingFS struct {
	fs.FS
	mu     sync.Mutex
	opened map[string]int
}

func (c *countingFS) count(name string) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.count(name)
	return c.FS.Open(name)
}

func (c *countingFS) OpenRegular(name string) (fs.File, error) {
	c.count(name)
	return OpenRegular(c.FS, name)
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }
func (c *countingFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(c.FS, name) }

// topicOpens are the topic files (not MEMORY.md, not folders) opened.
func (c *countingFS) topicOpens() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for n, k := range c.opened {
		if strings.HasSuffix(n, ".md") && !strings.HasSuffix(n, MemoryIndexName) {
			out[n] = k
		}
	}
	return out
}

// The readers of one memory folder in a process open each unchanged topic
// file once: the second and third reads (the project panes' store, the
// Overview's, the loads' read at a start) take it from the memo, and
// answer what a read that opens every file answers; MEMORY.md likewise. Then every kind of
// change is seen by the next read: a file rewritten with the same size
// (its mtime a second on), one replaced
// by a rename, one removed, one added. On the old code each read opened
// every file (3 opens of each).
func TestMemoryDirReadsOpenEachFileOnce(t *testing.T) {
	forgetMemo()
	t.Cleanup(forgetMemo)
	home := t.TempDir()
	mem := filepath.Join(home, "projects", "-p", "memory")
	if err := os.MkdirAll(filepath.Join(mem, "archive"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(mem, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	topic := func(n, body string) string {
		return "---\nname: " + n + "\ndescription: the " + n + "\ntype: project\n---\n\n" + body + "\n"
	}
	write("MEMORY.md", "- [One](one.md) — first\n")
	for _, n := range []string{"one", "two", "three"} {
		write(n+".md", topic(n, "body of "+n))
	}
	write("archive/old.md", topic("old", "old body"))
	write("broken.md", "---\nname: [unclosed\n---\n")

	c := &countingFS{FS: os.DirFS(home), opened: map[string]int{}}
	const dir = "projects/-p/memory"
	first, firstProbs := ReadMemoryDir(c, dir)
	for i := 0; i < 2; i++ {
		got, probs := ReadMemoryDir(c, dir)
		if !reflect.DeepEqual(got, first) || !reflect.DeepEqual(probs, firstProbs) {
			t.Fatalf("read %d from the memo\n%+v %v\nfirst read\n%+v %v", i+2, got, probs, first, firstProbs)
		}
	}
	for n, k := range c.topicOpens() {
		// broken.md reads with a problem: not kept, read each time.
		if want := 1; !strings.HasSuffix(n, "broken.md") && k != want {
			t.Errorf("%s opened %d times in three reads, want %d", n, k, want)
		}
	}
	c.mu.Lock()
	indexOpens := c.opened[dir+"/"+MemoryIndexName]
	c.mu.Unlock()
	if indexOpens != 1 {
		t.Errorf("MEMORY.md opened %d times in three reads, want 1", indexOpens)
	}
	// A fresh read that opens everything answers the same.
	forgetMemo()
	fresh, freshProbs := ReadMemoryDir(os.DirFS(home), dir)
	if !reflect.DeepEqual(fresh, first) || !reflect.DeepEqual(freshProbs, firstProbs) {
		t.Fatalf("a read without the memo differs\n%+v\n%+v", fresh, first)
	}

	// Changes after the start are seen.
	old, err := os.Stat(filepath.Join(mem, "one.md"))
	if err != nil {
		t.Fatal(err)
	}
	same := topic("one", "BODY OF ONE") // the same size
	if len(same) != int(old.Size()) {
		t.Fatal("test: not the same size")
	}
	write("one.md", same)
	if err := os.Chtimes(filepath.Join(mem, "one.md"), old.ModTime(), old.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	repl := filepath.Join(home, "staged")
	if err := os.WriteFile(repl, []byte(topic("two", "replaced")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(repl, filepath.Join(mem, "two.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(mem, "three.md")); err != nil {
		t.Fatal(err)
	}
	write("four.md", topic("four", "new"))
	write("MEMORY.md", "- [Four](four.md) — new\n")
	got, _ := ReadMemoryDir(c, dir)
	bodies := map[string]string{}
	for _, f := range got.Files {
		bodies[f.Path] = strings.TrimSpace(f.Body)
	}
	want := map[string]string{"one.md": "BODY OF ONE", "two.md": "replaced", "four.md": "new", "archive/old.md": "old body", "broken.md": ""}
	for p, b := range want {
		if bodies[p] != b {
			t.Errorf("after the changes %s reads %q, want %q", p, bodies[p], b)
		}
	}
	if got.Index == nil || string(got.Index.Bytes()) != "- [Four](four.md) — new\n" {
		t.Errorf("after the changes MEMORY.md reads %+v", got.Index)
	}
	if _, ok := bodies["three.md"]; ok || len(bodies) != len(want) {
		t.Errorf("after the changes: %v", bodies)
	}
}

// gatedFS is a countingFS whose first open of gate waits for release.
type gatedFS struct {
	*countingFS
	gate            string
	opening, second chan struct{}
	release         chan struct{}
	once, once2     sync.Once
}

func (g *gatedFS) OpenRegular(name string) (fs.File, error) {
	if name == g.gate {
		first := false
		g.once.Do(func() { first = true })
		if first {
			close(g.opening)
			<-g.release
		} else {
			g.once2.Do(func() { close(g.second) })
		}
	}
	return g.countingFS.OpenRegular(name)
}

// Two reads of one folder at the same moment (the app's project panes and
// its Overview, each opening a store on the open project's memory) open
// each file once: the second waits for the first's read of a file, not
// reads it beside it. On the old code the second read opened the file
// the first was reading (the test ends as it does).
func TestMemoryDirReadsAtOnceOpenEachFileOnce(t *testing.T) {
	home := memoFolder(t, "a", "b", "c")
	g, waiting := gateA(t, home)
	var wg sync.WaitGroup
	var first, second *MemoryDir
	wg.Go(func() { first, _ = ReadMemoryDir(g, "m") })
	<-g.opening // the first read is reading a.md
	wg.Go(func() { second, _ = ReadMemoryDir(g, "m") })
	select {
	case <-waiting: // the second waits for the first's read of a.md
	case <-g.second:
		t.Error("the second read opened a.md while the first read it")
	}
	close(g.release)
	wg.Wait()
	if !reflect.DeepEqual(first, second) || len(first.Files) != 3 {
		t.Errorf("the two reads differ:\n%+v\n%+v", first, second)
	}
	for n, k := range g.topicOpens() {
		if k != 1 {
			t.Errorf("%s opened %d times by the two reads, want 1", n, k)
		}
	}
}

// A scan (ScanMemoryDir: stat, the Overview's counts) holds one file at a
// time: it adds nothing to the memo, but takes what a read put there.
func TestMemoryScanKeepsNothing(t *testing.T) {
	home := memoFolder(t, "a")
	c := &countingFS{FS: os.DirFS(home), opened: map[string]int{}}
	n := 0
	ScanMemoryDir(c, "m", func(*MemoryFile) { n++ })
	fileMemo.Lock()
	kept := len(fileMemo.m)
	fileMemo.Unlock()
	if n != 1 || kept != 0 {
		t.Errorf("a scan saw %d files and left %d in the memo, want 1 and 0", n, kept)
	}
	ReadMemoryDir(c, "m")
	ScanMemoryDir(c, "m", func(*MemoryFile) { n++ })
	if k := c.topicOpens()["m/a.md"]; k != 2 || n != 2 {
		t.Errorf("scan, read, scan: a.md opened %d times (want 2: the second scan takes the read's), seen %d", k, n)
	}
}

// memoFolder is a home with the memory folder m holding a topic file for
// each name, the memo emptied before and after the test.
func memoFolder(t *testing.T, names ...string) (home string) {
	t.Helper()
	forgetMemo()
	t.Cleanup(forgetMemo)
	home = t.TempDir()
	mem := filepath.Join(home, "m")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		text := "---\nname: " + n + "\ndescription: d\ntype: user\n---\n\nbody\n"
		if err := os.WriteFile(filepath.Join(mem, n+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// The app's readers reach one folder by different file systems: a
// store's (MemoryFS of the folder), the home's (HomeFS, projects/<slug>/
// memory) and, with the home held (HoldHome), the held folder's. Each
// finds what another read: the files are read from disk once.
func TestMemoryMemoAcrossTheAppsFileSystems(t *testing.T) {
	for _, held := range []bool{false, true} {
		forgetMemo()
		home := t.TempDir()
		mem := filepath.Join(home, "projects", "-p", "memory")
		if err := os.MkdirAll(mem, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"a", "b", "c"} {
			if err := os.WriteFile(filepath.Join(mem, n+".md"), []byte("---\nname: "+n+"\ndescription: d\ntype: user\n---\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if held {
			t.Cleanup(HoldHome(home))
		}
		h0 := memoHits.Load()
		store, _ := ReadMemoryDir(MemoryFS(home, mem), ".")
		homeRead, _ := ReadMemoryDir(HomeFS(home), "projects/-p/memory")
		machine, _ := ReadMemoryDir(os.DirFS("/"), RootName(mem))
		if hits := memoHits.Load() - h0; hits != 6 {
			t.Errorf("held %v: %d of the 6 files of the second and third reads from the memo, want all", held, hits)
		}
		if len(store.Files) != 3 || !reflect.DeepEqual(store.Files, homeRead.Files) || !reflect.DeepEqual(store.Files, machine.Files) {
			t.Errorf("held %v: the reads differ:\n%+v\n%+v\n%+v", held, store.Files, homeRead.Files, machine.Files)
		}
	}
	forgetMemo()
}

// A read waiting for another's read of a file is woken when that read
// ends even if, meanwhile, the file changed and a third read claimed its
// new version: the first read keeps nothing, the waiting read reads the
// file itself, and every read answers. (Before, the first read's end
// found the newer claim and woke no one: the waiting read hung.)
func TestMemoWaitersWakeWhenAClaimIsReplaced(t *testing.T) {
	home := memoFolder(t, "a")
	g, waiting := gateA(t, home)
	var wg sync.WaitGroup
	var first, waiter *MemoryDir
	wg.Go(func() { first, _ = ReadMemoryDir(g, "m") })
	<-g.opening
	wg.Go(func() { waiter, _ = ReadMemoryDir(g, "m") })
	<-waiting
	// a.md changes; a third read claims and reads its new version.
	if err := os.WriteFile(filepath.Join(home, "m", "a.md"), []byte("---\nname: a\ndescription: changed\ntype: user\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, _ := ReadMemoryDir(g, "m")
	close(g.release)
	wg.Wait()
	for i, md := range []*MemoryDir{first, waiter, third} {
		if md == nil || len(md.Files) != 1 {
			t.Fatalf("read %d: %+v", i, md)
		}
	}
	if d := third.Files[0].Description; d != "changed" {
		t.Errorf("the third read: %q", d)
	}
}

// gateA is home's m/a.md gated (its first open waits for g.release) and
// the channel told when a read waits for another's (memoWaitHook).
func gateA(t *testing.T, home string) (g *gatedFS, waiting chan struct{}) {
	g = &gatedFS{countingFS: &countingFS{FS: os.DirFS(home), opened: map[string]int{}}, gate: "m/a.md",
		opening: make(chan struct{}), second: make(chan struct{}), release: make(chan struct{})}
	waiting = make(chan struct{}, 1)
	memoWaitHook = func() {
		select {
		case waiting <- struct{}{}:
		default:
		}
	}
	t.Cleanup(func() { memoWaitHook = nil })
	return g, waiting
}
