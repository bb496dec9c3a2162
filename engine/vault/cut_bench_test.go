package vault

import (
	"bytes"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

// BenchmarkCut is the cutter alone over transcripts in memory
// ($MEMSCOPE_BENCH_HOME's, up to $MEMSCOPE_BENCH_MB): lines found,
// boundaries decided, session ids factored out, chunks named (BLAKE3)
// and stored nowhere.
func BenchmarkCut(b *testing.B) {
	data, n := enginetest.BenchTranscripts(b, "../..")
	c := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, prefixAt: -1,
		store: func(key, []byte) (bool, error) { return true, nil }}
	b.SetBytes(n)
	for b.Loop() {
		for _, d := range data {
			if _, err := c.cut(bytes.NewReader(d), 0, int64(len(d)), true); err != nil {
				b.Fatal(err)
			}
		}
	}
}
