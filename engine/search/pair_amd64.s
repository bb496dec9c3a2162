#include "textflag.h"

// func pairBlocksSSE2(p *byte, n, o1, o2 int, vec *[4][16]byte) int
//
// For each block of 16 places i: X0 = p[i+o1 : i+o1+16] | m1 == b1 and
// X1 = p[i+o2 : i+o2+16] | m2 == b2, byte by byte; the lowest byte set
// in both is the place. SSE2 only (every amd64 processor).
TEXT ·pairBlocksSSE2(SB), NOSPLIT, $0-48
	MOVQ  p+0(FP), SI
	MOVQ  n+8(FP), CX
	MOVQ  o1+16(FP), R8
	MOVQ  o2+24(FP), R9
	MOVQ  vec+32(FP), DX
	MOVOU 0(DX), X4
	MOVOU 16(DX), X5
	MOVOU 32(DX), X6
	MOVOU 48(DX), X7
	LEAQ  (SI)(R8*1), R10
	LEAQ  (SI)(R9*1), R11
	XORQ  AX, AX

sseloop:
	LEAQ     16(AX), BX
	CMPQ     BX, CX
	JA       ssedone
	MOVOU    (R10)(AX*1), X0
	MOVOU    (R11)(AX*1), X1
	POR      X5, X0
	POR      X7, X1
	PCMPEQB  X4, X0
	PCMPEQB  X6, X1
	PAND     X1, X0
	PMOVMSKB X0, DX
	TESTL    DX, DX
	JNZ      ssefound
	MOVQ     BX, AX
	JMP      sseloop

ssefound:
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+40(FP)
	RET

ssedone:
	NOTQ AX
	MOVQ AX, ret+40(FP)
	RET

// func pairBlocksAVX2(p *byte, n, o1, o2 int, vec *[4][16]byte) int
//
// pairBlocksSSE2 with 32-byte registers, two blocks (64 places) a
// round; what is left (fewer than 64 places) is pairBlocksSSE2's.
TEXT ·pairBlocksAVX2(SB), NOSPLIT, $0-48
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVQ         o1+16(FP), R8
	MOVQ         o2+24(FP), R9
	MOVQ         vec+32(FP), DX
	VPBROADCASTB 0(DX), Y4
	VPBROADCASTB 16(DX), Y5
	VPBROADCASTB 32(DX), Y6
	VPBROADCASTB 48(DX), Y7
	LEAQ         (SI)(R8*1), R10
	LEAQ         (SI)(R9*1), R11
	XORQ         AX, AX

avxloop2:
	LEAQ      64(AX), BX
	CMPQ      BX, CX
	JA        avxdone
	VMOVDQU   (R10)(AX*1), Y0
	VMOVDQU   (R11)(AX*1), Y1
	VMOVDQU   32(R10)(AX*1), Y2
	VMOVDQU   32(R11)(AX*1), Y3
	VPOR      Y5, Y0, Y0
	VPOR      Y7, Y1, Y1
	VPOR      Y5, Y2, Y2
	VPOR      Y7, Y3, Y3
	VPCMPEQB  Y4, Y0, Y0
	VPCMPEQB  Y6, Y1, Y1
	VPCMPEQB  Y4, Y2, Y2
	VPCMPEQB  Y6, Y3, Y3
	VPAND     Y1, Y0, Y0
	VPAND     Y3, Y2, Y2
	VPOR      Y0, Y2, Y1
	VPTEST    Y1, Y1
	JNZ       avxfound2
	MOVQ      BX, AX
	JMP       avxloop2

avxfound2:
	VPMOVMSKB Y0, DX
	TESTL     DX, DX
	JNZ       avxfound
	VPMOVMSKB Y2, DX
	ADDQ      $32, AX

avxfound:
	VZEROUPPER
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+40(FP)
	RET

avxdone:
	VZEROUPPER
	NOTQ AX
	MOVQ AX, ret+40(FP)
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
