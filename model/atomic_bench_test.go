package model

import (
	"bytes"
	"path/filepath"
	"testing"
)

// BenchmarkWriteFileAtomic replaces a 4 KiB memory file, fsyncs included,
// through the real OS: the WriteFS seam adds an interface call per step
// to calls that each cost a system call.
func BenchmarkWriteFileAtomic(b *testing.B) {
	path := filepath.Join(b.TempDir(), "MEMORY.md")
	data := bytes.Repeat([]byte("- [x](x.md) — a line of the index\n"), 4096/34)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := WriteFileAtomic(path, data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
}
