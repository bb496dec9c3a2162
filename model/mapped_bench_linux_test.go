//go:build linux

package model

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/internal/testenv"
)

// cpuSeconds is this process's user and system CPU so far.
func cpuSeconds() float64 {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e9
}

// TestMappedReadBench is a measurement (scripts/mapped-read-bench.sh):
// every transcript of the home MEMSCOPE_BENCH_HOME read line by line,
// with a LineReader (read(2)) and with MappedLines where the pass maps
// (a file of 64 KiB or more), alternated ROUNDS times (default 5): the
// CPU-seconds of each whole read.
func TestMappedReadBench(t *testing.T) {
	home := os.Getenv("MEMSCOPE_BENCH_HOME")
	if !testenv.Long() || home == "" {
		t.Skip("a measurement: MEMSCOPE_LONG=1 MEMSCOPE_BENCH_HOME=dir (scripts/mapped-read-bench.sh)")
	}
	fsys := DirFS(home)
	var names []string
	fs.WalkDir(fsys, "projects", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".jsonl") {
			names = append(names, p)
		}
		return nil
	})
	lr := NewLineReader(nil)
	readAll := func(mapped bool) (int64, int) {
		var n int64
		lines := 0
		for _, name := range names {
			f, err := OpenRegular(fsys, name)
			if err != nil {
				t.Fatal(err)
			}
			lr.Reset(f)
			var next func() (Line, bool) = lr.Next
			var m *MappedLines
			if mapped {
				if m = MapLines(f, lr); m != nil {
					next = m.Next
				}
			}
			for {
				l, ok := next()
				if !ok {
					break
				}
				lines += len(l.Bytes) & 1
			}
			if m != nil {
				n += m.N()
				m.Close()
			} else {
				n += lr.off
			}
			f.Close()
		}
		return n, lines
	}
	rounds := 5
	if r := os.Getenv("ROUNDS"); r != "" {
		fmt.Sscan(r, &rounds)
	}
	for range rounds {
		for _, mapped := range []bool{false, true} {
			c := cpuSeconds()
			n, _ := readAll(mapped)
			how := "read"
			if mapped {
				how = "mapped"
			}
			t.Logf("%s: %d transcripts, %d bytes, %.3f CPU-s", how, len(names), n, cpuSeconds()-c)
		}
	}
}
