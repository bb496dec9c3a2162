//go:build !amd64

package search

// pairSIMD says pairBlocks does the work: not on this architecture.
const pairSIMD = false

func pairBlocks(p *byte, n, o1, o2 int, vec *[4][16]byte) int { return ^0 }
