//go:build !amd64

package jsonscan

// blocks is blocksGo on processors without an assembly loop.
func blocks(d []byte, stops []uint64, bitmap []words, c *carry) bool {
	return blocksGo(d, stops, bitmap, c)
}
