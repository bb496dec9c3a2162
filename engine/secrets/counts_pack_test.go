package secrets

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// someCounts is n entries as Counts keeps them: every third with a head
// hash, every fifth settled, every seventh with problems.
func someCounts(n int) keptCounts {
	k := keptCounts{}
	for i := range n {
		st := model.FileStamp{Size: int64(i * 37), ModTime: int64(i) * 1e9, ChangeTime: -int64(i), ID: model.FileID{Dev: 66, Ino: uint64(i), Known: i%2 == 0}}
		if i%3 == 0 {
			st.HeadLen = i % 4096
			st.Head[0], st.Head[31] = byte(i), byte(i>>8)
		}
		c := counted{Bytes: int64(i) << 20, Kept: i % 11, Read: i%4 != 1, Settled: i%5 == 0}
		if i%7 == 0 {
			c.Problems = problemsOf([]model.Problem{
				{File: fmt.Sprintf("projects/p/%d.jsonl", i), Line: i, Kind: model.ProblemUnreadable, Reason: "cut short"},
				{File: "x", Kind: model.ProblemKind("other")},
			})
		}
		k[fmt.Sprintf("projects/-home-u-p%d/%08d.jsonl", i%13, i)] = diskcache.Entry[counted]{Stamp: st, Value: c, Settled: i%5 == 1}
	}
	return k
}

// TestKeptCountsPackRoundTrip: the packed counts read back as they were
// kept, through the cache (empty and full); a damaged form is an error,
// never a panic or a wrong map.
func TestKeptCountsPackRoundTrip(t *testing.T) {
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	for _, n := range []int{0, 1, 300} {
		want := someCounts(n)
		name := diskcache.Name(countsKind, fmt.Sprint("/home", n))
		if err := diskcache.Save(cache, countsKind, name, want); err != nil {
			t.Fatal(err)
		}
		got, ok := diskcache.Load[keptCounts](cache, countsKind, name)
		if !ok || len(got) != n || (n > 0 && !reflect.DeepEqual(got, want)) {
			t.Fatalf("%d entries: read back %d (ok %v), not as kept", n, len(got), ok)
		}
	}
	b := someCounts(40).Pack()
	for cut := range len(b) {
		var k keptCounts
		if err := k.Unpack(b[:cut]); err == nil {
			t.Fatalf("the form cut at %d of %d bytes decoded", cut, len(b))
		}
	}
	b[0]++
	var k keptCounts
	if err := k.Unpack(b); err == nil {
		t.Fatal("another version's form decoded")
	}
}

// TestKeptCountsLoadAllocations: a warm start reads the counts' cache
// (some 15 000 entries on W) with next to no allocation an entry (gob's
// reflection made 2.2 on these entries: the key, the stamp's bytes; some
// 9 MB a warm start).
func TestKeptCountsLoadAllocations(t *testing.T) {
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	const n = 3000
	name := diskcache.Name(countsKind, "/home")
	if err := diskcache.Save(cache, countsKind, name, someCounts(n)); err != nil {
		t.Fatal(err)
	}
	a := testing.AllocsPerRun(3, func() {
		if k, ok := diskcache.Load[keptCounts](cache, countsKind, name); !ok || len(k) != n {
			t.Fatalf("read %d entries (ok %v)", len(k), ok)
		}
	})
	t.Logf("loading %d entries: %.0f allocations, %.3f an entry", n, a, a/n)
	if a/n > 0.5 {
		t.Fatalf("loading the counts allocates %.2f times an entry, want at most 0.5", a/n)
	}
}

// BenchmarkCountsCacheLoad: loading a counts cache of W's size (14 555
// entries) packed (keptCounts) and as gob wrote it before (the same map
// through reflection). scripts/secrets-cache-bench.sh runs it.
func BenchmarkCountsCacheLoad(b *testing.B) {
	cache := diskcache.New(filepath.Join(b.TempDir(), "cache"), testroot.New(b), model.OSWriteFS{})
	k := someCounts(14555)
	name := diskcache.Name(countsKind, "/home")
	if err := diskcache.Save(cache, countsKind, name, k); err != nil {
		b.Fatal(err)
	}
	if err := diskcache.Save(cache, "gob.1", "gob", map[string]diskcache.Entry[counted](k)); err != nil {
		b.Fatal(err)
	}
	b.Run("packed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if v, ok := diskcache.Load[keptCounts](cache, countsKind, name); !ok || len(v) != len(k) {
				b.Fatal("not loaded")
			}
		}
	})
	b.Run("gob", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if v, ok := diskcache.Load[map[string]diskcache.Entry[counted]](cache, "gob.1", "gob"); !ok || len(v) != len(k) {
				b.Fatal("not loaded")
			}
		}
	})
}

// TestKeptCountsUnpackSlicesItsPayload: the names and problems unpacked
// are slices of the payload Load handed Unpack, not of a copy of it (the
// copy was 1.4 MB a warm start on W; diskcache's
// TestLoadHandsUnpackAPayloadOfItsOwn says the payload is never reused).
func TestKeptCountsUnpackSlicesItsPayload(t *testing.T) {
	b := someCounts(30).Pack()
	var k keptCounts
	if err := k.Unpack(b); err != nil {
		t.Fatal(err)
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	in := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(b))
	}
	for name, e := range k {
		if !in(name) {
			t.Fatalf("name %q is not a slice of the payload", name)
		}
		for _, p := range e.Value.problems() {
			if p.File != "" && !in(p.File) {
				t.Fatalf("problem file %q is not a slice of the payload", p.File)
			}
		}
	}
}
