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

	// memscope: 16 chunks at once in ZMM registers (hash_avx512; the
	// code uses AVX512F and, for its mask registers, AVX512BW; VL is
	// asked for as every AVX-512 processor of note has it). x/sys/cpu
	// reports AVX512F only when the operating system saves the ZMM
	// registers.
	HasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL &&
		os.Getenv("BLAKE3_DISABLE_AVX512") == "" &&
		os.Getenv("BLAKE3_PUREGO") == ""

	HasSSE41 = cpu.X86.HasSSE41 &&
		os.Getenv("BLAKE3_DISABLE_SSE41") == "" &&
		os.Getenv("BLAKE3_PUREGO") == ""
)
