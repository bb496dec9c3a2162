package blake3

// memscope: Sum256 of one input in one go, without the streaming
// hasher (MEMSCOPE.md; memscope's docs/VAULT.md, "i31h2").

import (
	"encoding/binary"
	"unsafe"

	"github.com/zeebo/blake3/internal/alg"
	"github.com/zeebo/blake3/internal/alg/hash"
	"github.com/zeebo/blake3/internal/consts"
)

// treeBlocks is how many groups of 8 chaining values sumTree holds at
// most: inputs of up to 8*treeBlocks chunks (512 KiB) take it.
const treeBlocks = 64

// sumTree sets sum to the unkeyed BLAKE3-256 of data, which is more
// than one chunk long; !ok (sum untouched) when it is longer than
// 8*treeBlocks chunks or the processor lacks AVX-512.
//
// The streaming hasher pushed each chunk's chaining value onto its
// stack one at a time (copying it word by word into and out of the
// transposed buffers) and merged the stack's levels serially at its
// end; here the whole input's chunk values are computed first (16
// chunks at a time in place, then the last ones), then the tree is
// reduced a level at a time, 8 parents at a time. BLAKE3's tree is that
// of the pairwise reduction with an odd last value carried up a level
// (the left subtrees complete), so the root is the same.
//
// The values are held on the stack, 8 to a chainVector in hash_avx2's
// transposed layout (word j of value 8g+l at cv[g][j*8+l]), in an array
// sized to the input, as Go zeroes it: 512 bytes up to 16 chunks, 4 KiB
// up to 128, 16 KiB up to 512 (a sync.Pool dropped its scratch at
// random under the race detector, allocating).
func sumTree(data []byte, sum *[32]byte) (ok bool) {
	if !consts.HasAVX512 || len(data) <= consts.ChunkLen || len(data) > treeBlocks*8*consts.ChunkLen {
		return false
	}
	switch n := (len(data) - 1) / consts.ChunkLen; {
	case n < 16:
		var cv [2]chainVector
		sumTreeIn(data, cv[:], sum)
	case n < 128:
		var cv [16]chainVector
		sumTreeIn(data, cv[:], sum)
	default:
		var cv [treeBlocks]chainVector
		sumTreeIn(data, cv[:], sum)
	}
	return true
}

// sumTreeIn is sumTree with room for the values of data's chunks in cv.
func sumTreeIn(data []byte, cv []chainVector, sum *[32]byte) {
	key := &consts.IV
	// n chunks are whole and followed by more input; the last chunk
	// (1 to 1024 bytes) is chunk n.
	n := (len(data) - 1) / consts.ChunkLen
	p := unsafe.Pointer(&data[0])
	i := 0
	for ; i+16 <= n; i += 16 {
		alg.HashF16((*[2][64]uint32)(unsafe.Pointer(&cv[i/8])), (*[16384]byte)(unsafe.Add(p, i*consts.ChunkLen)), uint64(i), 0, key)
	}
	chain := *key
	if i+8 <= n {
		alg.HashF((*[8192]byte)(unsafe.Add(p, i*consts.ChunkLen)), 8192, uint64(i), 0, key, &cv[i/8], &chain)
		i += 8
	}
	// The rest, chunks i to n (at most 8 KiB): the value of each whole
	// chunk, and chain, the last chunk's before its last block.
	r := len(data) - i*consts.ChunkLen
	last := r - (n-i)*consts.ChunkLen
	blen := last % consts.BlockLen
	if blen == 0 {
		blen = consts.BlockLen
	}
	if r > hash.F8Min {
		lastF8(data[i*consts.ChunkLen:], uint64(i), &cv[i/8], &chain)
	} else {
		chain = lastSerial(data[i*consts.ChunkLen:], uint64(i), n-i, last-blen, cv)
	}
	flags := consts.Flag_ChunkEnd
	if last <= consts.BlockLen {
		chain = *key
		flags |= consts.Flag_ChunkStart
	}
	var block [16]uint32
	copy((*[64]byte)(unsafe.Pointer(&block))[:], data[len(data)-blen:])
	if !consts.OptimizeLittleEndian {
		for w := range block {
			block[w] = binary.LittleEndian.Uint32((*[64]byte)(unsafe.Pointer(&block))[4*w:])
		}
	}
	var out [16]uint32
	alg.Compress(&chain, &block, uint64(n), uint32(blen), flags, &out)
	writeChain((*[8]uint32)(out[:8]), &cv[n/8], n%8)

	// The levels: m values, paired (2p, 2p+1), an odd last one carried.
	for m := n + 1; m > 2; {
		pairs := m / 2
		var carried [8]uint32
		if m%2 == 1 {
			readChain(&cv[(m-1)/8], (m-1)%8, &carried)
		}
		for q := 0; q*8 < pairs; q++ {
			var left, right chainVector
			b, k := 2*q+1, pairs-8*q
			if b == len(cv) { // pairs 8q.. are all in block 2q
				b--
			}
			if k > 8 {
				k = 8
			}
			unzipChains(&cv[2*q], &cv[b], &left, &right)
			alg.HashP(&left, &right, consts.Flag_Parent, key, &cv[q], k)
		}
		if m%2 == 1 {
			writeChain(&carried, &cv[pairs/8], pairs%8)
		}
		m = pairs + m%2
	}
	// The root: the parent of the last two.
	readChain(&cv[0], 0, (*[8]uint32)(block[:8]))
	readChain(&cv[0], 1, (*[8]uint32)(block[8:]))
	alg.Compress(key, &block, 0, consts.BlockLen, consts.Flag_Parent|consts.Flag_Root, &out)
	for w := 0; w < 8; w++ {
		binary.LittleEndian.PutUint32(sum[4*w:], out[w])
	}
}

