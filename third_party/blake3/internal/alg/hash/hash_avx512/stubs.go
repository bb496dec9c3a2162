//go:build amd64
// +build amd64

// Package hash_avx512 compresses 16 whole chunks at once with AVX-512
// (third_party/blake3/MEMSCOPE.md).
package hash_avx512

// HashF16 compresses the 16 whole chunks of input (chunk counters counter
// to counter+15) and stores their chaining values in out, transposed as
// HashF's out: word j of chunk i at out[i/8][j*8+i%8]. The caller checks
// consts.HasAVX512.
//
//go:noescape
func HashF16(out *[2][64]uint32, input *[16384]byte, key *[8]uint32, counter uint64, flags uint32)

// HashF8 and HashP8 are hash_avx2's HashF and HashP with the rotations
// done by VPRORD (AVX-512VL; gen8.go). The caller checks
// consts.HasAVX512.
//
//go:noescape
func HashF8(input *[8192]byte, length, counter uint64, flags uint32, key *[8]uint32, out *[64]uint32, chain *[8]uint32)

//go:noescape
func HashP8(left, right *[64]uint32, flags uint32, key *[8]uint32, out *[64]uint32, n int)
