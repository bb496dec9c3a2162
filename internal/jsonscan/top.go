package jsonscan

import (
	"bytes"
	"sync/atomic"
)

// Top is the top-level members of the one line a Scanner accepted whole
// (Line, with Scanner.Keep pointing at it): each member's name and value
// as offsets in the line, in order. A second reader of the same line
// (engine/doctor's field scan in the shared pass) reads them here instead
// of walking the line's structure again.
type Top struct {
	d []byte
	// keys has the members' names, one after another.
	keys []byte
	mems []topMember
	// ok says the line was one valid JSON object, so mems are all its
	// members.
	ok bool
	// shape is the line's shape (Shape) once shaped is set; shapes are
	// the shapes seen, two a set (shapeSet).
	shape  uint64
	shaped bool
	shapes [shapesKept]shapeSeen
}

// A Top remembers 2<<shapeBits shapes, two in each slot's set: the
// kinds of record of one transcript (user, assistant, attachment,
// progress, system...), each with its members as they vary (23 in 16 MB
// of W's transcripts; a ring of the last 8 had a third of the lines
// read anew).
const (
	shapeBits  = 6
	shapesKept = 2 << shapeBits
)

// shapeSeen is a shape: its id, and the names (keys) and their ends (the
// k1 of each member) of the lines that have it.
type shapeSeen struct {
	id   uint64
	keys []byte
	ends []int
}

// shapeIDs numbers shapes, never twice in a process: a reader keeping
// what it worked out per shape (ShapeMemo) never takes one Top's shape
// for another's.
var shapeIDs atomic.Uint64

// topMember is one member: its name's span [k0, k1) in keys and its
// value's span [vs, ve) in the line.
type topMember struct{ k0, k1, vs, ve int }

// reset starts the members of d.
func (t *Top) reset(d []byte) {
	t.d, t.keys, t.mems, t.ok, t.shaped = d, t.keys[:0], t.mems[:0], false, false
}

// add notes the member named key (decoded) whose value is d[v:end].
func (t *Top) add(key []byte, v, end int) {
	k0 := len(t.keys)
	t.keys = append(t.keys, key...)
	t.mems = append(t.mems, topMember{k0: k0, k1: len(t.keys), vs: v, ve: end})
}

// Valid says the line was one valid JSON object.
func (t *Top) Valid() bool { return t != nil && t.ok }

// Len is the number of members (0 when the line was not valid).
func (t *Top) Len() int {
	if !t.Valid() {
		return 0
	}
	return len(t.mems)
}

// Each calls fn with the name (decoded when written with escapes) and
// the raw value of each member, in order, as EachMember does on the same
// line; nothing when the line was not one valid object. fn must not keep
// key.
func (t *Top) Each(fn func(key, val []byte)) {
	if !t.Valid() {
		return
	}
	for _, m := range t.mems {
		fn(t.keys[m.k0:m.k1:m.k1], t.d[m.vs:m.ve])
	}
}

// Member is the raw value of the last member named name (decoded, as
// Each gives it: the one a decoder keeping the last of a member written
// twice reads) and whether there is one; none when the line was not one
// valid object. A reader wanting a member or two takes them here
// without a call a member.
func (t *Top) Member(name string) ([]byte, bool) {
	if !t.Valid() {
		return nil, false
	}
	for i := len(t.mems) - 1; i >= 0; i-- {
		m := t.mems[i]
		if m.k1-m.k0 == len(name) && string(t.keys[m.k0:m.k1]) == name {
			return t.d[m.vs:m.ve], true
		}
	}
	return nil, false
}

// At is the name (decoded) and raw value of member i (0 <= i < Len()),
// as Each gives them.
func (t *Top) At(i int) (key, val []byte) {
	m := t.mems[i]
	return t.keys[m.k0:m.k1:m.k1], t.d[m.vs:m.ve]
}

