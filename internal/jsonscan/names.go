package jsonscan

import (
	"slices"
)

// Names is a fixed set of member names, for a reader that asks of every
// member of every line whether it is one of them (engine/doctor's known
// fields): a name is looked up from its length and four of its bytes, a
// multiply and one comparison of the whole name in the usual case,
// where a map[string] hashes the whole name (runtime.mapaccess1_faststr,
// a tenth of doctor's line work on a cold start). Safe for use by many
// goroutines once made.
type Names struct {
	// slots are a linear-probing table of 1 + an index into names (0:
	// empty), mask+1 long, a power of two at least 4 times the names.
	slots []uint16
	names []string
	mask  uint64
	shift uint
	seed  uint64
}

// NewNames is the set of names (duplicates kept once; at most 65 535).
func NewNames(names ...string) *Names {
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) >= 1<<16-1 {
		panic("jsonscan: too many names")
	}
	bits := uint(4)
	for 1<<bits < 4*len(names) {
		bits++
	}
	n := &Names{names: names, mask: 1<<bits - 1, shift: 64 - bits}
	// The seed whose table probes least, of a few tried: almost always
	// one with no collision at all.
	best, bestProbes := uint64(0), -1
	seed := uint64(0x9E3779B97F4A7C15)
	for try := 0; try < 64 && bestProbes != 0; try++ {
		n.seed = seed | 1
		if p := n.fill(); bestProbes < 0 || p < bestProbes {
			best, bestProbes = n.seed, p
		}
		seed = seed*6364136223846793005 + 1442695040888963407
	}
	n.seed = best
	n.fill()
	return n
}

// fill makes the table with n.seed and returns its probes past the
// first slot, summed over the names.
func (n *Names) fill() int {
	n.slots = make([]uint16, n.mask+1)
	probes := 0
	for i, name := range n.names {
		h := n.hash(name)
		for n.slots[h] != 0 {
			h = (h + 1) & n.mask
			probes++
		}
		n.slots[h] = uint16(i + 1)
	}
	return probes
}

// hash is the slot name starts probing from: its length and its first,
// last, middle and quarter bytes, multiplied.
func (n *Names) hash(name string) uint64 { return nameHash(name, n.seed, n.shift) }

func nameHash[S string | []byte](name S, seed uint64, shift uint) uint64 {
	x := uint64(len(name))
	if l := len(name); l > 0 {
		x |= uint64(name[0])<<8 | uint64(name[l-1])<<16 | uint64(name[l>>1])<<24 | uint64(name[l>>2])<<32
	}
	return (x * seed) >> shift
}

// Index is the index of key in the set's names in sorted order, or -1
// when key is not one of them.
func (n *Names) Index(key []byte) int {
	h := nameHash(key, n.seed, n.shift)
	for {
		s := n.slots[h]
		if s == 0 {
			return -1
		}
		if n.names[s-1] == string(key) {
			return int(s) - 1
		}
		h = (h + 1) & n.mask
	}
}

// Has says key is one of the names.
func (n *Names) Has(key []byte) bool { return n.Index(key) >= 0 }

// Len is the number of names.
func (n *Names) Len() int { return len(n.names) }

// Name is the i-th name in sorted order.
func (n *Names) Name(i int) string { return n.names[i] }
