package hash

import (
	"github.com/zeebo/blake3/internal/alg/hash/hash_avx2"
	"github.com/zeebo/blake3/internal/alg/hash/hash_avx512"
	"github.com/zeebo/blake3/internal/alg/hash/hash_pure"
	"github.com/zeebo/blake3/internal/consts"
)

// F8Min: with AVX-512, inputs longer than this take HashF8 rather than
// the serial SSE4.1 compressions (memscope; the AVX2 code starts at 2
// chunks as upstream). HashF8 costs the same whatever the length; the
// serial code ~1.3 ns a byte: on the bench machine they meet near 1440
// bytes (1 400: HashF8 2.5 % slower; 1 500: 6 % faster; 2 048: 28 %
// faster; memscope's docs/VAULT.md, "i31h2").
const F8Min = 1440

func HashF(input *[8192]byte, length, counter uint64, flags uint32, key *[8]uint32, out *[64]uint32, chain *[8]uint32) {
	if consts.HasAVX512 && length > F8Min {
		// memscope: the AVX2 code with VPRORD rotations
		hash_avx512.HashF8(input, length, counter, flags, key, out, chain)
	} else if consts.HasAVX2 && length > 2*consts.ChunkLen {
		hash_avx2.HashF(input, length, counter, flags, key, out, chain)
	} else {
		hash_pure.HashF(input, length, counter, flags, key, out, chain)
	}
}

func HashP(left, right *[64]uint32, flags uint32, key *[8]uint32, out *[64]uint32, n int) {
	if consts.HasAVX512 && n >= 2 {
		hash_avx512.HashP8(left, right, flags, key, out, n)
	} else if consts.HasAVX2 && n >= 2 {
		hash_avx2.HashP(left, right, flags, key, out, n)
	} else {
		hash_pure.HashP(left, right, flags, key, out, n)
	}
}
