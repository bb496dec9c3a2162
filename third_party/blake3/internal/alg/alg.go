package alg

import (
	"github.com/zeebo/blake3/internal/alg/compress"
	"github.com/zeebo/blake3/internal/alg/hash"
	"github.com/zeebo/blake3/internal/alg/hash/hash_avx512"
)

func HashF(input *[8192]byte, length, counter uint64, flags uint32, key *[8]uint32, out *[64]uint32, chain *[8]uint32) {
	hash.HashF(input, length, counter, flags, key, out, chain)
}

// HashF16 compresses 16 whole chunks; only when consts.HasAVX512 (memscope).
func HashF16(out *[2][64]uint32, input *[16384]byte, counter uint64, flags uint32, key *[8]uint32) {
	hash_avx512.HashF16(out, input, key, counter, flags)
}

func HashP(left, right *[64]uint32, flags uint32, key *[8]uint32, out *[64]uint32, n int) {
	hash.HashP(left, right, flags, key, out, n)
}

func Compress(chain *[8]uint32, block *[16]uint32, counter uint64, blen uint32, flags uint32, out *[16]uint32) {
	compress.Compress(chain, block, counter, blen, flags, out)
}
