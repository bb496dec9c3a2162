#include "textflag.h"

// func scanAVX2(p *byte, n int) (k int, m uint64)
//
// Looks at the n 32-byte blocks from p until one holds a newline, an
// 'I' or a NUL, and returns that block's index k (n when none does) and
// which of its bytes are (bit j: byte 32k+j). Two blocks a round, their
// compares joined for one test; the last odd block alone. Y1 '\n', Y2
// 'I', Y3 zero; SI the round's first block, R8 its index, CX n, R9 n
// rounded down to even.
TEXT ·scanAVX2(SB), NOSPLIT, $0-32
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), CX
	XORQ         R8, R8
	MOVL         $0x0a, AX
	MOVQ         AX, X1
	VPBROADCASTB X1, Y1
	MOVL         $0x49, AX
	MOVQ         AX, X2
	VPBROADCASTB X2, Y2
	VPXOR        Y3, Y3, Y3
	MOVQ         CX, R9
	ANDQ         $-2, R9
	TESTQ        R9, R9
	JEQ          single

pair:
	VMOVDQU  (SI), Y4
	VMOVDQU  32(SI), Y8
	VPCMPEQB Y4, Y1, Y5
	VPCMPEQB Y4, Y2, Y6
	VPCMPEQB Y4, Y3, Y7
	VPCMPEQB Y8, Y1, Y9
	VPCMPEQB Y8, Y2, Y10
	VPCMPEQB Y8, Y3, Y11
	VPOR     Y5, Y6, Y5
	VPOR     Y9, Y10, Y9
	VPOR     Y5, Y7, Y5
	VPOR     Y9, Y11, Y9
	VPOR     Y5, Y9, Y12
	VPTEST   Y12, Y12
	JNZ      pairfound
	ADDQ     $64, SI
	ADDQ     $2, R8
	CMPQ     R8, R9
	JNE      pair
	JMP      single

pairfound:
	VPMOVMSKB Y5, AX
	TESTL     AX, AX
	JNE       found
	VPMOVMSKB Y9, AX
	INCQ      R8
	JMP       found

single:
	CMPQ      R8, CX
	JEQ       none
	VMOVDQU   (SI), Y4
	VPCMPEQB  Y4, Y1, Y5
	VPCMPEQB  Y4, Y2, Y6
	VPCMPEQB  Y4, Y3, Y7
	VPOR      Y5, Y6, Y5
	VPOR      Y5, Y7, Y5
	VPMOVMSKB Y5, AX
	TESTL     AX, AX
	JNE       found

none:
	MOVQ       CX, k+16(FP)
	MOVQ       $0, m+24(FP)
	VZEROUPPER
	RET

found:
	MOVQ       R8, k+16(FP)
	MOVQ       AX, m+24(FP)
	VZEROUPPER
	RET
