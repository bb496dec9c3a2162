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

// The pair set's loop (pairSetBlocksAVX2): registers.
//   SI p; AX the block's first place; R12 line breaks counted; R13 the
//   last line break seen (-1: none); BX, DI, R8, R9, R10, R11 p+o1 and
//   p+o2 of pairs 0, 1 and 2; Y4..Y9 their bytes; Y15 the mask; Y14 '\n';
//   Y12 and Y13 the places where a pair agrees (the block's two halves);
//   DX the block's line breaks.

// NLMASK: DX = the line breaks among the 64 bytes at p+AX.
#define NLMASK \
	VPCMPEQB  (SI)(AX*1), Y14, Y2; \
	VPCMPEQB  32(SI)(AX*1), Y14, Y3; \
	VPMOVMSKB Y2, DX; \
	VPMOVMSKB Y3, CX; \
	SHLQ      $32, CX; \
	ORQ       CX, DX

// PAIRF: LO and HI = the places of the block's halves where bytes P1
// and P2, ORed with the mask, agree with B1 and B2.
#define PAIRF(P1, P2, B1, B2, LO, HI) \
	VPOR     (P1)(AX*1), Y15, Y0; \
	VPOR     (P2)(AX*1), Y15, Y1; \
	VPCMPEQB B1, Y0, Y0; \
	VPCMPEQB B2, Y1, Y1; \
	VPAND    Y1, Y0, LO; \
	VPOR     32(P1)(AX*1), Y15, Y0; \
	VPOR     32(P2)(AX*1), Y15, Y1; \
	VPCMPEQB B1, Y0, Y0; \
	VPCMPEQB B2, Y1, Y1; \
	VPAND    Y1, Y0, HI

// PAIRC: PAIRF without the mask (no finder of the set ignores case).
#define PAIRC(P1, P2, B1, B2, LO, HI) \
	VPCMPEQB (P1)(AX*1), B1, Y0; \
	VPCMPEQB (P2)(AX*1), B2, Y1; \
	VPAND    Y1, Y0, LO; \
	VPCMPEQB 32(P1)(AX*1), B1, Y0; \
	VPCMPEQB 32(P2)(AX*1), B2, Y1; \
	VPAND    Y1, Y0, HI

// MORE: ORs another pair's LO and HI (Y10, Y11) into Y12 and Y13.
#define MORE \
	VPOR Y10, Y12, Y12; \
	VPOR Y11, Y13, Y13

// NLCOUNT: counts the line breaks DX and keeps the last one's place.
#define NLCOUNT \
	POPCNTQ DX, CX; \
	ADDQ    CX, R12; \
	BSRQ    DX, DX; \
	ADDQ    AX, DX; \
	MOVQ    DX, R13

// NEXT: after a block's pairs: to setfound when one agrees, else on to
// the next block (LOOP), counting its line breaks (at NL).
#define NEXT(LOOP, NL) \
	VPOR   Y12, Y13, Y0; \
	VPTEST Y0, Y0; \
	JNZ    setfound; \
	TESTQ  DX, DX; \
	JNZ    NL; \
	ADDQ   $64, AX; \
	JMP    LOOP; \
NL:; \
	NLCOUNT; \
	ADDQ   $64, AX; \
	JMP    LOOP

// func pairSetBlocksAVX2(p *byte, n int, set *pairSet) (pos, nls, lastnl int)
//
// Looks at the places from p, 64 at a time while a whole block's bytes
// (up to the farthest pair offset) are within n, for the first where
// one of the set's k pairs (1 to 3) agrees, and counts the line breaks
// on the way: nls is how many there are before pos, lastnl the place of
// the last of them (-1: none). When no whole block has a place, pos is
// ^i, i being the places looked at, and nls and lastnl are for those.
// p must hold n-1+the farthest offset bytes.
TEXT ·pairSetBlocksAVX2(SB), NOSPLIT, $0-48
	// STEP: to setdone when no whole block is left, else the block's
	// line breaks in DX (defined here, where n is an argument).
