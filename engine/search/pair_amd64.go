package search

import "unsafe"

// pairSIMD says pairBlocks does the work.
const pairSIMD = true

// hasAVX2 says the processor and the system support AVX2 (CPUID leaf 7
// and the saved YMM state), for the 32-places loop.
var hasAVX2 = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave = 1 << 27
	if ecx1&osxsave == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

// pairBlocks looks at the n places from p, 16 at a time (64 with AVX2,
// then 16), for the first where the pair vec (b1, m1, b2, m2, each
// repeated 16 times) agrees, reading p[i+o1] and p[i+o2]. It returns that
// place; or, when no whole block has one, ^i, i being the places it
// looked at: the caller looks at the rest. p must hold n-1+max(o1, o2).
func pairBlocks(p *byte, n, o1, o2 int, vec *[4][16]byte) int {
	done := 0
	if hasAVX2 && n >= 64 {
		r := pairBlocksAVX2(p, n, o1, o2, vec)
		if r >= 0 {
			return r
		}
		done = ^r
	}
	if n-done < 16 {
		return ^done
	}
	r := pairBlocksSSE2((*byte)(unsafe.Add(unsafe.Pointer(p), done)), n-done, o1, o2, vec)
	if r >= 0 {
		return done + r
	}
	return ^(done + ^r)
}

//go:noescape
func pairBlocksSSE2(p *byte, n, o1, o2 int, vec *[4][16]byte) int

//go:noescape
func pairBlocksAVX2(p *byte, n, o1, o2 int, vec *[4][16]byte) int

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// pairSetSIMD says pairSetBlocks does the work.
var pairSetSIMD = hasAVX2

// pairSetBlocks is pairSetBlocksAVX2 (see pair_amd64.s).
func pairSetBlocks(p *byte, n int, s *pairSet) (pos, nls, lastnl int) {
	return pairSetBlocksAVX2(p, n, s)
}

//go:noescape
func pairSetBlocksAVX2(p *byte, n int, set *pairSet) (pos, nls, lastnl int)
