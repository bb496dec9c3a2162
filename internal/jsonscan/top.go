package jsonscan

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
}

// topMember is one member: its name's span [k0, k1) in keys and its
// value's span [vs, ve) in the line.
type topMember struct{ k0, k1, vs, ve int }

// reset starts the members of d.
func (t *Top) reset(d []byte) {
	t.d, t.keys, t.mems, t.ok = d, t.keys[:0], t.mems[:0], false
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
