//go:build !purego

package consts

import (
	"os"

	"golang.org/x/sys/cpu"
)

// memscope: the processor's features come from golang.org/x/sys/cpu
// (already in memscope's build) instead of github.com/klauspost/cpuid/v2,
// whose package initialisation took 0.23 ms of every memscope command
// (third_party/blake3/MEMSCOPE.md). Both report AVX2 only when the
// operating system saves the AVX registers.
var (
	HasAVX2 = cpu.X86.HasAVX2 &&
		os.Getenv("BLAKE3_DISABLE_AVX2") == "" &&
		os.Getenv("BLAKE3_PUREGO") == ""

	// memscope: hash_avx512's code (HashF16: ZMM registers, AVX512F, and
	// AVX512BW for its mask registers; HashF8 and HashP8: AVX2 with the
	// AVX512VL rotation). x/sys/cpu reports AVX512F only when the
	// operating system saves the ZMM registers. The switches form a
	// ladder: BLAKE3_DISABLE_AVX512 leaves AVX2, BLAKE3_DISABLE_AVX2
	// leaves SSE4.1 (AVX-512 goes too), BLAKE3_PUREGO the Go code.
	HasAVX512 = HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL &&
		os.Getenv("BLAKE3_DISABLE_AVX512") == ""

	HasSSE41 = cpu.X86.HasSSE41 &&
		os.Getenv("BLAKE3_DISABLE_SSE41") == "" &&
		os.Getenv("BLAKE3_PUREGO") == ""
)
