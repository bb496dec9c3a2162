//go:build linux || darwin

package model

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// keepAsRead hands the home's memory file name (under home) to the memo
// as a reader that read it whole would (KeepMemoryRead), its stamp from
// an open of it.
func keepAsRead(t *testing.T, home, name string) {
	t.Helper()
	f, err := os.Open(filepath.Join(home, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	KeepMemoryRead(name, StampOf(info), data)
}

// shareTexts are the files of shareFolder's memory folder: a topic
// file, one whose frontmatter does not read, and the index.
var shareTexts = map[string]string{
	"a.md":      "---\nname: a\ndescription: the a\ntype: user\n---\n\nbody a\n",
	"b.md":      "---\nname: [b\n---\nbad frontmatter\n",
	"MEMORY.md": "- [A](a.md) — a\n",
}

// shareFolder is a home (an empty memo) whose projects/-p/memory (mem)
// holds shareTexts.
func shareFolder(t *testing.T) (home, mem string) {
	t.Helper()
	forgetMemo()
	t.Cleanup(forgetMemo)
	home = t.TempDir()
	mem = filepath.Join(home, "projects", "-p", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, text := range shareTexts {
		if err := os.WriteFile(filepath.Join(mem, n), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home, mem
}

// A memory file another reader read whole (the secrets count) is not
// opened again by the folder's scan nor by a read, which answer what
// they answer reading it themselves; the scan takes the bytes out of
// the memo (it holds no file past its reader), a read keeps the file
// parsed. A file written since it was read is read again, its new
// bytes seen; a file outside a project's memory folder, or not a topic
// file, is not kept.
func TestKeptMemoryReadIsNotReadAgain(t *testing.T) {
	home, mem := shareFolder(t)
	dir := "projects/-p/memory"
	// What the readers answer reading every file themselves.
	own := func() (*MemoryDir, []Problem, []*MemoryFile) {
		forgetMemo()
		md, probs := ReadMemoryDir(os.DirFS(home), dir)
		var scanned []*MemoryFile
		ScanMemoryDir(os.DirFS(home), dir, func(f *MemoryFile) { scanned = append(scanned, f) })
		forgetMemo()
		return md, probs, scanned
	}
	wantMD, wantProbs, wantScan := own()

	for _, n := range []string{"a.md", "b.md", "MEMORY.md"} {
		keepAsRead(t, home, dir+"/"+n)
	}
	c := &countingFS{FS: os.DirFS(home), opened: map[string]int{}}
	var scanned []*MemoryFile
	_, probs := ScanMemoryDir(c, dir, func(f *MemoryFile) { scanned = append(scanned, f) })
	if got := c.topicOpens(); len(got) != 0 || c.opened[dir+"/MEMORY.md"] != 0 {
		t.Errorf("the scan opened %v, want nothing (all kept)", c.opened)
	}
	if !reflect.DeepEqual(scanned, wantScan) || !reflect.DeepEqual(probs, wantProbs) {
		t.Errorf("the scan from kept bytes:\n%+v\n%+v\nreading itself:\n%+v\n%+v", scanned, probs, wantScan, wantProbs)
	}
	fileMemo.Lock()
	held := 0
	for _, e := range fileMemo.m {
		if e.raw != nil || e.file != nil && e.file.Path != "" {
			held++
		}
	}
	fileMemo.Unlock()
	if held != 0 {
		t.Errorf("the memo holds %d topic files after the scan took them, want 0 (MEMORY.md aside)", held)
	}

	// A read keeps the file parsed: a second read opens nothing either.
	keepAsRead(t, home, dir+"/a.md")
	md, probs := ReadMemoryDir(c, dir)
	md2, _ := ReadMemoryDir(c, dir)
	if k := c.topicOpens()[dir+"/a.md"]; k != 0 {
		t.Errorf("a.md opened %d times by two reads after it was kept, want 0", k)
	}
	if !reflect.DeepEqual(md, wantMD) || !reflect.DeepEqual(md2, wantMD) || !reflect.DeepEqual(probs, wantProbs) {
		t.Errorf("the read from kept bytes:\n%+v\n%+v\nreading itself:\n%+v\n%+v", md, probs, wantMD, wantProbs)
	}

	// Kept, then written (same size, mtime a second on): read again.
	keepAsRead(t, home, dir+"/a.md")
	if err := os.WriteFile(filepath.Join(mem, "a.md"), []byte("---\nname: a\ndescription: the A\ntype: user\n---\n\nbody a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(filepath.Join(mem, "a.md"), later, later); err != nil {
		t.Fatal(err)
	}
	n := 0
	ScanMemoryDir(c, dir, func(f *MemoryFile) {
		if f.Path == "a.md" {
			n++
			if f.Description != "the A" {
				t.Errorf("after a write the scan saw %q, want the new bytes", f.Description)
			}
		}
	})
	if k := c.topicOpens()[dir+"/a.md"]; n != 1 || k != 1 {
		t.Errorf("a.md written after it was kept: scanned %d, opened %d times, want 1 and 1", n, k)
	}

	// Not a project memory folder's topic file: not kept.
	forgetMemo()
	KeepMemoryRead("projects/-p/memory/sessions/a.md", FileStamp{Size: 1, ID: FileID{Known: true}}, []byte("x"))
	KeepMemoryRead("agent-memory/x/a.md", FileStamp{Size: 1, ID: FileID{Known: true}}, []byte("x"))
	KeepMemoryRead("projects/-p/memory/team/a.md", FileStamp{Size: 1, ID: FileID{Known: true}}, []byte("x"))
	KeepMemoryRead("projects/-p/memory/c.md", FileStamp{Size: 2, ID: FileID{Known: true}}, []byte("x"))
	fileMemo.Lock()
	kept := len(fileMemo.m)
	fileMemo.Unlock()
	if kept != 0 {
		t.Errorf("%d files kept that are not a memory folder's topic files read whole, want 0", kept)
	}
}

// What a memory folder's read read (the open project's load, before the
// secrets count) is handed to a reader that opened the file and finds it
// as read (KeptMemoryRead), a file with a problem included (kept as its
// bytes); a file written since is not.
func TestKeptMemoryReadAnswersWhatAReadRead(t *testing.T) {
	home, mem := shareFolder(t)
	texts := shareTexts
	dir := "projects/-p/memory"
	stamp := func(n string) FileStamp {
		info, err := os.Stat(filepath.Join(mem, n))
		if err != nil {
			t.Fatal(err)
		}
		return StampOf(info)
	}
	for n := range texts {
		if _, ok := KeptMemoryRead(dir+"/"+n, stamp(n)); ok {
			t.Errorf("%s kept before any read", n)
		}
	}
	ReadMemoryDir(os.DirFS(home), dir)
	for n, text := range texts {
		if got, ok := KeptMemoryRead(dir+"/"+n, stamp(n)); !ok || string(got) != text {
			t.Errorf("%s after a read: %q, %v; want its bytes", n, got, ok)
		}
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(filepath.Join(mem, "a.md"), later, later); err != nil {
		t.Fatal(err)
	}
	if _, ok := KeptMemoryRead(dir+"/a.md", stamp("a.md")); ok {
		t.Error("a.md touched after the read: still answered")
	}
}
