//go:build !amd64

package search

// pairSIMD says pairBlocks does the work: not on this architecture.
const pairSIMD = false

func pairBlocks(p *byte, n, o1, o2 int, vec *[4][16]byte) int { return ^0 }

// pairSetSIMD says pairSetBlocks does the work: not on this architecture.
var pairSetSIMD = false

func pairSetBlocks(p *byte, n int, s *pairSet) (pos, nls, lastnl int) { return ^0, 0, -1 }