// lastF8 hashes the last chunks of an input, rest (1 441 bytes to 8 KiB,
// chunk counter counter on), with HashF8 from a copy (it reads 8 KiB):
// the values of its whole chunks into out, and chain, the last chunk's
// before its last block. Not inlined: the copy's 8 KiB, zeroed, are on
// the stack only when taken.
//
//go:noinline
func lastF8(rest []byte, counter uint64, out *chainVector, chain *[8]uint32) {
	var buf [8192]byte
	r := copy(buf[:], rest)
	alg.HashF(&buf, uint64(r), counter, 0, &consts.IV, out, chain)
}

// lastSerial hashes the last chunks of an input, rest (at most 1 440
// bytes: whole whole chunks, then the last one, whose first before
// bytes are whole blocks before its last), one compression at a time
// from rest itself: the whole chunks' values into cv (chunk counter
// counter on), and the last chunk's chaining value before its last
// block.
func lastSerial(rest []byte, counter uint64, whole, before int, cv []chainVector) [8]uint32 {
	var out [16]uint32
	blocks := func(b []byte, counter uint64, end bool) [8]uint32 {
		chain := consts.IV
		flags := consts.Flag_ChunkStart
		for off := 0; off < len(b); off += consts.BlockLen {
			if end && off+consts.BlockLen == len(b) {
				flags |= consts.Flag_ChunkEnd
			}
			var block *[16]uint32
			var words [16]uint32
			if consts.OptimizeLittleEndian {
				block = (*[16]uint32)(unsafe.Pointer(&b[off]))
			} else {
				for w := range words {
					words[w] = binary.LittleEndian.Uint32(b[off+4*w:])
				}
				block = &words
			}
			alg.Compress(&chain, block, counter, consts.BlockLen, flags, &out)
			chain = *(*[8]uint32)(unsafe.Pointer(&out[0]))
			flags = 0
		}
		return chain
	}
	for c := 0; c < whole; c++ {
		v := blocks(rest[c*consts.ChunkLen:(c+1)*consts.ChunkLen], counter+uint64(c), true)
		k := int(counter) + c
		writeChain(&v, &cv[k/8], k%8)
	}
	return blocks(rest[whole*consts.ChunkLen:whole*consts.ChunkLen+before], counter+uint64(whole), false)
}

// unzipChains splits the 16 values of a and b (values 0-7, 8-15) into
// the left (even) and right (odd) values of their 8 pairs, each in the
// transposed layout.
//
// Word j of values 2l and 2l+1 are side by side, so each pair is read as
// one 64-bit word, the even value's in its low half: sumTree runs only
// with AVX-512, on amd64, a little-endian machine.
func unzipChains(a, b, left, right *chainVector) {
	a2 := (*[32]uint64)(unsafe.Pointer(a))
	b2 := (*[32]uint64)(unsafe.Pointer(b))
	for j := 0; j < 8; j++ {
		for l := 0; l < 4; l++ {
			x, y := a2[j*4+l], b2[j*4+l]
			left[j*8+l], right[j*8+l] = uint32(x), uint32(x>>32)
			left[j*8+4+l], right[j*8+4+l] = uint32(y), uint32(y>>32)
		}
	}
}
