package blake3_test

// memscope: the path checks of package pathcheck, which memscope's own
// tests run too (engine/vault/blake3paths_test.go).

import (
	"bytes"
	"math/rand"
	"os"
	"testing"

	"github.com/zeebo/blake3"
	"github.com/zeebo/blake3/pathcheck"
)

func TestPathsPublishedVectors(t *testing.T) { pathcheck.Vectors(t) }

func TestPathsAgree(t *testing.T) { pathcheck.Agree(t, os.Getenv("MEMSCOPE_LONG") != "") }

func TestHashF16Counters(t *testing.T) { pathcheck.HashF16Counters(t) }

func TestSum256Agree(t *testing.T) { pathcheck.Sum256Agree(t, os.Getenv("MEMSCOPE_LONG") != "") }

func FuzzPaths(f *testing.F) {
	f.Add([]byte("abc"), uint16(3), uint16(0))
	f.Add(bytes.Repeat([]byte{7}, 1025), uint16(40), uint16(1))
	f.Fuzz(pathcheck.Fuzz)
}

// BenchmarkSum256 is the vault's use: one Sum256 of a chunk.
func BenchmarkSum256(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"8KiB", 8 << 10}, {"128KiB", 128 << 10}, {"4MiB", 4 << 20}} {
		data := make([]byte, size.n)
		rand.New(rand.NewSource(1)).Read(data)
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(size.n))
			for i := 0; i < b.N; i++ {
				blake3.Sum256(data)
			}
		})
	}
}
