#include "textflag.h"

// func stopBitsSSE2(p *byte, n int, out *uint64) (high bool)
//
// For each block of 16 bytes from p (n is a multiple of 16), sixteen
// bits at out (bit i of the block's word for byte i: little-endian, so
// the bits of byte k of the text land at bit k%64 of word k/64): set for
// '"', '\\' and the bytes below 0x20 (max(x, 0x1f) == 0x1f); and whether
// any byte has its high bit set. SSE2 only (every amd64 processor).
TEXT ·stopBitsSSE2(SB), NOSPLIT, $0-25
	MOVQ       p+0(FP), SI
	MOVQ       n+8(FP), CX
	MOVQ       out+16(FP), DI
	MOVQ       $0x2222222222222222, DX
	MOVQ       DX, X4
	PUNPCKLQDQ X4, X4
	MOVQ       $0x5c5c5c5c5c5c5c5c, DX
	MOVQ       DX, X5
	PUNPCKLQDQ X5, X5
	MOVQ       $0x1f1f1f1f1f1f1f1f, DX
	MOVQ       DX, X6
	PUNPCKLQDQ X6, X6
	PXOR       X7, X7
	XORQ       AX, AX

loop32:
	LEAQ     32(AX), BX
	CMPQ     BX, CX
	JA       loop16
	MOVOU    (SI)(AX*1), X0
	MOVOU    16(SI)(AX*1), X8
	POR      X0, X7
	POR      X8, X7
	MOVOU    X0, X1
	PCMPEQB  X4, X1
	MOVOU    X0, X2
	PCMPEQB  X5, X2
	PMAXUB   X6, X0
	PCMPEQB  X6, X0
	POR      X1, X0
	POR      X2, X0
	MOVOU    X8, X9
	PCMPEQB  X4, X9
	MOVOU    X8, X10
	PCMPEQB  X5, X10
	PMAXUB   X6, X8
	PCMPEQB  X6, X8
	POR      X9, X8
	POR      X10, X8
	PMOVMSKB X0, DX
	PMOVMSKB X8, R8
	SHLL     $16, R8
	ORL      R8, DX
	MOVL     DX, (DI)
	ADDQ     $4, DI
	MOVQ     BX, AX
	JMP      loop32

loop16:
	LEAQ     16(AX), BX
	CMPQ     BX, CX
	JA       done
	MOVOU    (SI)(AX*1), X0
	POR      X0, X7
	MOVOU    X0, X1
	PCMPEQB  X4, X1
	MOVOU    X0, X2
	PCMPEQB  X5, X2
	PMAXUB   X6, X0
	PCMPEQB  X6, X0
	POR      X1, X0
	POR      X2, X0
	PMOVMSKB X0, DX
	MOVW     DX, (DI)

done:
	PMOVMSKB X7, DX
	TESTL    DX, DX
	SETNE    high+24(FP)
	RET
