package jsonscan

import "bytes"

// The functions below walk again text a Scanner accepted (a value inside
// a validated line): they find the ends of values without checking them,
// which halves the cost of decoding nested objects. On text that is not
// valid JSON they return without fault, but their answers mean nothing.

// EachMember calls fn with the name (decoded when written with escapes)
// and the raw value of each member of the valid object v, in order.
func EachMember(v []byte, fn func(key, val []byte)) {
	i := SkipWS(v, 1)
	for i < len(v) && v[i] == '"' {
		kend := stringEnd(v, i)
		key := v[i+1 : kend-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			key = unquoteBytes(v[i:kend])
		}
		i = SkipWS(v, kend)
		if i >= len(v) || v[i] != ':' {
			return
		}
		i = SkipWS(v, i+1)
		end := SkipValid(v, i)
		fn(key, v[i:end])
		i = SkipWS(v, end)
		if i >= len(v) || v[i] != ',' {
			return
		}
		i = SkipWS(v, i+1)
	}
}

// EachElement calls fn with each element of the valid array v, in order.
func EachElement(v []byte, fn func(el []byte)) {
	i := SkipWS(v, 1)
	if i < len(v) && v[i] == ']' {
		return
	}
	for i < len(v) {
		end := SkipValid(v, i)
		fn(v[i:end])
		i = SkipWS(v, end)
		if i >= len(v) || v[i] != ',' {
			return
		}
		i = SkipWS(v, i+1)
	}
}

// SkipValid returns the offset just past the valid JSON value at d[i].
func SkipValid(d []byte, i int) int {
	depth := 0
	for i < len(d) {
		switch d[i] {
		case '"':
			i = stringEnd(d, i)
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 {
				// A number or literal runs to the next delimiter.
				for i < len(d) && !isDelimiter(d[i]) {
					i++
				}
				return i
			}
			i++
			continue
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

// stringEnd returns the offset past the valid string at d[i]: past the
// next quote not escaped by an odd run of backslashes.
func stringEnd(d []byte, i int) int {
	j := i + 1
	for {
		n := bytes.IndexByte(d[j:], '"')
		if n < 0 {
			return len(d)
		}
		q := j + n
		bs := 0
		for k := q - 1; k > i && d[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// SkipWS is the offset of the first byte of d at or after i that is not
// JSON white space (len(d) when there is none).
func SkipWS(d []byte, i int) int {
	for i < len(d) {
		// Most calls meet a byte above the space at once: one comparison.
		if c := d[i]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
		i++
	}
	return i
}
