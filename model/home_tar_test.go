package model

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// writeTarGz writes a .tar.gz with the given headers (regular files get
// their Name as content).
func writeTarGz(t *testing.T, path string, hdrs []tar.Header) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, h := range hdrs {
		h := h
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(h.Name))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(h.Name))
		}
	}
	tw.Close()
	gz.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestOpenTarHomeSkipsHostileEntries(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "h.tar.gz")
	mt := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	writeTarGz(t, archive, []tar.Header{
		{Typeflag: tar.TypeDir, Name: "projects/", Mode: 0o700, ModTime: mt},
		{Typeflag: tar.TypeReg, Name: "projects/-a/s.jsonl", Mode: 0o600, ModTime: mt},
		{Typeflag: tar.TypeReg, Name: "../escape.txt", Mode: 0o600, ModTime: mt},
		{Typeflag: tar.TypeReg, Name: "/abs.txt", Mode: 0o600, ModTime: mt},
		{Typeflag: tar.TypeSymlink, Name: "link", Linkname: "/etc/passwd", ModTime: mt},
		{Typeflag: tar.TypeLink, Name: "hard", Linkname: "projects/-a/s.jsonl", ModTime: mt},
	})
	h, closeHome, probs, err := OpenTarHome(archive)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	fs.WalkDir(h.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != 1 || files[0] != "projects/-a/s.jsonl" {
		t.Errorf("extracted %v, want only projects/-a/s.jsonl", files)
	}
	var skipped []string
	for _, p := range probs {
		skipped = append(skipped, p.File)
	}
	sort.Strings(skipped)
	if want := []string{"../escape.txt", "/abs.txt", "hard", "link"}; !equalStrings(skipped, want) {
		t.Errorf("problems for %v, want %v", skipped, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "escape.txt")); err == nil {
		t.Error("an entry escaped the extraction folder")
	}
	st, err := fs.Stat(h.FS, "projects/-a/s.jsonl")
	if err != nil || !st.ModTime().Equal(mt) || st.Mode().Perm() != 0o400 {
		t.Errorf("extracted file: %v mode %v mtime %v", err, st.Mode(), st.ModTime())
	}
	if h.Source != HomeFromArchive {
		t.Errorf("source %q", h.Source)
	}
	if err := closeHome(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(h.Dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("extracted folder left behind: %v", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestOpenTarHomeErrors(t *testing.T) {
	dir := t.TempDir()
	notGz := filepath.Join(dir, "x.tar.gz")
	os.WriteFile(notGz, []byte("plain text"), 0o600)
	if _, _, _, err := OpenTarHome(notGz); err == nil {
		t.Error("a file that is not gzip opened")
	}
	tests := []struct {
		name string
		want bool
	}{{"h.tar.gz", true}, {"H.TGZ", true}, {"h.tar", false}, {"dir.tar.gz", false}}
	os.Mkdir(filepath.Join(dir, "dir.tar.gz"), 0o700)
	for _, tt := range tests {
		p := filepath.Join(dir, tt.name)
		if tt.want {
			os.WriteFile(p, nil, 0o600)
		}
		if got := IsTarHome(p); got != tt.want {
			t.Errorf("IsTarHome(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// FuzzOpenTarHome feeds arbitrary tar streams (gzipped here, so the fuzzer
// works on the tar layer): opening must not panic, and every extracted
// file must sit inside the extraction folder.
func FuzzOpenTarHome(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "f.tar.gz")
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		gz.Write(data)
		gz.Close()
		if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		h, closeHome, _, err := OpenTarHome(p)
		if err != nil {
			return
		}
		root, _ := filepath.EvalSymlinks(h.Dir)
		filepath.WalkDir(h.Dir, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				t.Errorf("symlink extracted: %s", q)
			}
			real, _ := filepath.EvalSymlinks(q)
			if rel, err := filepath.Rel(root, real); err != nil || !(rel == "." || filepath.IsLocal(rel)) {
				t.Errorf("%s is outside %s", real, root)
			}
			return nil
		})
		if err := closeHome(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(h.Dir); err == nil {
			t.Errorf("%s left behind", h.Dir)
		}
	})
}
