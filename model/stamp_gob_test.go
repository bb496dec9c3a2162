package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"math"
	"testing"
)

// TestFileStampGob: a FileStamp keeps every field through gob (as the
// caches keep it, inside maps of entries), with and without a head hash,
// and its form is compact: the head hash as 32 bytes, not 32 numbers
// (the struct's own gob form took 87 bytes for such a stamp).
// A damaged form is an error, not a stamp.
func TestFileStampGob(t *testing.T) {
	type entry struct {
		Stamp FileStamp
		N     int
	}
	head := sha256.Sum256([]byte("the first bytes"))
	stamps := []FileStamp{
		{},
		{Size: 12, ModTime: 1_796_000_000_123_456_789, ChangeTime: 1_796_000_001_000_000_001, ID: FileID{Dev: 2049, Ino: 1 << 40, Known: true}},
		{Size: 4096, ModTime: -1, ChangeTime: 0, ID: FileID{Dev: math.MaxUint64, Ino: math.MaxUint64}, Head: head, HeadLen: 4096},
		{Size: math.MaxInt64, ModTime: math.MinInt64, ChangeTime: math.MaxInt64, Head: head, HeadLen: 0},
	}
	in := map[string]entry{}
	for i, s := range stamps {
		in[string(rune('a'+i))] = entry{Stamp: s, N: i}
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out map[string]entry
	if err := gob.NewDecoder(&b).Decode(&out); err != nil {
		t.Fatal(err)
	}
	for k, e := range in {
		if out[k] != e {
			t.Errorf("%s: %+v through gob is %+v", k, e, out[k])
		}
	}
	var one bytes.Buffer
	enc := gob.NewEncoder(&one)
	if err := enc.Encode(stamps[1]); err != nil {
		t.Fatal(err)
	}
	one.Reset() // the type's description is sent once; measure a value
	if err := enc.Encode(stamps[2]); err != nil {
		t.Fatal(err)
	}
	if one.Len() > 72 {
		t.Errorf("a stamp with a head hash takes %d bytes of gob, want at most 72", one.Len())
	}
	good, _ := stamps[2].GobEncode()
	for _, bad := range [][]byte{nil, {9}, good[:len(good)-1], append(good, 0), {stampGobVersion}} {
		var s FileStamp
		if err := s.GobDecode(bad); err == nil {
			t.Errorf("GobDecode(%v) = %+v, want an error", bad, s)
		}
	}
}
