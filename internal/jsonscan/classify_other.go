//go:build !amd64

package jsonscan

// blocks is blocksGo on processors without an assembly loop.
func blocks(d []byte, bitmap []words, c *carry, pad *[64]byte) bool {
	return padded(blocksGo, d, bitmap, c, pad)
}
