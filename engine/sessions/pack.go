package sessions

import (
	"encoding/binary"
	"math"

	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/model"
)

// usagePack is one file's usage lines (those ccusage counts, in file
// order, repeats of an id pair within the file left out), packed: the
// report keeps every file's lines until the home-wide dedupe has decided
// which count, and a line held as a struct cost about 390 bytes of heap
// (a 104-byte line, its slice's growth, its cache copy and the dedupe
// map's entry). Packed, a line is its 16-byte key (when keyed) and some
// 12 bytes of varints, and the report sums the lines in the order it
// always did, so its float costs print the same digits.
type usagePack struct {
	// n counts the lines.
	n int
	// keys holds the 16-byte key of each keyed line, in order.
	keys []byte
	// data holds each line: a flags byte (packKeyed, packFast,
	// packRecorded), the model's index in models (uvarint), the four
	// counts and the 1-hour cache writes (zigzag varints), and the
	// recorded costUSD's 8 bytes when there is one.
	data []byte
	// models are the lines' model names ("" included), each once.
	models []string
	// dropped are the indexes of lines the home-wide dedupe dropped
	// (counted in another file), ascending; set by dedupeLikeCcusage.
	dropped []int32
}

const (
	packKeyed = 1 << iota
	packFast
	packRecorded
)

// add appends one line.
func (p *usagePack) add(key [2]uint64, keyed bool, r pricing.Response) {
	var flags byte
	if keyed {
		flags |= packKeyed
		p.keys = binary.LittleEndian.AppendUint64(p.keys, key[0])
		p.keys = binary.LittleEndian.AppendUint64(p.keys, key[1])
	}
	if r.Fast {
		flags |= packFast
	}
	if r.HasRecorded {
		flags |= packRecorded
	}
	m := -1
	for i, name := range p.models {
		if name == r.Model {
			m = i
			break
		}
	}
	if m < 0 {
		m = len(p.models)
		p.models = append(p.models, r.Model)
	}
	d := append(p.data, flags)
	d = binary.AppendUvarint(d, uint64(m))
	u := r.Usage
	for _, v := range [...]int64{u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, r.CacheWrite1h} {
		d = binary.AppendVarint(d, v)
	}
	if r.HasRecorded {
		d = binary.LittleEndian.AppendUint64(d, math.Float64bits(r.Recorded))
	}
	p.data = d
	p.n++
}

// packLine is one line read back from a pack.
type packLine struct {
	key   [2]uint64
	keyed bool
	price pricing.Response
}

// packReader reads a pack's lines in order.
type packReader struct {
	p       *usagePack
	i       int // the index of the next line
	off, ko int // offsets in data and keys
}

// next reads the next line into l; false past the last one, or where
// the pack does not read (a cache file is checked before it is used,
// but a pack is never trusted to index safely).
func (r *packReader) next(l *packLine) bool {
	p := r.p
	if r.i >= p.n || r.off >= len(p.data) {
		return false
	}
	d := p.data[r.off:]
	flags := d[0]
	n := 1
	m, k := binary.Uvarint(d[n:])
	if k <= 0 || m >= uint64(len(p.models)) {
		return false
	}
	n += k
	var v [5]int64
	for j := range v {
		if v[j], k = binary.Varint(d[n:]); k <= 0 {
			return false
		}
		n += k
	}
	*l = packLine{keyed: flags&packKeyed != 0}
	l.price = pricing.Response{Model: p.models[m], CacheWrite1h: v[4], Fast: flags&packFast != 0,
		Usage: model.Usage{InputTokens: v[0], OutputTokens: v[1], CacheCreationInputTokens: v[2], CacheReadInputTokens: v[3]}}
	if flags&packRecorded != 0 {
		if len(d) < n+8 {
			return false
		}
		l.price.Recorded, l.price.HasRecorded = math.Float64frombits(binary.LittleEndian.Uint64(d[n:])), true
		n += 8
	}
	if l.keyed {
		if len(p.keys) < r.ko+16 {
			return false
		}
		l.key = [2]uint64{binary.LittleEndian.Uint64(p.keys[r.ko:]), binary.LittleEndian.Uint64(p.keys[r.ko+8:])}
		r.ko += 16
	}
	r.off += n
	r.i++
	return true
}

// each calls fn with each line the dedupe kept, in order.
func (p *usagePack) each(fn func(l *packLine)) {
	r := packReader{p: p}
	var l packLine
	drop := p.dropped
	for i := 0; r.next(&l); i++ {
		if len(drop) > 0 && int(drop[0]) == i {
			drop = drop[1:]
			continue
		}
		fn(&l)
	}
}

// keyCount counts the keyed lines.
func (p *usagePack) keyCount() int { return len(p.keys) / 16 }

// keySet is a set of keys for the home-wide dedupe: open addressing with
// linear probing in a table at most two thirds full. The keys are SHA-256
// bits already, so their low word is the slot, with no hashing; a Go
// map of them costs about three times the time and more memory.
type keySet struct {
	slots [][2]uint64
	mask  uint64
	// zero says the all-zero key, which marks an empty slot, is in the
	// set.
	zero bool
}

func newKeySet(n int) *keySet {
	size := 16
	for size < n+n/2 {
		size *= 2
	}
	return &keySet{slots: make([][2]uint64, size), mask: uint64(size - 1)}
}

// add puts k in the set and reports whether it was already there.
func (s *keySet) add(k [2]uint64) (had bool) {
	if k == ([2]uint64{}) {
		had, s.zero = s.zero, true
		return had
	}
	for i := k[0] & s.mask; ; i = (i + 1) & s.mask {
		switch s.slots[i] {
		case k:
			return true
		case [2]uint64{}:
			s.slots[i] = k
			return false
		}
	}
}
