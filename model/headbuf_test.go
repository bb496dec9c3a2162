package model

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// A stamp's head hash reads into a pooled buffer: stamping the thousands
// of files a warm start checks makes no 4 KiB of garbage each. The hash
// is the head's.
func TestHashHeadAllocatesNoBuffer(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), TailHeadMax/16+3)
	r := bytes.NewReader(data)
	want := sha256.Sum256(data[:TailHeadMax])
	if h, n, err := hashHead(r, TailHeadMax); err != nil || n != TailHeadMax || h != want {
		t.Fatalf("hashHead: %x %d %v, want %x", h, n, err, want)
	}
	if h, _, _ := hashHead(r, 10); h != sha256.Sum256(data[:10]) {
		t.Fatal("a short head hashes other bytes")
	}
	if a := testing.AllocsPerRun(100, func() { hashHead(r, TailHeadMax) }); a >= 0.5 {
		t.Errorf("hashHead allocates %.2f times a call, want none", a)
	}
}
