package vault

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	kflate "github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"golang.org/x/sys/unix"

	"github.com/memscope/memscope/model"
)

// TestCodecFloor measures, on the unique chunks of a real home cut as a
// sync cuts them (in the sync's order), how fast each way of
// compressing them runs on one core and how small it makes them: the
// floor under a first sync's CPU (docs/VAULT.md, "i31v"). It runs
// only with MEMSCOPE_CODEC_HOME=<a home> (scripts/vault-codecs.sh);
// MEMSCOPE_CODEC_ROUNDS rounds (default 2), the ways in turn each round.
func TestCodecFloor(t *testing.T) {
	dir := os.Getenv("MEMSCOPE_CODEC_HOME")
	if dir == "" {
		t.Skip("MEMSCOPE_CODEC_HOME is not set (scripts/vault-codecs.sh sets it)")
	}
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("MEMSCOPE_CODEC_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	chunks, files := uniqueChunks(t, dir)
	var total int64
	for _, c := range chunks {
		total += int64(len(c))
	}
	t.Logf("%d unique chunks, %.1f MB (of %.1f MB of files)", len(chunks), float64(total)/1e6, float64(files)/1e6)
	for r := range rounds {
		for _, w := range codecWays() {
			if !wanted(w.name) {
				continue
			}
			cpu, stored := threadCPU(func() int64 { return w.run(chunks) })
			fmt.Printf("codecfloor round %d %-34s %6.3f CPU-s %7.1f MB/s  stored/unique %.3f\n",
				r+1, w.name, cpu.Seconds(), float64(total)/1e6/cpu.Seconds(), float64(stored)/float64(total))
		}
	}
}

// wanted reports whether MEMSCOPE_CODEC_WAYS (names, separated by ";";
// empty: every way) names the way.
func wanted(name string) bool {
	f := os.Getenv("MEMSCOPE_CODEC_WAYS")
	return f == "" || slices.Contains(strings.Split(f, ";"), name)
}

// uniqueChunks cuts every file a first sync of the home reads, as it
// cuts them, and keeps each chunk (as stored: ids out) once, in order;
// files is the bytes read.
func uniqueChunks(t *testing.T, dir string) (chunks [][]byte, files int64) {
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	var probs []model.Problem
	list := walkHome(home.FS, "", &probs, nil, nil)
	seen := map[key]bool{}
	var c cutter
	c.store = func(k key, data []byte) (bool, error) {
		if seen[k] {
			return false, nil
		}
		seen[k] = true
		chunks = append(chunks, bytes.Clone(data))
		return true, nil
	}
	for _, f := range list {
		file, err := model.OpenRegular(home.FS, f.rel)
		if err != nil {
			t.Fatal(err)
		}
		info, err := model.OpenedInfo(file) // the walk lists files without their information
		if err != nil {
			t.Fatal(err)
		}
		jsonl := strings.HasSuffix(f.rel, ".jsonl")
		c.norm.enabled = jsonl
		c.prefixAt = -1
		res, err := c.cut(file, 0, info.Size(), jsonl)
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
		files += res.size
	}
	return chunks, files
}

// threadCPU runs f on one locked thread and returns its CPU time (user
// and system, RUSAGE_THREAD) and f's result.
func threadCPU(f func() int64) (time.Duration, int64) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	runtime.GC()
	var a, b unix.Rusage
	_ = unix.Getrusage(unix.RUSAGE_THREAD, &a)
	n := f()
	_ = unix.Getrusage(unix.RUSAGE_THREAD, &b)
	d := time.Duration(b.Utime.Nano()-a.Utime.Nano()) + time.Duration(b.Stime.Nano()-a.Stime.Nano())
	return d, n
}

// codecWay is one way of compressing the chunks: run returns the bytes
// stored.
type codecWay struct {
	name string
	run  func(chunks [][]byte) int64
}

