//go:build linux

package model

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// readDirFD lists a folder as an *os.File's ReadDir does: the same
// names, types and information (a file, a folder, a link, a pipe, a
// name of many entries over several reads), and a listed home's held
// listing is made by it, with no *os.File (whose making asks fcntl once
// a folder: some 1 000 calls a cold start on W). On the old code the
// held listing's entries were os's.
func TestReadDirFDListsAsOSDoes(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "projects", "p")
	if err := os.MkdirAll(filepath.Join(sub, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 300 { // more than one 8 KiB read
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("a-rather-long-file-name-%03d.jsonl", i)), []byte(strings.Repeat("x", i)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("memory", filepath.Join(sub, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(sub, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	describe := func(ents []fs.DirEntry) []string {
		var out []string
		for _, e := range ents {
			info, err := e.Info()
			s := fmt.Sprintf("%s %v %v %v", e.Name(), e.IsDir(), e.Type(), err)
			if err == nil {
				s += fmt.Sprintf(" %s %v %d", info.Name(), info.Mode(), info.Size())
			}
			out = append(out, s)
		}
		slices.Sort(out)
		return out
	}
	want, err := os.ReadDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(sub, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readDirFD(fd, sub)
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := describe(got), describe(want); !slices.Equal(g, w) {
		t.Errorf("readDirFD lists %d entries, os %d:\n%q\n%q", len(g), len(w), g, w)
	}

	l := ListOnce(HomeFS(dir)).(*listedFS)
	if l.held == nil {
		t.Skip("no held home here (no openat2)")
	}
	ents, ok := l.held.readDir(l, "projects/p")
	if !ok {
		t.Fatal("the held folder was not listed")
	}
	if len(ents) != len(want) {
		t.Fatalf("%d entries held, %d listed by os", len(ents), len(want))
	}
	for _, e := range ents {
		if _, raw := e.(*heldDirEntry).DirEntry.(*fdDirent); !raw {
			t.Fatalf("%s: a %T, listed through an *os.File", e.Name(), e.(*heldDirEntry).DirEntry)
		}
	}
}
