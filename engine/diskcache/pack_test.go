package diskcache

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// names is a Packed value for the tests: strings, one a name.
type names []string

func (n names) Pack() []byte {
	p := Packer{B: []byte{7}}
	p.Uint(uint64(len(n)))
	for _, s := range n {
		p.Str(s)
	}
	return p.B
}

func (n *names) Unpack(b []byte) error {
	var u Unpacker
	u.Start(b, 7)
	out := make(names, u.Count(1))
	for i := range out {
		out[i] = u.Str()
	}
	if err := u.Done(); err != nil {
		return err
	}
	*n = out
	return nil
}

// TestPackedPayload: a Packed value is the cache file's payload as Pack
// wrote it (no gob message around it: a load copies it no second time)
// and loads back as it was; a payload Unpack refuses loads as nothing.
func TestPackedPayload(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, testroot.New(t), model.OSWriteFS{})
	want := names{"a", "", "projects/p/x.jsonl"}
	if err := Save(s, "names.1", "n", want); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "n"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, want.Pack()) || len(data) != len(s.header("names.1", want.Pack()))+len(want.Pack()) {
		t.Fatalf("the file's payload is not the packed form as it is")
	}
	got, ok := Load[names](s, "names.1", "n")
	if !ok || len(got) != len(want) || got[2] != want[2] || got[1] != "" {
		t.Fatalf("loaded %q (ok %v), want %q", got, ok, want)
	}
	bad := names{"x"}.Pack()
	bad[0] = 8 // another version
	if err := Save(s, "names.1", "n", rawPayload(bad)); err != nil {
		t.Fatal(err)
	}
	if got, ok := Load[names](s, "names.1", "n"); ok || got != nil {
		t.Fatalf("a payload Unpack refuses loaded %q", got)
	}
}

// rawPayload is a Packed value that is its bytes.
type rawPayload []byte

func (r rawPayload) Pack() []byte { return r }
