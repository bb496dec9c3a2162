package jsonscan

// Top is the top-level members of the one line a Scanner accepted whole
// (Line, with Scanner.Keep pointing at it): each member's name and value
// as offsets in the line, in order. A second reader of the same line
// (engine/doctor's field scan in the shared pass) reads them here instead
// of walking the line's structure again.
type Top struct {
	d    []byte
	mems []topMember
	// ok says the line was one valid JSON object, so mems are all its
	// members.
	ok bool
}

// topMember is one member: its name's span [ks, ke) with the quotes,
// whether the name has escapes, and its value's span [vs, ve).
type topMember struct {
	ks, ke, vs, ve int
	esc            bool
}

// reset starts the members of d.
func (t *Top) reset(d []byte) {
	t.d, t.mems, t.ok = d, t.mems[:0], false
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
	d := t.d
	for _, m := range t.mems {
		key := d[m.ks+1 : m.ke-1]
		if m.esc {
			key = unquoteBytes(d[m.ks:m.ke])
		}
		fn(key, d[m.vs:m.ve])
	}
}
