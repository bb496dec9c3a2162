#include "textflag.h"

// The two loops' shared parts (registers as in blocksAVX2).

// ARGS loads the arguments: SI p, CX n, R8 bitmap, R9 and R10 the
// carries, BX t.
#define ARGS \
	MOVQ p+0(FP), SI; \
	MOVQ n+8(FP), CX; \
	MOVQ bitmap+24(FP), R8; \
	MOVQ c+32(FP), AX; \
	MOVQ 0(AX), R9; \
	MOVQ 8(AX), R10; \
	MOVQ t+40(FP), BX

// ESCAPES is escapes in classify.go: from the backslashes in BX and the
// carry in R9 (DI the odd bits), the escaped bytes into R13 and the next
// carry into R9. potential = b &^ carry; code = (potential<<1 | odd) -
// potential ^ odd; escaped = code ^ (b | carry); carry = (code & b) >> 63.
#define ESCAPES \
	MOVQ R9, R11; \
	NOTQ R11; \
	ANDQ BX, R11; \
	LEAQ (R11)(R11*1), R12; \
	ORQ  DI, R12; \
	SUBQ R11, R12; \
	XORQ DI, R12; \
	MOVQ BX, R13; \
	ORQ  R9, R13; \
	XORQ R12, R13; \
	ANDQ BX, R12; \
	SHRQ $63, R12; \
	MOVQ R12, R9

// ESCAPES0 is ESCAPES for a carry of 0 (R9 == 0): the usual block, whose
// answer then does not wait for the previous block's (the branch to
// ESCAPES is predicted not taken, so blocks overlap).
#define ESCAPES0 \
	LEAQ (BX)(BX*1), R12; \
	ORQ  DI, R12; \
	SUBQ BX, R12; \
	XORQ DI, R12; \
	MOVQ BX, R13; \
	XORQ R12, R13; \
	ANDQ BX, R12; \
	SHRQ $63, R12; \
	MOVQ R12, R9

// AFTERU is afterU in classify.go: from the escaped 'u's in AX and the
// carry in R10, the bytes that must be hex digits into R11 and the next
// carry into R10. t = ue | ue<<1; need = t<<1 | t<<3 | carry; r = ue |
// ue>>1; carry = r>>60 | r>>62.
#define AFTERU \
	MOVQ AX, R11; \
	SHLQ $1, R11; \
	ORQ  AX, R11; \
	MOVQ R11, R12; \
	SHLQ $1, R12; \
	SHLQ $3, R11; \
	ORQ  R12, R11; \
	ORQ  R10, R11; \
	MOVQ AX, R12; \
	SHRQ $1, R12; \
	ORQ  AX, R12; \
	MOVQ R12, R10; \
	SHRQ $60, R10; \
	SHRQ $62, R12; \
	ORQ  R12, R10

// CARRYOUT stores the carries back in c.
#define CARRYOUT \
	MOVQ c+32(FP), AX; \
	MOVQ R9, 0(AX); \
	MOVQ R10, 8(AX)

// func blocksAVX2(p *byte, n, tail int, bitmap *words, c *carry, t *classTables) (high bool)
//
// blocksGo for n blocks of 64 bytes from p, 32 bytes a vector: for each
// block three words at bitmap (quote, esc, bad), the escape state
// carried in c; and whether any byte is above 0x7F. See classify.go for
// the bitmaps; the classes of the escape checks come from two nibble
// lookups (VPSHUFB) in t, the class bit of 'u' being 0x80. The classes
// are looked up only in a block with an escape or the end of a \u
// escape, the hex digits only in a block with a \u escape or the end of
// one.
//
// Registers: SI the block, CX the blocks left, R8 bitmap, R9 the escape
// carry, R10 the \u carry, DI simdjson's odd bits; per block AX quotes,
// BX backslashes, DX control bytes (then bad), R11-R13 work. Y7 zero, Y8
// '"', Y9 '\\', Y10 0x1f, Y11 0x0f, Y12 t.lo, Y13 t.hi, Y15 the OR of
// every byte.
TEXT ·blocksAVX2(SB), NOSPLIT, $0-49
	ARGS
	VMOVDQU      0(BX), Y12
	VMOVDQU      32(BX), Y13
	MOVQ         $0x2222222222222222, AX
	MOVQ         AX, X8
	VPBROADCASTQ X8, Y8
	MOVQ         $0x5c5c5c5c5c5c5c5c, AX
	MOVQ         AX, X9
	VPBROADCASTQ X9, Y9
	MOVQ         $0x1f1f1f1f1f1f1f1f, AX
	MOVQ         AX, X10
	VPBROADCASTQ X10, Y10
	MOVQ         $0x0f0f0f0f0f0f0f0f, AX
	MOVQ         AX, X11
	VPBROADCASTQ X11, Y11
	VPXOR        Y7, Y7, Y7
	VPXOR        Y15, Y15, Y15
	MOVQ         $0xaaaaaaaaaaaaaaaa, DI

	TESTQ        CX, CX
	JEQ          done

