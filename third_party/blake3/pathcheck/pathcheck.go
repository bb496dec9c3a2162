// Package pathcheck compares every code path of this BLAKE3 (generic Go,
// SSE4.1, AVX2, AVX-512) with the generic one (memscope;
// third_party/blake3/MEMSCOPE.md). Paths the processor lacks are named in
// the test's log and left out; the generic one and the machine's own
// always run. It is a package, not only a test file, so that memscope's
// own tests (go test ./... leaves this module out) run it:
// engine/vault/blake3paths_test.go.
package pathcheck

import (
	"bytes"
	"encoding/hex"
	"math/rand"
	"testing"

	"github.com/zeebo/blake3"
	"github.com/zeebo/blake3/internal/alg"
	"github.com/zeebo/blake3/internal/alg/hash/hash_pure"
	"github.com/zeebo/blake3/internal/consts"
)

type path struct {
	name                string
	avx512, avx2, sse41 bool
}

// machine holds what the processor (and the BLAKE3_* variables) allow,
// read before any test switches a path.
var machine = path{"machine", consts.HasAVX512, consts.HasAVX2, consts.HasSSE41}

var generic = path{name: "generic"}

// paths lists the paths this machine can run, generic first.
func paths(t testing.TB) []path {
	all := []path{
		generic,
		{name: "sse41", sse41: true},
		{name: "avx2", avx2: true, sse41: true},
		{name: "avx512", avx512: true, avx2: true, sse41: true},
	}
	var can []path
	for _, p := range all {
		if (p.avx512 && !machine.avx512) || (p.avx2 && !machine.avx2) || (p.sse41 && !machine.sse41) {
			t.Logf("path %s: not on this machine (or switched off by BLAKE3_*), not tested", p.name)
			continue
		}
		can = append(can, p)
	}
	return can
}

// use switches to p until the test ends.
func use(t testing.TB, p path) {
	consts.HasAVX512, consts.HasAVX2, consts.HasSSE41 = p.avx512, p.avx2, p.sse41
	t.Cleanup(func() {
		consts.HasAVX512, consts.HasAVX2, consts.HasSSE41 = machine.avx512, machine.avx2, machine.sse41
	})
}

var testKey = []byte("memscope blake3 paths test key!!")

// modes are the three hashers of the API, each read to 131 bytes (more
// than one output block).
var modes = []struct {
	name string
	new  func() *blake3.Hasher
}{
	{"hash", blake3.New},
	{"keyed", func() *blake3.Hasher {
		h, err := blake3.NewKeyed(testKey)
		if err != nil {
			panic(err)
		}
		return h
	}},
	{"derive", func() *blake3.Hasher { return blake3.NewDeriveKey("memscope 2026-11-30 blake3 paths test") }},
}

// digest hashes data written in pieces of the given sizes (the rest in
// one write) and reads 131 bytes of output.
func digest(newH func() *blake3.Hasher, data []byte, pieces []int) []byte {
	h := newH()
	for _, n := range pieces {
		if n > len(data) {
			n = len(data)
		}
		_, _ = h.Write(data[:n])
		data = data[n:]
	}
	_, _ = h.Write(data)
	out := make([]byte, 131)
	_, _ = h.Digest().Read(out)
	return out
}

// input is the official test vectors' input: byte i is i mod 251.
func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// Vectors checks every path against values of the BLAKE3 team's
// test_vectors.json (the first 32 bytes of the unkeyed hash).
func Vectors(t *testing.T) {
	want := map[int]string{
		0:      "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
		1:      "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213",
		1024:   "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7",
		1025:   "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444",
		8193:   "bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b",
		16384:  "f875d6646de28985646f34ee13be9a576fd515f76b5b0a26bb324735041ddde4",
		31744:  "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47",
		102400: "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085",
	}
	for _, p := range paths(t) {
		t.Run(p.name, func(t *testing.T) {
			use(t, p)
			for n, w := range want {
				got := blake3.Sum256(input(n))
				if hex.EncodeToString(got[:]) != w {
					t.Errorf("%d bytes: %x, want %s", n, got, w)
				}
			}
		})
	}
}

// Agree compares every path with the generic one for every length from
// 0 to 20 000 and random lengths up to 1 MiB, in the three modes (keyed
// and derive-key: every length only if full, else every 61st and those
// around the chunk and 8-chunk edges), written at once and in random
// pieces.
func Agree(t *testing.T, full bool) {
	ps := paths(t)
	t.Logf("machine: avx512=%v avx2=%v sse41=%v; testing %d paths", machine.avx512, machine.avx2, machine.sse41, len(ps))
	rng := rand.New(rand.NewSource(31))
	data := make([]byte, 1<<20)
	rng.Read(data)

	type kase struct {
		n      int
		pieces []int
	}
	var cases []kase
	for n := 0; n <= 20000; n++ {
		cases = append(cases, kase{n: n})
	}
	for i := 0; i < 40; i++ {
		n := rng.Intn(len(data) + 1)
		var pieces []int
		for j := rng.Intn(6); j > 0; j-- {
			pieces = append(pieces, rng.Intn(40000))
		}
		cases = append(cases, kase{n, pieces})
	}
	cases = append(cases, kase{n: len(data)}, kase{len(data), []int{1, 16384, 16385, 8191, 100000}})

	for mi, m := range modes {
		some := cases
		if !full && mi > 0 {
			some = nil
			for _, c := range cases {
				if c.n > 20000 || c.n%61 == 0 || c.n%1024 < 2 || c.n%1024 > 1022 || c.n%8192 < 66 {
					some = append(some, c)
				}
			}
		}
		want := make([][]byte, len(some))
		func() {
			use(t, generic)
			for i, c := range some {
				want[i] = digest(m.new, data[:c.n], c.pieces)
			}
		}()
		for _, p := range ps[1:] {
			t.Run(m.name+"/"+p.name, func(t *testing.T) {
				use(t, p)
				bad := 0
				for i, c := range some {
					if got := digest(m.new, data[:c.n], c.pieces); !bytes.Equal(got, want[i]) {
						t.Errorf("%d bytes in pieces %v: %x, generic %x", c.n, c.pieces, got[:32], want[i][:32])
						if bad++; bad == 5 {
							t.FailNow()
						}
					}
				}
			})
		}
	}
}

