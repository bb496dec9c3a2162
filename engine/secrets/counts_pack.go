package secrets

import (
	"github.com/memscope/memscope/engine/diskcache"
)

// keptCounts is the counts' cache file (countsKind): a warm start reads
// its some 15 000 entries on W. encoding/gob read them field by field
// through reflection, a key string, a stamp's byte string and more
// apiece; Pack packs them instead
// (diskcache.Packed: the file's payload, one byte string whose strings
// read back as slices of one), with the same values back
// (TestKeptCountsPackRoundTrip).
type keptCounts map[string]diskcache.Entry[counted]

// countsPack is the packed form's version.
const countsPack = 1

// Pack packs the entries.
func (k keptCounts) Pack() []byte {
	p := diskcache.Packer{B: make([]byte, 0, 1+len(k)*96)}
	p.B = append(p.B, countsPack)
	p.Uint(uint64(len(k)))
	for name, e := range k {
		p.Str(name)
		p.Stamp(e.Stamp)
		p.Bool(e.Settled)
		c := e.Value
		p.Int(c.Bytes)
		p.Int(int64(c.Kept))
		p.Bool(c.Read)
		p.Bool(c.Settled)
		p.Problems(c.problems())
	}
	return p.B
}

// Unpack unpacks what Pack packed. b is Load's payload, read for it
// alone and not changed after: the names and problems are slices of it
// (diskcache.Unpacker.StartOwned), not of a copy of it (1.4 MB on W, a
// warm start).
func (k *keptCounts) Unpack(b []byte) error {
	var u diskcache.Unpacker
	u.StartOwned(b, countsPack)
	// An entry takes 16 bytes at least (the name's length, the stamp's
	// 8, two bools, two ints, two bools and a count).
	n := u.Count(16)
	out := make(keptCounts, n)
	for range n {
		name := u.Str()
		var e diskcache.Entry[counted]
		e.Stamp = u.Stamp()
		e.Settled = u.Bool()
		e.Value.Bytes = u.Int()
		e.Value.Kept = int(u.Int())
		e.Value.Read = u.Bool()
		e.Value.Settled = u.Bool()
		if probs := u.Problems(); probs != nil {
			// Declared here, so only an entry with problems moves a
			// slice to the heap.
			kept := probs
			e.Value.Problems = &kept
		}
		out[name] = e
	}
	if err := u.Done(); err != nil {
		return err
	}
	*k = out
	return nil
}
