package ledger

import (
	"bytes"
	"io/fs"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// BenchmarkAPIRequestLines is what the ledger's read spends on the lines
// of a compacted transcript that can never be records of its tree (the
// client's "api-request…" lines: most of the bench home's bytes), held
// in memory: decode, the model's reader (leanOptions) as readLean runs
// it; check, jsonscan's check of each line alone, which a malformed
// line's report needs. The difference is what not decoding them beyond
// the check could save (docs/PERFORMANCE.md, i32q); run one under
// cachegrind for its instructions:
//
//	MEMSCOPE_BENCH_HOME=.cache/bench/W go test -run X -bench APIRequestLines/check -benchtime 1x ./engine/ledger
func BenchmarkAPIRequestLines(b *testing.B) {
	h := enginetest.BenchHome(b)
	files, _ := model.FindTranscripts(h.FS)
	var lines [][]byte
	size := 0
	for _, f := range files {
		data, err := fs.ReadFile(h.FS, f.Path)
		if err != nil || !bytes.Contains(data, compactMark) {
			continue
		}
		for l := range bytes.SplitSeq(data, []byte("\n")) {
			if bytes.HasPrefix(l, []byte(`{"type":"api-request`)) {
				lines = append(lines, l)
				size += len(l)
			}
		}
	}
	if len(lines) == 0 {
		b.Skip("no api-request line in the bench home")
	}
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			dec := model.NewLineDecoder("bench", leanOptions())
			var rec model.Record
			for i, l := range lines {
				rec = model.Record{}
				if _, ok := dec.Decode(model.Line{Bytes: l, Number: i + 1, Terminated: true, Size: int64(len(l))}, &rec); !ok {
					b.Fatalf("line %d does not decode", i)
				}
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		b.SetBytes(int64(size))
		var sc jsonscan.Scanner
		member := func(_ []byte, v, depth int) (int, error) { return sc.Value(v, depth) }
		for b.Loop() {
			for i, l := range lines {
				if err := sc.Line(l, member); err != nil {
					b.Fatalf("line %d: %v", i, err)
				}
			}
		}
	})
}
