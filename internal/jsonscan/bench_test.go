package jsonscan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// benchLines are the transcript lines the validator benchmarks read: every
// .jsonl line under the repository's testdata, and, when
// $MEMSCOPE_BENCH_HOME names a home (scripts/bench.sh's W), the lines of
// its transcripts up to $MEMSCOPE_BENCH_MB megabytes (default 64).
func benchLines(b *testing.B) ([][]byte, int64) {
	b.Helper()
	var lines [][]byte
	var total int64
	limit := int64(64 << 20)
	if mb, err := strconv.Atoi(os.Getenv("MEMSCOPE_BENCH_MB")); err == nil && mb > 0 {
		limit = int64(mb) << 20
	}
	add := func(root string) {
		eachJSONLLine(root, func(l []byte) bool {
			if json.Valid(l) {
				lines = append(lines, l)
				total += int64(len(l))
			}
			return total < limit
		})
	}
	if home := os.Getenv("MEMSCOPE_BENCH_HOME"); home != "" {
		add(filepath.Join(home, "projects"))
	} else {
		add("../../testdata")
	}
	if len(lines) == 0 {
		b.Fatal("no transcript lines to read")
	}
	return lines, total
}

// eachJSONLLine calls fn with a copy of each line of the .jsonl files
// under root until fn returns false.
func eachJSONLLine(root string, fn func(l []byte) bool) {
	more := true
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || !more {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for more && sc.Scan() {
			more = fn(bytes.Clone(sc.Bytes()))
		}
		return nil
	})
}

func benchValidate(b *testing.B, valid func(s *Scanner, l []byte) bool) {
	lines, total := benchLines(b)
	var s Scanner
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := testenv.ProcessCPU()
	for range b.N {
		for _, l := range lines {
			if !valid(&s, l) {
				b.Fatalf("rejected %.80q", l)
			}
		}
	}
	// MB per CPU-second stays meaningful on a machine shared with other
	// work, where wall-clock MB/s does not.
	if c := testenv.ProcessCPU() - c0; c > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/c.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkValidLines checks transcript lines with Scanner.Line (what the
// readers' single pass costs beyond their own callbacks).
func BenchmarkValidLines(b *testing.B) {
	var s0 *Scanner
	skip := func(key []byte, v, depth int) (int, error) { return s0.Value(v, depth) }
	benchValidate(b, func(s *Scanner, l []byte) bool {
		s0 = s
		return s.Line(l, skip) == nil
	})
}

// BenchmarkValidLinesEncodingJSON is the same lines through json.Valid.
func BenchmarkValidLinesEncodingJSON(b *testing.B) {
	benchValidate(b, func(_ *Scanner, l []byte) bool { return json.Valid(l) })
}

// BenchmarkResetLines is Reset alone on the same lines: the bitmap pass.
func BenchmarkResetLines(b *testing.B) {
	benchValidate(b, func(s *Scanner, l []byte) bool {
		s.Reset(l)
		return true
	})
}

// BenchmarkLinesByKind checks, with Scanner.Line as BenchmarkValidLines
// does, the lines of each .jsonl file of the folder
// $MEMSCOPE_BENCH_LINES names (scripts/jsonscan-kinds.sh writes one a
// kind of transcript line), held in memory, a sub-benchmark a file: run
// one under cachegrind with -benchtime 1x for its instructions.
func BenchmarkLinesByKind(b *testing.B) {
	dir := os.Getenv("MEMSCOPE_BENCH_LINES")
	if dir == "" {
		b.Skip("MEMSCOPE_BENCH_LINES names no folder of lines")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
		b.Run(strings.TrimSuffix(filepath.Base(f), ".jsonl"), func(b *testing.B) {
			var s Scanner
			skip := func(key []byte, v, depth int) (int, error) { return s.Value(v, depth) }
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				for _, l := range lines {
					if err := s.Line(l, skip); err != nil {
						b.Fatalf("%.80q: %v", l, err)
					}
				}
			}
		})
	}
}
