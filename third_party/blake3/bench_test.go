package blake3_test

// memscope: Sum256 over the lengths the vault hashes, for
// scripts/blake3-sum-ab.sh, which copies this file into an older tree to
// time both (it uses the package's API only).

import (
	"math/rand"
	"strconv"
	"testing"

	"github.com/zeebo/blake3"
)

// benchLengths are the 32 quantiles (by count) of the lengths of the
// chunks the vault hashes in a first sync of memscope's vault bench home
// (10 467 chunks, 406 MB: mean 38.8 KB; memscope's docs/VAULT.md,
// "i31h2"): small chunks are most of them, large ones most of the bytes.
var benchLengths = []int{
	65, 169, 269, 372, 488, 601, 714, 822, 931, 1056, 1174, 1293, 1448, 1604, 1766, 1946,
	2153, 2395, 2659, 2932, 3372, 4029, 4905, 7957, 22315, 47598, 76155, 116554, 165715, 232404, 261246, 275570,
}

// BenchmarkSum256Mix hashes benchLengths, each once, from one buffer;
// BenchmarkSum256Sizes the lengths around the ways an input ends.
// scripts/blake3-sum-ab.sh times both for two commits.
func BenchmarkSum256Mix(b *testing.B) {
	data := make([]byte, 2<<20)
	rand.New(rand.NewSource(1)).Read(data)
	total := 0
	for _, n := range benchLengths {
		total += n
	}
	b.SetBytes(int64(total))
	for i := 0; i < b.N; i++ {
		off := 0
		for _, n := range benchLengths {
			blake3.Sum256(data[off : off+n])
			off += n
		}
	}
}

func BenchmarkSum256Sizes(b *testing.B) {
	data := make([]byte, 256<<10)
	rand.New(rand.NewSource(1)).Read(data)
	for _, n := range []int{1100, 1500, 2048, 4096, 8300, 16500, 24576, 65536, 200000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				blake3.Sum256(data[:n])
			}
		})
	}
}
