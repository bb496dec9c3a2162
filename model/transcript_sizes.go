package model

// The sizes of what a line holds (ContentBlock.Bytes and Chars, an
// attachment's and its files') are counted in UTF-16 units as well as in
// bytes; on a line the scanner found all ASCII (most lines) a unit is a
// byte, so the count in bytes is the count in units and the text is not
// read again for it.

// units is utf16Units(b) for b, a part of the current line.
func (d *recordDecoder) units(b []byte) int {
	if d.js.ASCII() && !d.slowSizes {
		return len(b)
	}
	return utf16Units(b)
}

// strSize is rawStringLen(v) and rawStringUnits(v) for v, a raw string
// of the current line.
func (d *recordDecoder) strSize(v []byte) (n, units int) {
	n = rawStringLen(v)
	if d.js.ASCII() && !d.slowSizes {
		return n, n
	}
	return n, rawStringUnits(v)
}
