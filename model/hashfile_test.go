package model

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

// HashFile gives the FIPS 180-2 test vector for "abc" and its size, and
// a missing file as fs.ErrNotExist (callers tell "absent" from "unreadable").
func TestHashFile(t *testing.T) {
	fsys := fstest.MapFS{"a/abc.txt": {Data: []byte("abc")}}
	sum, n, err := HashFile(fsys, "a/abc.txt")
	if err != nil || n != 3 || sum != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("HashFile(abc) = %s %d %v", sum, n, err)
	}
	if _, _, err := HashFile(fsys, "a/none.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}