loop:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPOR    Y0, Y15, Y15
	VPOR    Y1, Y15, Y15

	// Quotes, backslashes, control bytes (max(x, 0x1f) == 0x1f).
	VPCMPEQB  Y0, Y8, Y2
	VPCMPEQB  Y1, Y8, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, R11
	SHLQ      $32, R11
	ORQ       R11, AX
	VPCMPEQB  Y0, Y9, Y2
	VPCMPEQB  Y1, Y9, Y3
	VPMOVMSKB Y2, BX
	VPMOVMSKB Y3, R11
	SHLQ      $32, R11
	ORQ       R11, BX
	VPMAXUB   Y0, Y10, Y2
	VPMAXUB   Y1, Y10, Y3
	VPCMPEQB  Y2, Y10, Y2
	VPCMPEQB  Y3, Y10, Y3
	VPMOVMSKB Y2, DX
	VPMOVMSKB Y3, R11
	SHLQ      $32, R11
	ORQ       R11, DX

	// Escaped bytes into R13.
	TESTQ R9, R9
	JNE   carried1
	ESCAPES0
	JMP   escaped1

carried1:
	ESCAPES

escaped1:

	// Unescaped quotes; esc.
	MOVQ R13, R11
	NOTQ R11
	ANDQ R11, AX
	MOVQ AX, 0(R8)
	MOVQ R13, 8(R8)

	// A block with no escaped byte and no hex digit wanted from the
	// last one (most blocks of most lines) has no bad byte but its
	// control bytes: its classes are not looked up.
	MOVQ  R13, R11
	ORQ   R10, R11
	JEQ   store

	// Classes: lo[x & 15] & hi[x >> 4] (VPSHUFB gives 0 for x >= 0x80).
	VPSRLW   $4, Y0, Y2
	VPSRLW   $4, Y1, Y3
	VPAND    Y2, Y11, Y2
	VPAND    Y3, Y11, Y3
	VPSHUFB  Y2, Y13, Y2
	VPSHUFB  Y3, Y13, Y3
	VPSHUFB  Y0, Y12, Y4
	VPSHUFB  Y1, Y12, Y5
	VPAND    Y2, Y4, Y4
	VPAND    Y3, Y5, Y5
	MOVQ     t+40(FP), R11
	VPAND    64(R11), Y4, Y0
	VPAND    64(R11), Y5, Y1
	VPCMPEQB Y0, Y7, Y0 // not a byte to escape
	VPCMPEQB Y1, Y7, Y1

	// bad = control | esc &^ escapable
	VPMOVMSKB Y0, AX
	VPMOVMSKB Y1, R12
	SHLQ      $32, R12
	ORQ       R12, AX
	ANDQ      R13, AX
	ORQ       AX, DX

	// Escaped 'u's (AX), and when there is one here or before, the hex
	// digits they want (R11; afterU): bad |= need &^ hex.
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y5, R11
	SHLQ      $32, R11
	ORQ       R11, AX
	ANDQ      R13, AX
	MOVQ      AX, R11
	ORQ       R10, R11
	JEQ       store
	AFTERU
	MOVQ      t+40(FP), R12
	VPAND     96(R12), Y4, Y2
	VPAND     96(R12), Y5, Y3
	VPCMPEQB  Y2, Y7, Y2 // not a hex digit
	VPCMPEQB  Y3, Y7, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, R12
	SHLQ      $32, R12
	ORQ       R12, AX
	ANDQ      R11, AX
	ORQ       AX, DX