// groups joins consecutive chunks into groups of at least size bytes
// (a group compressed as one frame is read back whole); size 0 leaves
// each chunk alone.
func groups(chunks [][]byte, size int) [][]byte {
	if size == 0 {
		return chunks
	}
	var out [][]byte
	var cur []byte
	for _, c := range chunks {
		cur = append(cur, c...)
		if len(cur) >= size {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func zstdWay(name string, group int, opts ...zstd.EOption) codecWay {
	return codecWay{name, func(chunks [][]byte) int64 {
		if group > 0 {
			chunks = groups(chunks, group)
		}
		e, err := zstd.NewWriter(nil, append([]zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false)}, opts...)...)
		if err != nil {
			panic(err)
		}
		var dst []byte
		var n int64
		for _, c := range chunks {
			dst = e.EncodeAll(c, dst[:0])
			n += int64(len(dst))
		}
		return n
	}}
}

func s2Way(name string, group int, enc func(dst, src []byte) []byte) codecWay {
	return codecWay{name, func(chunks [][]byte) int64 {
		var n int64
		var dst []byte
		for _, c := range groups(chunks, group) {
			dst = enc(dst[:cap(dst)], c)
			n += int64(len(dst))
		}
		return n
	}}
}

// s2Blocks is s2 on groups of chunks each cut in blocks of block bytes,
// each compressed alone (smaller blocks: a hash table that stays in
// the cache, fewer matches; i31v5).
func s2Blocks(name string, group, block int) codecWay {
	return codecWay{name, func(chunks [][]byte) int64 {
		var n int64
		var dst []byte
		for _, c := range groups(chunks, group) {
			for len(c) > 0 {
				b := c[:min(block, len(c))]
				c = c[len(b):]
				dst = s2.Encode(dst[:cap(dst)], b)
				n += int64(len(dst))
			}
		}
		return n
	}}
}

func codecWays() []codecWay {
	return []codecWay{
		{"sha256 (reference)", func(chunks [][]byte) int64 {
			for _, c := range chunks {
				sha256.Sum256(c)
			}
			return 0
		}},
		{"blake3 (reference)", func(chunks [][]byte) int64 {
			for _, c := range chunks {
				hashBLAKE3.sum(c)
			}
			return 0
		}},
		zstdWay("zstd fastest, each chunk (today)", 0, zstd.WithLowerEncoderMem(true)),
		zstdWay("zstd fastest, each chunk, more mem", 0),
		zstdWay("zstd fastest, no entropy", 0, zstd.WithLowerEncoderMem(true), zstd.WithNoEntropyCompression(true)),
		zstdWay("zstd fastest, lits raw", 0, zstd.WithLowerEncoderMem(true), zstd.WithAllLitEntropyCompression(false)),
		zstdWay("zstd fastest, 1 MiB groups", 1<<20, zstd.WithLowerEncoderMem(true)),
		zstdWay("zstd fastest, 4 MiB groups", 4<<20, zstd.WithLowerEncoderMem(true)),
		{"zstd fastest, previous chunk as dict", func(chunks [][]byte) int64 {
			var n int64
			var dst []byte
			var prev []byte
			for _, c := range chunks {
				opts := []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedFastest),
					zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true)}
				if prev != nil {
					opts = append(opts, zstd.WithEncoderDictRaw(1, prev))
				}
				e, err := zstd.NewWriter(nil, opts...)
				if err != nil {
					panic(err)
				}
				dst = e.EncodeAll(c, dst[:0])
				e.Close()
				n += int64(len(dst))
				prev = c
			}
			return n
		}},
		s2Way("s2, 1 MiB groups", 1<<20, s2.Encode),
		s2Way("s2, 4 MiB groups", 4<<20, s2.Encode),
		s2Way("s2 better, 4 MiB groups", 4<<20, s2.EncodeBetter),
		s2Way("s2 snappy, 4 MiB groups", 4<<20, s2.EncodeSnappy),
		s2Way("s2 snappy, 8 MiB groups", 8<<20, s2.EncodeSnappy),
		s2Way("s2, 8 MiB groups", 8<<20, s2.Encode),
		zstdWay("zstd fastest, 2 MiB groups", 2<<20, zstd.WithLowerEncoderMem(true)),
		zstdWay("zstd fastest, 8 MiB groups", 8<<20, zstd.WithLowerEncoderMem(true)),
		zstdWay("zstd fastest, 4 MiB groups, more mem", 4<<20),
		zstdWay("zstd fastest, 1 MiB groups, more mem", 1<<20),
		s2Way("s2", 0, s2.Encode),
		s2Way("s2, 2 MiB groups", 2<<20, s2.Encode),
		s2Blocks("s2, 4 MiB groups, 1 MiB blocks", 4<<20, 1<<20),
		s2Blocks("s2, 4 MiB groups, 64 KiB blocks", 4<<20, 64<<10),
		s2Blocks("s2, 4 MiB groups, 16 KiB blocks", 4<<20, 16<<10),
		s2Way("s2 better", 0, s2.EncodeBetter),
		{"flate 1 (klauspost)", func(chunks [][]byte) int64 {
			var n int64
			var out bytes.Buffer
			w, _ := kflate.NewWriter(&out, kflate.BestSpeed)
			for _, c := range chunks {
				out.Reset()
				w.Reset(&out)
				w.Write(c)
				w.Close()
				n += int64(out.Len())
			}
			return n
		}},
	}
}
