package model

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// FuzzOpenTarHome feeds arbitrary tar streams to the archive reader
// OpenTarHome extracts with (after gzip, which is not fuzzed), in memory
// and with small limits: a run takes microseconds where writing, gzipping
// and extracting to a temporary folder took a millisecond and more, which
// left the fuzzer minimizing its first finds for the whole run (a few
// executions a minute). Reading must not panic, every entry handed out
// must be a local name, no body may be longer than declared, and the
// limits must hold. TestOpenTarHomeSkipsHostileEntries and
// TestOpenTarHomeRefusesBombs cover the extraction to disk.
func FuzzOpenTarHome(f *testing.F) {
	limits := TarLimits{Entry: 64 << 10, Total: 256 << 10}
	f.Fuzz(func(t *testing.T, data []byte) {
		var total int64
		_, err := scanTar(bytes.NewReader(data), limits, func(e TarEntry, body io.Reader) error {
			if !fs.ValidPath(e.Name) || !filepath.IsLocal(filepath.FromSlash(e.Name)) {
				t.Errorf("entry %q leaves the root", e.Name)
			}
			if e.Size > limits.Entry {
				t.Errorf("entry %q of %d bytes passed the %d limit", e.Name, e.Size, limits.Entry)
			}
			if body == nil {
				return nil
			}
			n, err := io.Copy(io.Discard, body)
			if n > e.Size {
				t.Errorf("entry %q gave %d bytes, declared %d", e.Name, n, e.Size)
			}
			total += n
			return err
		})
		if total > limits.Total {
			t.Errorf("%d bytes handed out, limit %d", total, limits.Total)
		}
		var bomb *TarBombError
		if errors.As(err, &bomb) && bomb.Error() == "" {
			t.Error("empty refusal")
		}
	})
}

// An archive whose entry, or whose total, expands past the limits is
// refused before that entry is written, and nothing of it is left.
func TestOpenTarHomeRefusesBombs(t *testing.T) {
	zeros := func(n int) tar.Header {
		return tar.Header{Typeflag: tar.TypeReg, Name: "projects/-a/big.jsonl", Size: int64(n), Mode: 0o600}
	}
	write := func(t *testing.T, hdrs []tar.Header) string {
		p := filepath.Join(t.TempDir(), "bomb.tar.gz")
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		for i, h := range hdrs {
			h.Name = fmt.Sprintf("%s.%d", h.Name, i)
			if err := tw.WriteHeader(&h); err != nil {
				t.Fatal(err)
			}
			tw.Write(make([]byte, h.Size))
		}
		tw.Close()
		gz.Close()
		if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	limits := TarLimits{Entry: 1 << 20, Total: 3 << 20}
	for name, tc := range map[string]struct {
		hdrs  []tar.Header
		total bool
	}{
		"entry": {[]tar.Header{zeros(1 << 10), zeros(1<<20 + 1)}, false},
		"total": {[]tar.Header{zeros(1 << 20), zeros(1 << 20), zeros(1 << 20), zeros(1)}, true},
	} {
		t.Run(name, func(t *testing.T) {
			before, _ := filepath.Glob(filepath.Join(os.TempDir(), "memscope-archive-*"))
			_, _, _, err := OpenTarHomeWith(write(t, tc.hdrs), limits)
			var bomb *TarBombError
			if !errors.As(err, &bomb) || bomb.Total != tc.total || !strings.Contains(err.Error(), "decompression bomb") {
				t.Fatalf("err = %v, want a refusal (total %v)", err, tc.total)
			}
			after, _ := filepath.Glob(filepath.Join(os.TempDir(), "memscope-archive-*"))
			if len(after) > len(before) {
				t.Errorf("extraction left behind: %v", after)
			}
		})
	}
	// At the limits, the archive opens.
	h, closeHome, _, err := OpenTarHomeWith(write(t, []tar.Header{zeros(1 << 20), zeros(1 << 20), zeros(1 << 20)}), limits)
	if err != nil {
		t.Fatal(err)
	}
	closeHome()
	_ = h
	// The decompressed stream is bounded too, whatever the entries handed
	// out: a skipped entry's content is read through the same bound.
	skipped := tar.Header{Typeflag: 'x' + 1, Name: "odd", Size: 4 << 20, Mode: 0o600}
	_, _, _, err = OpenTarHomeWith(write(t, []tar.Header{skipped}), limits)
	var bomb *TarBombError
	if !errors.As(err, &bomb) || !bomb.Total {
		t.Errorf("a skipped 4 MiB entry: err = %v, want the stream refused", err)
	}
}

// TestOpenTarHomeDotSlashEntries: `tar -C ~/.claude -czf x.tar.gz .`
// names every entry "./…"; the home it holds opens with its files, and a
// "./" in front of a name that leaves the root does not let it out.
func TestOpenTarHomeDotSlashEntries(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "h.tar.gz")
	mt := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	writeTarGz(t, archive, []tar.Header{
		{Typeflag: tar.TypeDir, Name: "./", Mode: 0o700, ModTime: mt},
		{Typeflag: tar.TypeDir, Name: "./projects/", Mode: 0o700, ModTime: mt},
		{Typeflag: tar.TypeDir, Name: "./projects/-a/", Mode: 0o700, ModTime: mt},
		{Typeflag: tar.TypeReg, Name: "./projects/-a/s.jsonl", Mode: 0o600, ModTime: mt},
		{Typeflag: tar.TypeReg, Name: "././history.jsonl", Mode: 0o600, ModTime: mt},
		{Typeflag: tar.TypeReg, Name: "./../escape.txt", Mode: 0o600, ModTime: mt},
	})
	h, closeHome, probs, err := OpenTarHome(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer closeHome()
	var files []string
	fs.WalkDir(h.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if want := []string{"history.jsonl", "projects/-a/s.jsonl"}; !equalStrings(files, want) {
		t.Errorf("extracted %v, want %v", files, want)
	}
	if len(probs) != 1 || probs[0].File != "./../escape.txt" {
		t.Errorf("problems %+v, want only ./../escape.txt", probs)
	}
	if _, err := os.Stat(filepath.Join(dir, "escape.txt")); err == nil {
		t.Error("an entry escaped the extraction folder")
	}
}
