package vault

import "golang.org/x/sys/cpu"

// scanBlocks is scanLine's vector loop: scanAVX2 when the processor has
// AVX2, else nil (scanLine then searches with bytes.IndexByte).
var scanBlocks = func() func(p *byte, n int) (int, uint64) {
	if cpu.X86.HasAVX2 {
		return scanAVX2
	}
	return nil
}()

// scanAVX2 looks at the n 32-byte blocks from p until one holds a
// newline, an 'I' (sessionKey's keyAnchor byte) or a NUL (marker), and
// returns that block's index k (n when none does) and which of its
// bytes are: bit j for byte 32k+j.
//
//go:noescape
func scanAVX2(p *byte, n int) (k int, m uint64)