// Sum256Agree checks Sum256, which hashes an input of more than a chunk
// and up to 512 KiB in one go on the AVX-512 path (sumtree.go), against
// the generic hasher on every path: every length 0-20 000, the lengths
// around each way the input ends (a 16-chunk group, 8 chunks, a chunk, a
// block, the scratch's 512 KiB) and random ones up to 1 MiB, each from
// an unaligned start (full: around every multiple of 8 KiB to 1 MiB).
func Sum256Agree(t *testing.T, full bool) {
	rng := rand.New(rand.NewSource(256))
	data := make([]byte, 1<<20+2048+64)
	rng.Read(data)
	var lengths []int
	for n := 0; n <= 20000; n++ {
		lengths = append(lengths, n)
	}
	for base := 16384; base <= 1<<20; base += 8192 {
		if !full && base > 65536 && base != 512<<10 && base != 1<<20 {
			continue
		}
		for _, d := range []int{-1025, -1024, -1023, -65, -64, -63, -1, 0, 1, 63, 64, 65, 1023, 1024, 1025} {
			lengths = append(lengths, base+d)
		}
	}
	for i := 0; i < 40; i++ {
		lengths = append(lengths, rng.Intn(1<<20+1))
	}
	want := make([][32]byte, len(lengths))
	func() {
		use(t, generic)
		for i, n := range lengths {
			h := blake3.New()
			_, _ = h.Write(data[n%61 : n%61+n])
			copy(want[i][:], h.Sum(nil))
		}
	}()
	for _, p := range paths(t) {
		t.Run(p.name, func(t *testing.T) {
			use(t, p)
			bad := 0
			for i, n := range lengths {
				if got := blake3.Sum256(data[n%61 : n%61+n]); got != want[i] {
					t.Errorf("Sum256 of %d bytes: %x, generic %x", n, got, want[i])
					if bad++; bad == 5 {
						t.FailNow()
					}
				}
			}
		})
	}
}

// HashF16Counters checks the 16-chunk compressor directly against the
// generic one with chunk counters that carry into the high word.
func HashF16Counters(t *testing.T) {
	if !machine.avx512 {
		t.Logf("no AVX-512 here: HashF16 is the generic code, checked as such")
	}
	rng := rand.New(rand.NewSource(16))
	var in [16384]byte
	rng.Read(in[:])
	key := consts.IV
	for _, counter := range []uint64{0, 1, 0xfffffff0, 0xfffffff8, 0xffffffff, 1<<40 - 3, 1<<64 - 16} {
		for _, flags := range []uint32{0, consts.Flag_Keyed, consts.Flag_DeriveKeyMaterial} {
			var got, want [2][64]uint32
			var chain [8]uint32
			alg.HashF16(&got, &in, counter, flags, &key)
			hash_pure.HashF((*[8192]byte)(in[:8192]), 8192, counter, flags, &key, &want[0], &chain)
			hash_pure.HashF((*[8192]byte)(in[8192:]), 8192, counter+8, flags, &key, &want[1], &chain)
			if got != want {
				t.Errorf("counter %#x flags %#x: %x, generic %x", counter, flags, got, want)
			}
		}
		key[0]++
	}
}

// Fuzz compares every path with the generic one on seed repeated to
// reach 16 KiB and more, written in two pieces split at split.
func Fuzz(t *testing.T, seed []byte, repeat, split uint16) {
	data := bytes.Repeat(seed, int(repeat%64)+1)
	pieces := []int{int(split) % (len(data) + 1)}
	var sum [32]byte
	for i, p := range paths(t) {
		func() {
			use(t, p)
			got := blake3.Sum256(data[pieces[0]:])
			if i == 0 {
				sum = got
			} else if got != sum {
				t.Fatalf("Sum256 %s: %d bytes: %x, generic %x", p.name, len(data)-pieces[0], got, sum)
			}
		}()
	}
	for _, m := range modes {
		var want []byte
		for i, p := range paths(t) {
			func() {
				use(t, p)
				got := digest(m.new, data, pieces)
				if i == 0 {
					want = got
				} else if !bytes.Equal(got, want) {
					t.Fatalf("%s %s: %d bytes split at %d: %x, generic %x", m.name, p.name, len(data), pieces[0], got[:32], want[:32])
				}
			}()
		}
	}
}
