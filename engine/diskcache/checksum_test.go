package diskcache

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/model"
)

// TestChecksumIsCRC32C: a cache file is its header (magic, build, kind,
// the payload's length and CRC-32C) and the payload, as written here by
// hand; a file cut short, grown, or with any one byte of its payload or
// checksum changed is not loaded.
func TestChecksumIsCRC32C(t *testing.T) {
	s := newStore(t, model.OSWriteFS{})
	var p bytes.Buffer
	if err := gob.NewEncoder(&p).Encode(payload{Names: map[string]int{"x": 1}}); err != nil {
		t.Fatal(err)
	}
	var h bytes.Buffer
	h.WriteString("memscope cache 2\n" + s.build + "\n" + "k.1\n")
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(p.Len())))
	h.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(p.Bytes(), crc32.MakeTable(crc32.Castagnoli))))
	file := append(h.Bytes(), p.Bytes()...)
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	load := func(data []byte) bool {
		t.Helper()
		if err := os.WriteFile(filepath.Join(s.Dir(), "a.cache"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, ok := Load[payload](s, "k.1", "a.cache")
		return ok && got.Names["x"] == 1
	}
	if !load(file) {
		t.Fatal("a file with the CRC-32C of its payload did not load")
	}
	if !bytes.Equal(s.header("k.1", p.Bytes()), h.Bytes()) {
		t.Fatal("Save's header is not the one written by hand")
	}
	if load(file[:len(file)-1]) || load(append(append([]byte(nil), file...), 0)) {
		t.Error("a file cut short or grown loaded")
	}
	for i := h.Len() - sumSize; i < len(file); i++ {
		bad := append([]byte(nil), file...)
		bad[i] ^= 0x10
		if load(bad) {
			t.Fatalf("a file with byte %d of %d changed loaded", i, len(file))
		}
	}
}
