package vault

import (
	"bytes"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/zeebo/blake3/pathcheck"
)

// TestBLAKE3Paths runs third_party/blake3's path checks (every code path
// the processor has, AVX-512 included, against the generic Go one), which
// go test ./... would not run from their own module
// (third_party/blake3/MEMSCOPE.md).
func TestBLAKE3Paths(t *testing.T) {
	pathcheck.Vectors(t)
	pathcheck.HashF16Counters(t)
	pathcheck.Sum256Agree(t, testenv.Long())
	if !testenv.Long() {
		t.Logf("keyed and derive-key modes on a sample of the lengths (%s=1 checks them all)", testenv.Var)
	}
	pathcheck.Agree(t, testenv.Long())
}

func FuzzBLAKE3Paths(f *testing.F) {
	f.Add([]byte("abc"), uint16(3), uint16(0))
	f.Add(bytes.Repeat([]byte{7}, 1025), uint16(40), uint16(1))
	f.Fuzz(pathcheck.Fuzz)
}
