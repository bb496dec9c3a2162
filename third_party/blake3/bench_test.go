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
// chunks a first sync of memscope's vault bench home hashes (10 467
// chunks, 410 MB, mean 39 KB: memscope's scripts/vault-hash-paths.sh,
// docs/VAULT.md "i31h2"): small chunks are most of them, large ones most
// of the bytes.
var benchLengths = []int{
	65, 169, 269, 374, 488, 602, 714, 822, 931, 1056, 1174, 1293, 1448, 1604, 1766, 1946,
	2153, 2395, 2659, 2933, 3380, 4029, 4921, 8010, 22494, 47776, 76809, 117035, 167487, 235390, 263482, 278003,
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
