package jsonscan

// stopBlocks looks at d's whole blocks of 16 bytes for the first '"',
// '\\' or byte below 0x20 and returns its offset, or ^(bytes looked at)
// when no whole block has one; high says whether a byte of the blocks it
// read (which may go past the one it returns) is above 0x7F.
func stopBlocks(d []byte) (int, bool) {
	if len(d) < 16 {
		return ^0, false
	}
	return stopsSSE2(&d[0], len(d))
}

//go:noescape
func stopsSSE2(p *byte, n int) (i int, high bool)
