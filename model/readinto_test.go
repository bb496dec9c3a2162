package model

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// ReadRegularInto gives the bytes ReadFileBounded gives, on the disk (the
// fast path), through a mount and on any fs.FS, reusing one buffer.
func TestReadRegularIntoMatchesReadFileBounded(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"empty.txt": nil, "small.txt": []byte("hello\n"), "big.txt": bytes.Repeat([]byte("0123456789abcdef"), 40000)}
	mfs := fstest.MapFS{}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		mfs["sub/"+name] = &fstest.MapFile{Data: data}
	}
	var buf []byte
	for _, c := range []struct {
		name string
		fsys fs.FS
		pre  string
	}{{"disk", DirFS(dir), ""}, {"mount", MountFS(nil, "/m", DirFS(dir)), "m/"}, {"map", mfs, "sub/"}} {
		for name, want := range files {
			got, err := ReadRegularInto(c.fsys, c.pre+name, 1<<30, &buf)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s %s: %d bytes, %v; want %d", c.name, name, len(got), err, len(want))
			}
			if ref, err := ReadFileBounded(c.fsys, c.pre+name, 1<<30); err != nil || !bytes.Equal(ref, got) {
				t.Errorf("%s %s: ReadFileBounded disagrees (%v)", c.name, name, err)
			}
		}
	}
	if cap(buf) < len(files["big.txt"]) {
		t.Errorf("the buffer was not kept: cap %d", cap(buf))
	}
}

// A file larger than max, a folder, a named pipe and a missing file are
// refused at once, each with its error; nothing waits on the pipe.
func TestReadRegularIntoRefuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf []byte
	var tl *TooLargeError
	if _, err := ReadRegularInto(DirFS(dir), "big", 99, &buf); !errors.As(err, &tl) {
		t.Errorf("100 bytes, max 99: %v", err)
	}
	if got, err := ReadRegularInto(DirFS(dir), "big", 100, &buf); err != nil || len(got) != 100 {
		t.Errorf("100 bytes, max 100: %d, %v", len(got), err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, name := range []string{"folder", "pipe"} {
			if _, err := ReadRegularInto(DirFS(dir), name, 1<<20, &buf); !IsNotRegular(err) {
				t.Errorf("%s: %v, want not regular", name, err)
			}
		}
		if _, err := ReadRegularInto(DirFS(dir), "missing", 1<<20, &buf); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ReadRegularInto waited on a pipe")
	}
}

// readInto reads a file that grew since its stat to its end (and no
// further than max), and one that shrank to where it ends.
func TestReadIntoGrownAndShrunk(t *testing.T) {
	var buf []byte
	grown := bytes.Repeat([]byte("x"), 5000)
	r := bytes.NewReader(grown)
	got, err := readInto(r.Read, "f", 10, 1<<20, &buf)
	if err != nil || len(got) != len(grown) {
		t.Errorf("grown: %d bytes, %v", len(got), err)
	}
	r = bytes.NewReader(grown)
	var tl *TooLargeError
	if _, err := readInto(r.Read, "f", 10, 4000, &buf); !errors.As(err, &tl) {
		t.Errorf("grown past max: %v", err)
	}
	r = bytes.NewReader(grown[:3])
	if got, err := readInto(r.Read, "f", 10, 1<<20, &buf); err != nil || len(got) != 3 {
		t.Errorf("shrunk: %d bytes, %v", len(got), err)
	}
	calls := 0
	exact := func(b []byte) (int, error) {
		calls++
		if calls > 1 {
			return 0, io.EOF
		}
		return copy(b, grown[:10]), nil
	}
	if got, err := readInto(exact, "f", 10, 1<<20, &buf); err != nil || len(got) != 10 || calls != 1 {
		t.Errorf("as the stat said: %d bytes, %v, %d reads (want one)", len(got), err, calls)
	}
}

// ReadListedInto trusts the listing's type and size but not more: a file
// that grew since is read whole, and a pipe that took a file's place is
// refused at once (opened without blocking), not waited on.
func TestReadListedIntoOutlivesTheListing(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("y"), 3000)
	if err := os.WriteFile(filepath.Join(dir, "grew"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf []byte
	if got, err := ReadListedInto(DirFS(dir), "grew", 100, 1<<20, &buf); err != nil || !bytes.Equal(got, data) {
		t.Errorf("listed at 100 bytes, now 3000: %d, %v", len(got), err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadListedInto(DirFS(dir), "pipe", 10, 1<<20, &buf)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a pipe read as a file")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadListedInto waited on a pipe")
	}
}

// LooksBinary: a NUL in the first 8 KiB makes a file binary, one after
// them does not.
func TestLooksBinary(t *testing.T) {
	at := func(i int) []byte {
		b := bytes.Repeat([]byte("a"), 10000)
		b[i] = 0
		return b
	}
	for _, c := range []struct {
		data []byte
		want bool
	}{{nil, false}, {[]byte("text\n"), false}, {[]byte{0}, true}, {at(8191), true}, {at(8192), false}} {
		if got := LooksBinary(c.data); got != c.want {
			t.Errorf("%d bytes: %v, want %v", len(c.data), got, c.want)
		}
	}
}
