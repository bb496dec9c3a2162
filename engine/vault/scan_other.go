//go:build !amd64

package vault

// scanBlocks is nil where there is no vector loop: scanLine searches
// with bytes.IndexByte.
var scanBlocks func(p *byte, n int) (int, uint64)
