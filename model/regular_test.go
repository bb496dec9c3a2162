package model_test

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/model"
)

// within fails the test when fn has not returned after a few seconds: a
// read of a named pipe must never block.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not return: it blocked", what)
	}
}

// specialDir holds a regular file, a folder, a named pipe, links to
// /dev/zero and /dev/urandom and a socket.
func specialDir(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("named pipes and devices are a unix matter")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plain.md"), []byte("plain\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero.md": "/dev/zero", "random.md": "/dev/urandom", "plainlink.md": "plain.md"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return dir
}

var specialKinds = map[string]string{
	"pipe.md":   "named pipe",
	"zero.md":   "character device",
	"random.md": "character device",
	"sock.md":   "socket",
}

func TestDirFSRefusesSpecialFiles(t *testing.T) {
	dir := specialDir(t)
	fsys := model.DirFS(dir)
	for name, kind := range specialKinds {
		check := func(what string, err error) {
			t.Helper()
			var nr *model.NotRegularError
			if !errors.As(err, &nr) || nr.Kind != kind || !strings.Contains(err.Error(), name) {
				t.Errorf("%s %s: got %v, want a %s named %s", what, name, err, kind, name)
			}
		}
		within(t, "reading "+name, func() {
			_, err := fsys.Open(name)
			check("Open", err)
			_, err = fs.ReadFile(fsys, name)
			check("fs.ReadFile", err)
			_, err = model.OpenRegular(fsys, name)
			check("OpenRegular", err)
			_, err = model.ReadFileBounded(fsys, name, 1<<20)
			check("ReadFileBounded", err)
			_, err = model.ReadRegularFile(filepath.Join(dir, name), 1<<20)
			check("ReadRegularFile", err)
			sub, _ := fs.Sub(model.MountFS(nil, "/x", fsys), "x")
			_, err = fs.ReadFile(sub, name)
			check("fs.ReadFile of a Sub of a MountFS", err)
			_, err = model.OpenRegular(model.MountFS(nil, "/x", fsys), "x/"+name)
			check("OpenRegular of a MountFS", err)
			if _, err := fs.ReadDir(fsys, name); err == nil {
				t.Errorf("ReadDir %s: no error", name)
			}
		})
	}
	// Regular files (through a link too) and folders still read.
	for _, name := range []string{"plain.md", "plainlink.md"} {
		if data, err := model.ReadFileBounded(fsys, name, 6); err != nil || string(data) != "plain\n" {
			t.Errorf("ReadFileBounded %s: %q, %v", name, data, err)
		}
	}
	if entries, err := fs.ReadDir(fsys, "."); err != nil || len(entries) != 7 || entries[0].Name() != "pipe.md" {
		t.Errorf("ReadDir .: %d entries, %v", len(entries), err)
	}
	if _, err := model.OpenRegular(fsys, "sub"); !model.IsNotRegular(err) {
		t.Errorf("OpenRegular of a folder: %v", err)
	}
	if _, err := fsys.Open("missing.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %v", err)
	}
	if _, err := fsys.Open("../escape"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Open ../escape: %v", err)
	}
}

func TestFSTestConformance(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.md", "d/b.md", "d/e/c.md"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := fstest.TestFS(model.DirFS(dir), "a.md", "d/b.md", "d/e/c.md"); err != nil {
		t.Error(err)
	}
}

// OpenRegular checks any fs.FS by its file modes, before and after the
// open.
func TestOpenRegularOtherFS(t *testing.T) {
	fsys := fstest.MapFS{
		"pipe": {Mode: fs.ModeNamedPipe},
		"dev":  {Mode: fs.ModeDevice | fs.ModeCharDevice},
		"ok":   {Data: []byte("ok")},
	}
	for name, kind := range map[string]string{"pipe": "named pipe", "dev": "character device"} {
		_, err := model.OpenRegular(fsys, name)
		var nr *model.NotRegularError
		if !errors.As(err, &nr) || nr.Kind != kind {
			t.Errorf("%s: %v, want %s", name, err, kind)
		}
	}
	if data, err := model.ReadFileBounded(fsys, "ok", 2); err != nil || string(data) != "ok" {
		t.Errorf("ok: %q, %v", data, err)
	}
}

// A file over the limit is refused by its size, and one that grows
// while it is read (a device's size is 0) is cut off one byte past it.
func TestReadFileBoundedLimit(t *testing.T) {
	fsys := fstest.MapFS{"big": {Data: make([]byte, 1001)}}
	_, err := model.ReadFileBounded(fsys, "big", 1000)
	var tl *model.TooLargeError
	if !errors.As(err, &tl) || tl.Size != 1001 || tl.Max != 1000 {
		t.Errorf("got %v, want a TooLargeError of 1001 > 1000", err)
	}
	if data, err := model.ReadFileBounded(fsys, "big", 1001); err != nil || len(data) != 1001 {
		t.Errorf("at the limit: %d bytes, %v", len(data), err)
	}
	if _, err := model.ReadFileBounded(growing{}, "grows", 4096); !errors.As(err, &tl) || tl.Size != 0 || tl.Max != 4096 {
		t.Errorf("a growing file: %v", err)
	}
}

// growing is an fs.FS of one file that says it is empty and never ends.
type growing struct{}

func (growing) Open(string) (fs.File, error) { return growingFile{}, nil }

type growingFile struct{}

func (growingFile) Stat() (fs.FileInfo, error) { return growingInfo{}, nil }
func (growingFile) Read(p []byte) (int, error) { return len(p), nil }
func (growingFile) Close() error               { return nil }

type growingInfo struct{}

func (growingInfo) Name() string       { return "grows" }
func (growingInfo) Size() int64        { return 0 }
func (growingInfo) Mode() fs.FileMode  { return 0o600 }
func (growingInfo) ModTime() time.Time { return time.Time{} }
func (growingInfo) IsDir() bool        { return false }
func (growingInfo) Sys() any           { return nil }