#define STEP \
	LEAQ 64(AX), DX; \
	CMPQ DX, n+8(FP); \
	JA   setdone; \
	NLMASK

	MOVQ         p+0(FP), SI
	MOVQ         set+16(FP), DX
	MOVQ         0(DX), BX
	ADDQ         SI, BX
	MOVQ         8(DX), DI
	ADDQ         SI, DI
	MOVQ         16(DX), R8
	ADDQ         SI, R8
	MOVQ         24(DX), R9
	ADDQ         SI, R9
	MOVQ         32(DX), R10
	ADDQ         SI, R10
	MOVQ         40(DX), R11
	ADDQ         SI, R11
	VPBROADCASTB 48(DX), Y4
	VPBROADCASTB 49(DX), Y5
	VPBROADCASTB 50(DX), Y6
	VPBROADCASTB 51(DX), Y7
	VPBROADCASTB 52(DX), Y8
	VPBROADCASTB 53(DX), Y9
	VPBROADCASTB 54(DX), Y15
	VPBROADCASTB 55(DX), Y14
	MOVBLZX      54(DX), CX
	MOVQ         56(DX), DX
	XORQ         AX, AX
	XORQ         R12, R12
	MOVQ         $-1, R13
	TESTL        CX, CX
	JZ           casesensitive
	CMPQ         DX, $2
	JEQ          loop2f
	JGT          loop3f

loop1f:
	STEP
	PAIRF(BX, DI, Y4, Y5, Y12, Y13)
	NEXT(loop1f, nl1f)

loop2f:
	STEP
	PAIRF(BX, DI, Y4, Y5, Y12, Y13)
	PAIRF(R8, R9, Y6, Y7, Y10, Y11)
	MORE
	NEXT(loop2f, nl2f)

loop3f:
	STEP
	PAIRF(BX, DI, Y4, Y5, Y12, Y13)
	PAIRF(R8, R9, Y6, Y7, Y10, Y11)
	MORE
	PAIRF(R10, R11, Y8, Y9, Y10, Y11)
	MORE
	NEXT(loop3f, nl3f)

casesensitive:
	CMPQ DX, $2
	JEQ  loop2c
	JGT  loop3c

loop1c:
	STEP
	PAIRC(BX, DI, Y4, Y5, Y12, Y13)
	NEXT(loop1c, nl1c)

loop2c:
	STEP
	PAIRC(BX, DI, Y4, Y5, Y12, Y13)
	PAIRC(R8, R9, Y6, Y7, Y10, Y11)
	MORE
	NEXT(loop2c, nl2c)

loop3c:
	STEP
	PAIRC(BX, DI, Y4, Y5, Y12, Y13)
	PAIRC(R8, R9, Y6, Y7, Y10, Y11)
	MORE
	PAIRC(R10, R11, Y8, Y9, Y10, Y11)
	MORE
	NEXT(loop3c, nl3c)

setfound:
	// The first place j of the block; its line breaks before j count.
	VPMOVMSKB Y12, CX
	VPMOVMSKB Y13, BX
	SHLQ      $32, BX
	ORQ       BX, CX
	BSFQ      CX, CX
	MOVQ      $1, BX
	SHLQ      CX, BX
	DECQ      BX
	ANDQ      BX, DX
	JZ        setfound2
	POPCNTQ   DX, BX
	ADDQ      BX, R12
	BSRQ      DX, DX
	ADDQ      AX, DX
	MOVQ      DX, R13

setfound2:
	ADDQ       CX, AX
	MOVQ       AX, pos+24(FP)
	MOVQ       R12, nls+32(FP)
	MOVQ       R13, lastnl+40(FP)
	VZEROUPPER
	RET

setdone:
	NOTQ       AX
	MOVQ       AX, pos+24(FP)
	MOVQ       R12, nls+32(FP)
	MOVQ       R13, lastnl+40(FP)
	VZEROUPPER
	RET
