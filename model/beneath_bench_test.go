package model

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkHomeFSOpenRead opens, stats, reads and closes 2 000 small
// files of a home (a paste folder's shape) through HomeFS, as a cold
// stat does each paste and memory file: ns/op over the 2 000, so
// ns/op / 2000 is one file's cost, most of it system calls.
func BenchmarkHomeFSOpenRead(b *testing.B) {
	home := b.TempDir()
	dir := filepath.Join(home, "paste-cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	const files = 2000
	data := make([]byte, 5<<10)
	for i := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%016x.txt", i)), data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	fsys := HomeFS(home)
	buf := make([]byte, 64<<10)
	for b.Loop() {
		for i := range files {
			f, err := OpenRegular(fsys, fmt.Sprintf("paste-cache/%016x.txt", i))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.Stat(); err != nil {
				b.Fatal(err)
			}
			for {
				if _, err := f.Read(buf); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
			f.Close()
		}
	}
}
