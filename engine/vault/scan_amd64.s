#include "textflag.h"

// func scanAVX2(p *byte, n int) (k int, m uint64)
//
// Looks at the n 32-byte blocks from p until one holds a newline, an
// 'I' or a NUL, and returns that block's index k (n when none does) and
// which of its bytes are (bit j: byte 32k+j). Y1 '\n', Y2 'I', Y3 zero.
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
	TESTQ        CX, CX
	JEQ          none

loop:
	VMOVDQU   (SI), Y4
	VPCMPEQB  Y4, Y1, Y5
	VPCMPEQB  Y4, Y2, Y6
	VPCMPEQB  Y4, Y3, Y7
	VPOR      Y5, Y6, Y5
	VPOR      Y5, Y7, Y5
	VPMOVMSKB Y5, AX
	TESTL     AX, AX
	JNE       found
	ADDQ      $32, SI
	INCQ      R8
	CMPQ      R8, CX
	JNE       loop

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
