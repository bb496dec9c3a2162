package search

// addPairImpls adds the SIMD loops this processor runs to impls.
func addPairImpls(impls map[string]func(p *byte, n, o1, o2 int, vec *[4][16]byte) int) {
	impls["sse2"] = pairBlocksSSE2
	if hasAVX2 {
		impls["avx2"] = pairBlocksAVX2
	}
}
