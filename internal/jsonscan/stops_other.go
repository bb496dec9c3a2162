//go:build !amd64

package jsonscan

// stopBits is stopBitsSWAR on processors without an assembly loop.
func stopBits(d []byte, stops []uint64) (high bool) { return stopBitsSWAR(d, stops) }