// Shape is the line's shape, its member names in order: two lines with
// the same shape have the same names (decoded) in the same order, and a
// shape is never given to other names, by this Top or another, while the
// process runs. 0 when the line was not one valid object. The lines of a
// transcript have few shapes, so a reader that works out something from
// the names alone (which names it does not know, where the type is)
// does it once a shape (ShapeMemo) instead of once a line.
func (t *Top) Shape() uint64 {
	if !t.Valid() {
		return 0
	}
	if t.shaped {
		return t.shape
	}
	t.shaped = true
	set := t.shapeSet()
	for i := set; i < set+2; i++ {
		if e := &t.shapes[i]; e.id != 0 && len(e.ends) == len(t.mems) && bytes.Equal(e.keys, t.keys) && t.sameEnds(e.ends) {
			t.shape = e.id
			return e.id
		}
	}
	// A new shape: in the set's empty slot, else in place of the one
	// the set took last.
	i := set
	if t.shapes[i].id != 0 && (t.shapes[i+1].id == 0 || t.shapes[i+1].id < t.shapes[i].id) {
		i++
	}
	e := &t.shapes[i]
	e.id = shapeIDs.Add(1)
	e.keys = append(e.keys[:0], t.keys...)
	e.ends = e.ends[:0]
	for _, m := range t.mems {
		e.ends = append(e.ends, m.k1)
	}
	t.shape = e.id
	return e.id
}

// shapeSet is the first of the two slots of shapes where the line's
// shape is kept: a hash of its names' lengths and three of their bytes.
func (t *Top) shapeSet() int {
	k := t.keys
	x := uint64(len(k)) | uint64(len(t.mems))<<16
	if n := len(k); n > 0 {
		x |= uint64(k[n/2])<<32 | uint64(k[n-1])<<40 | uint64(k[n/3])<<48
	}
	return int((x*0x9E3779B97F4A7C15)>>(64-shapeBits)) * 2
}

// sameEnds says the members' names end where ends say.
func (t *Top) sameEnds(ends []int) bool {
	for i, m := range t.mems {
		if ends[i] != m.k1 {
			return false
		}
	}
	return true
}

// ShapeMemo keeps what a reader worked out from the names of a line's
// members (Top.Shape) for the shapes seen lately: Get finds it for a
// line of such a shape, else Put gives the slot to fill (another
// shape's, whose value is handed back to be reused). A shape's slot is
// its id's low bits: the shapes a Top numbers one after another take
// slots one after another.
type ShapeMemo[T any] struct {
	ids  [memoSlots]uint64
	vals [memoSlots]T
}

const memoSlots = 64

// Get is the value kept for shape id, if it is kept.
func (m *ShapeMemo[T]) Get(id uint64) (*T, bool) {
	i := id % memoSlots
	if m.ids[i] == id && id != 0 {
		return &m.vals[i], true
	}
	return nil, false
}

// Put is the slot for shape id, another shape's value in it (to reset
// and fill).
func (m *ShapeMemo[T]) Put(id uint64) *T {
	i := id % memoSlots
	m.ids[i] = id
	return &m.vals[i]
}

// Value is the raw value of member i, nil for i < 0 (a name Members did
// not find).
func (t *Top) Value(i int) []byte {
	if i < 0 {
		return nil
	}
	m := t.mems[i]
	return t.d[m.vs:m.ve]
}

// Members finds a few names among a line's members, as Top.Member does
// (the last member of each name), working out where they are once a
// shape of line (Top.Shape) instead of comparing names on each line.
// The zero Members is ready; each call of Of must ask the same names.
type Members struct {
	memo ShapeMemo[[]int]
}

// Of is, for each of names in order, the index of its last member in
// top (-1: none), for Top.Value; nil when top is not one valid object.
// Valid until the next call.
func (m *Members) Of(top *Top, names ...string) []int {
	id := top.Shape()
	if id == 0 {
		return nil
	}
	if at, ok := m.memo.Get(id); ok {
		return *at
	}
	at := m.memo.Put(id)
	*at = (*at)[:0]
	for _, name := range names {
		i := len(top.mems) - 1
		for ; i >= 0; i-- {
			if mm := top.mems[i]; mm.k1-mm.k0 == len(name) && string(top.keys[mm.k0:mm.k1]) == name {
				break
			}
		}
		*at = append(*at, i)
	}
	return *at
}
