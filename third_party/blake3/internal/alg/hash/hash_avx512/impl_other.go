//go:build !amd64
// +build !amd64

// Package hash_avx512 compresses 16 whole chunks at once with AVX-512
// (third_party/blake3/MEMSCOPE.md).
package hash_avx512

import "github.com/zeebo/blake3/internal/alg/hash/hash_pure"

// HashF16 is two calls of the pure Go HashF where there is no AVX-512.
func HashF16(out *[2][64]uint32, input *[16384]byte, key *[8]uint32, counter uint64, flags uint32) {
	var chain [8]uint32
	hash_pure.HashF((*[8192]byte)(input[:8192]), 8192, counter, flags, key, &out[0], &chain)
	hash_pure.HashF((*[8192]byte)(input[8192:]), 8192, counter+8, flags, key, &out[1], &chain)
}

// HashF8 is the pure Go HashF where there is no AVX-512.
func HashF8(input *[8192]byte, length, counter uint64, flags uint32, key *[8]uint32, out *[64]uint32, chain *[8]uint32) {
	hash_pure.HashF(input, length, counter, flags, key, out, chain)
}

// HashP8 is the pure Go HashP where there is no AVX-512.
func HashP8(left, right *[64]uint32, flags uint32, key *[8]uint32, out *[64]uint32, n int) {
	hash_pure.HashP(left, right, flags, key, out, n)
}
