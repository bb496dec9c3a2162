package blake3

// memscope: Sum256 of one input in one go, without the streaming
// hasher (MEMSCOPE.md; memscope's docs/VAULT.md, "i31h2").

import (
	"encoding/binary"
	"sync"
	"unsafe"

	"github.com/zeebo/blake3/internal/alg"
	"github.com/zeebo/blake3/internal/consts"
)

// treeBlocks is how many groups of 8 chaining values a tree's scratch
// holds: inputs of up to 8*treeBlocks chunks (512 KiB) take sumTree.
const treeBlocks = 64

// treeScratch is sumTree's room: the chaining values of a level of the
// tree, 8 to a chainVector in hash_avx2's transposed layout (word j of
// value 8g+l at cv[g][j*8+l]), and the input's last chunks, copied so
// that the 8-chunk code may read 8 KiB from their start.
type treeScratch struct {
	cv   [treeBlocks]chainVector
	tail [8192]byte
}

// treePool keeps the scratch from call to call: 24 KiB zeroed on the
// stack would cost more than hashing a small input.
var treePool = sync.Pool{New: func() any { return new(treeScratch) }}

// sumTree sets sum to the unkeyed BLAKE3-256 of data, which is more
// than one chunk long; !ok (sum untouched) when it is longer than the
// scratch holds or the processor lacks AVX-512.
//
// The streaming hasher pushed each chunk's chaining value onto its
// stack one at a time (copying it word by word into and out of the
// transposed buffers) and merged the stack's levels serially at its
// end; here the whole input's chunk values are computed first (16
// chunks at a time in place, then the last ones from a copy), then the
// tree is reduced a level at a time, 8 parents at a time. BLAKE3's tree
// is that of the pairwise reduction with an odd last value carried up a
// level (the left subtrees complete), so the root is the same.
func sumTree(data []byte, sum *[32]byte) (ok bool) {
	if !consts.HasAVX512 || len(data) <= consts.ChunkLen || len(data) > treeBlocks*8*consts.ChunkLen {
		return false
	}
	key := &consts.IV
	s := treePool.Get().(*treeScratch)
	defer treePool.Put(s)

	// n chunks are whole and followed by more input; the last chunk
	// (1 to 1024 bytes) is chunk n.
	n := (len(data) - 1) / consts.ChunkLen
	p := unsafe.Pointer(&data[0])
	i := 0
	for ; i+16 <= n; i += 16 {
		alg.HashF16((*[2][64]uint32)(unsafe.Pointer(&s.cv[i/8])), (*[16384]byte)(unsafe.Add(p, i*consts.ChunkLen)), uint64(i), 0, key)
	}
	var chain [8]uint32
	if i+8 <= n {
		alg.HashF((*[8192]byte)(unsafe.Add(p, i*consts.ChunkLen)), 8192, uint64(i), 0, key, &s.cv[i/8], &chain)
		i += 8
	}
	// The rest, chunks i to n (at most 8 KiB), from the copy: the value
	// of each whole chunk, and chain, the last chunk's before its last
	// block.
	r := copy(s.tail[:], data[i*consts.ChunkLen:])
	chain = *key
	if r > consts.BlockLen {
		alg.HashF(&s.tail, uint64(r), uint64(i), 0, key, &s.cv[i/8], &chain)
	}
	last := r - (n-i)*consts.ChunkLen
	flags := consts.Flag_ChunkEnd
	if last <= consts.BlockLen {
		chain = *key
		flags |= consts.Flag_ChunkStart
	}
	blen := last % consts.BlockLen
	if blen == 0 {
		blen = consts.BlockLen
	}
	var block [16]uint32
	copy((*[64]byte)(unsafe.Pointer(&block))[:], s.tail[r-blen:r])
	if !consts.OptimizeLittleEndian {
		for w := range block {
			block[w] = binary.LittleEndian.Uint32((*[64]byte)(unsafe.Pointer(&block))[4*w:])
		}
	}
	var out [16]uint32
	alg.Compress(&chain, &block, uint64(n), uint32(blen), flags, &out)
	writeChain((*[8]uint32)(out[:8]), &s.cv[n/8], n%8)

	// The levels: m values, paired (2p, 2p+1), an odd last one carried.
	for m := n + 1; m > 2; {
		pairs := m / 2
		var carried [8]uint32
		if m%2 == 1 {
			readChain(&s.cv[(m-1)/8], (m-1)%8, &carried)
		}
		for q := 0; q*8 < pairs; q++ {
			var left, right chainVector
			b, k := 2*q+1, pairs-8*q
			if b == treeBlocks { // pairs 8q.. are all in block 2q
				b--
			}
			if k > 8 {
				k = 8
			}
			unzipChains(&s.cv[2*q], &s.cv[b], &left, &right)
			alg.HashP(&left, &right, consts.Flag_Parent, key, &s.cv[q], k)
		}
		if m%2 == 1 {
			writeChain(&carried, &s.cv[pairs/8], pairs%8)
		}
		m = pairs + m%2
	}
	// The root: the parent of the last two.
	readChain(&s.cv[0], 0, (*[8]uint32)(block[:8]))
	readChain(&s.cv[0], 1, (*[8]uint32)(block[8:]))
	alg.Compress(key, &block, 0, consts.BlockLen, consts.Flag_Parent|consts.Flag_Root, &out)
	for w := 0; w < 8; w++ {
		binary.LittleEndian.PutUint32(sum[4*w:], out[w])
	}
	return true
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
