#include "textflag.h"

// The two loops' shared parts. ARGS loads the arguments: SI p, CX n,
// BX t; R8 the block's index, 0.
#define ARGS \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	MOVQ t+16(FP), BX; \
	XORQ R8, R8

// NEXT goes on to the next block, or falls through when the n blocks
// are done (SI the block, R8 its index, CX n); NONE returns (n, 0),
// FOUND (R8, AX).
#define NEXT(loop) \
	ADDQ $64, SI; \
	INCQ R8; \
	CMPQ R8, CX; \
	JNE  loop

#define NONE \
	MOVQ CX, k+24(FP); \
	MOVQ $0, m+32(FP); \
	VZEROUPPER; \
	RET

#define FOUND \
	MOVQ R8, k+24(FP); \
	MOVQ AX, m+32(FP); \
	VZEROUPPER; \
	RET

// func teddyAVX2(p *byte, n int, t *teddyMasks) (k int, m uint64)
//
// For each 64-byte block until one has a candidate, two halves of 32:
// Y0/Y2 the pieces' first bytes (from p), Y1/Y3 their second bytes (from
// p+1). A byte's buckets are lo[x] & hi[x >> 4] (VPSHUFB gives 0 for x
// >= 0x80, and no anchor has such a byte); a candidate is a byte whose
// first and second bytes' buckets meet. Y8-Y11 t.lo0, t.hi0, t.lo1, t.hi1 (each in both lanes),
// Y14 zero, Y15 0x0f; R8 the block's index.
TEXT ·teddyAVX2(SB), NOSPLIT, $0-40
	ARGS
	VBROADCASTI128 0(BX), Y8
	VBROADCASTI128 16(BX), Y9
	VBROADCASTI128 32(BX), Y10
	VBROADCASTI128 48(BX), Y11
	MOVL           $0x0f, AX
	MOVQ           AX, X15
	VPBROADCASTB   X15, Y15
	VPXOR          Y14, Y14, Y14
	TESTQ          CX, CX
	JEQ            done2

loop2:
	VMOVDQU 0(SI), Y0
	VMOVDQU 1(SI), Y1
	VMOVDQU 32(SI), Y2
	VMOVDQU 33(SI), Y3

	VPSRLW  $4, Y0, Y4
	VPSRLW  $4, Y1, Y5
	VPSRLW  $4, Y2, Y6
	VPSRLW  $4, Y3, Y7
	VPAND   Y15, Y4, Y4
	VPAND   Y15, Y5, Y5
	VPAND   Y15, Y6, Y6
	VPAND   Y15, Y7, Y7
	VPSHUFB Y0, Y8, Y0
	VPSHUFB Y4, Y9, Y4
	VPSHUFB Y1, Y10, Y1
	VPSHUFB Y5, Y11, Y5
	VPSHUFB Y2, Y8, Y2
	VPSHUFB Y6, Y9, Y6
	VPSHUFB Y3, Y10, Y3
	VPSHUFB Y7, Y11, Y7
	VPAND   Y0, Y4, Y0
	VPAND   Y1, Y5, Y1
	VPAND   Y2, Y6, Y2
	VPAND   Y3, Y7, Y3
	VPAND   Y0, Y1, Y0
	VPAND   Y2, Y3, Y2

	VPCMPEQB  Y14, Y0, Y0
	VPCMPEQB  Y14, Y2, Y2
	VPMOVMSKB Y0, AX
	VPMOVMSKB Y2, DX
	SHLQ      $32, DX
	ORQ       DX, AX
	NOTQ      AX
	TESTQ     AX, AX
	JNE       found2

	NEXT(loop2)

done2:
	NONE

found2:
	FOUND

// func teddyAVX512(p *byte, n int, t *teddyMasks) (k int, m uint64)
//
// teddyAVX2 with a block a vector (AVX-512BW): Z0 the first bytes, Z1
// the second, Z8-Z11 the tables, Z15 0x0f; VPTESTMB gives the
// candidates straight into a mask register.
TEXT ·teddyAVX512(SB), NOSPLIT, $0-40
	ARGS
	VBROADCASTI32X4 0(BX), Z8
	VBROADCASTI32X4 16(BX), Z9
	VBROADCASTI32X4 32(BX), Z10
	VBROADCASTI32X4 48(BX), Z11
	MOVL            $0x0f, AX
	VPBROADCASTB    AX, Z15
	TESTQ           CX, CX
	JEQ             done512

loop512:
	VMOVDQU64 0(SI), Z0
	VMOVDQU64 1(SI), Z1
	VPSRLW    $4, Z0, Z2
	VPSRLW    $4, Z1, Z3
	VPANDQ    Z15, Z2, Z2
	VPANDQ    Z15, Z3, Z3
	VPSHUFB   Z0, Z8, Z0
	VPSHUFB   Z2, Z9, Z2
	VPSHUFB   Z1, Z10, Z1
	VPSHUFB   Z3, Z11, Z3
	VPANDQ    Z0, Z2, Z0
	VPANDQ    Z1, Z3, Z1
	VPTESTMB  Z0, Z1, K1
	KMOVQ     K1, AX
	TESTQ     AX, AX
	JNE       found512

	NEXT(loop512)

done512:
	NONE

found512:
	FOUND