store:
	MOVQ DX, 16(R8)
	ADDQ $64, SI
	ADDQ $24, R8
	DECQ CX
	JNE  loop

done:
	CARRYOUT
	VPMOVMSKB Y15, AX
	TESTL     AX, AX
	SETNE     high+48(FP)
	VZEROUPPER
	RET

// func blocksAVX512(p *byte, n, tail int, bitmap *words, c *carry, t *classTables) (high bool)
//
// blocksAVX2 with a block a vector (AVX-512BW): each
// class's bits come straight out of a compare or a test into a mask
// register. Registers as in blocksAVX2; Z5, Z6, Z14 the 'u', hex and
// escape class bits, Z8 '"', Z9 '\\', Z10 0x20, Z11 0x0f, Z12 t.lo, Z13
// t.hi, Z15 the OR of every byte.
TEXT ·blocksAVX512(SB), NOSPLIT, $0-49
	ARGS
	VBROADCASTI32X4 0(BX), Z12
	VBROADCASTI32X4 32(BX), Z13
	VPBROADCASTB    64(BX), Z14
	VPBROADCASTB    96(BX), Z6
	VPBROADCASTB    128(BX), Z5
	MOVL            $0x22, AX
	VPBROADCASTB    AX, Z8
	MOVL            $0x5c, AX
	VPBROADCASTB    AX, Z9
	MOVL            $0x20, AX
	VPBROADCASTB    AX, Z10
	MOVL            $0x0f, AX
	VPBROADCASTB    AX, Z11
	VPXORQ          Z15, Z15, Z15
	MOVQ            $0xaaaaaaaaaaaaaaaa, DI

	KXNORQ          K7, K7, K7 // every byte of a whole block
	TESTQ           CX, CX
	JEQ             tail512

loop512:
	VMOVDQU8.Z 0(SI), K7, Z0
	VPORQ     Z0, Z15, Z15
	VPCMPEQB  Z8, Z0, K1
	VPCMPEQB  Z9, Z0, K2
	VPCMPUB   $1, Z10, Z0, K3 // below 0x20
	VPSRLW    $4, Z0, Z1
	VPANDQ    Z11, Z1, Z1
	VPSHUFB   Z1, Z13, Z1
	VPSHUFB   Z0, Z12, Z2
	VPANDQ    Z1, Z2, Z2
	VPTESTNMB Z14, Z2, K4 // not a byte to escape
	VPTESTNMB Z6, Z2, K5  // not a hex digit
	VPTESTMB  Z5, Z2, K6  // 'u'

	// Escaped bytes into R13.
	KMOVQ K2, BX
	TESTQ R9, R9
	JNE   carried2
	ESCAPES0
	JMP   escaped2

carried2:
	ESCAPES

escaped2:

	KMOVQ K1, AX
	MOVQ  R13, R11
	NOTQ  R11
	ANDQ  R11, AX // quotes &^ esc
	MOVQ  AX, 0(R8)
	MOVQ  R13, 8(R8)

	KMOVQ K3, DX
	KMOVQ K4, AX
	ANDQ  R13, AX
	ORQ   AX, DX

	KMOVQ K6, AX
	ANDQ  R13, AX // ue
	MOVQ  AX, R11
	ORQ   R10, R11
	JEQ   store512
	AFTERU
	KMOVQ K5, AX
	ANDQ  R11, AX
	ORQ   AX, DX

store512:
	MOVQ DX, 16(R8)
	ADDQ $64, SI
	ADDQ $24, R8
	DECQ CX
	JNE  loop512

	// The last partial block: its tail bytes, zeros after them (a
	// masked load, which does not fault past them), once.
tail512:
	MOVQ  tail+16(FP), CX
	TESTQ CX, CX
	JEQ   done512
	MOVQ  $0, tail+16(FP)
	MOVQ  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	KMOVQ AX, K7
	MOVQ  $1, CX
	JMP   loop512

done512:
	CARRYOUT
	VPMOVB2M Z15, K1
	KORTESTQ K1, K1
	SETNE    high+48(FP)
	VZEROUPPER
	RET
