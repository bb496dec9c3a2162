//go:build !amd64

package jsonscan

// stopBlocks is stopBlocksSWAR on processors without an assembly loop.
func stopBlocks(d []byte) (int, bool) { return stopBlocksSWAR(d) }
