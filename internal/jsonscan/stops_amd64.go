package jsonscan

// stopBits sets the bits of stops (one a byte of d, len(stops) ==
// (len(d)+63)/64) of d's stop bytes: '"', '\\' and the bytes below 0x20;
// it returns whether d has a byte above 0x7F. Whole blocks of sixteen
// bytes go to an SSE2 loop, the rest (fewer than sixteen) a byte at a
// time.
func stopBits(d []byte, stops []uint64) (high bool) {
	clear(stops)
	n := len(d) &^ 15
	if n > 0 {
		high = stopBitsSSE2(&d[0], n, &stops[0])
	}
	return stopBitsTail(d, n, stops) || high
}

//go:noescape
func stopBitsSSE2(p *byte, n int, out *uint64) (high bool)
