package vault

import (
	"bytes"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

// BenchmarkCut is the cutter alone over transcripts in memory
// ($MEMSCOPE_BENCH_HOME's, up to $MEMSCOPE_BENCH_MB): lines found,
// boundaries decided, session ids factored out into a frame's room (as
// a sync's cutter writes them), chunks named (BLAKE3). cpu-ns/op is the
// process's user and system time, which a loaded machine's time slices
// leave out.
func BenchmarkCut(b *testing.B) {
	data, n := enginetest.BenchTranscripts(b, "../..")
	frame := make([]byte, 0, frameTarget+maxChunk)
	c := &cutter{norm: normalizer{enabled: true}, hash: hashBLAKE3, prefixAt: -1,
		into: func(n int) []byte {
			if cap(frame)-len(frame) < n {
				frame = frame[:0]
			}
			return frame[len(frame):]
		},
		store: func(_ key, d []byte) (bool, error) {
			if len(d) > 0 && len(frame) < cap(frame) && &frame[:len(frame)+1][len(frame)] == &d[0] {
				frame = frame[:len(frame)+len(d)]
			} else {
				if cap(frame)-len(frame) < len(d) {
					frame = frame[:0]
				}
				frame = append(frame, d...)
			}
			return true, nil
		}}
	b.SetBytes(n)
	before := cpuTime()
	for b.Loop() {
		for _, d := range data {
			if _, err := c.cut(bytes.NewReader(d), 0, int64(len(d)), true); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
