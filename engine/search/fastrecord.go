package search

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/memscope/memscope/internal/jsonscan"
)

// A line that can match is read by fastRecord: the line is validated
// once (jsonscan, as json.Valid), the members a search reads are found
// without decoding the rest, and only the strings that can hold a match
// (prefilter.candidate on their raw bytes: an anchor, an escape or a
// fold) are decoded. A transcript line of a long tool result decoded by
// encoding/json was validated again for each nested RawMessage and had
// every string copied: most of a many-hit search's time. Where the line
// is not of the shape the client writes (a known member of another kind,
// a member named in another case, which encoding/json would match), the
// reader says so and the caller decodes the line with encoding/json, so
// the fields found are always encoding/json's.

// fastReader reads records, reusing its scanner.
type fastReader struct {
	sc jsonscan.Scanner
	// keep reports whether a raw string value can hold a match.
	keep func(raw []byte) bool
	// bad is set when the line is not of the plain shape.
	bad bool
	// buf is text's buffer; lineBuf holds the line's decoded field
	// texts (view) until the next line.
	buf, lineBuf []byte
}

// recordKeys are the members of a record the search reads.
var recordKeys = []string{"type", "subtype", "uuid", "timestamp", "isCompactSummary", "message", "content", "summary", "earlierMessages"}

// read decodes line into rec and its fields; ok is false when the line is
// not valid JSON (skipped, as json.Unmarshal's error skips it) or not of
// the plain shape (fallback true: decode it with encoding/json).
func (r *fastReader) read(line []byte, rec *record) (fields []field, ok, fallback bool) {
	return r.walk(line, rec, true)
}

// mayHold reports whether line can give a field to match: read would
// keep a string of it, or leave the line to encoding/json. It walks the
// line without validating it (jsonscan.EachMember), about twice as fast
// as read, so that a line whose anchors are all outside the fields
// read (five digits in a row are in nearly every line: ids, token
// counts) is not validated: a valid line walks as read walks it, and
// an invalid one read skips whatever the walk says. On bytes that are
// not JSON the walk's answers mean nothing, and its slicing may fail:
// then the line may hold one.
func (r *fastReader) mayHold(line []byte) (may bool) {
	t := bytes.TrimSpace(line)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return true // read decides
	}
	defer func() {
		if recover() != nil {
			may = true
		}
	}()
	var rec record
	fields, ok, fallback := r.walk(t, &rec, false)
	return fallback || ok && len(fields) > 0
}

// walk is read, validating the line (checked) or only walking it.
func (r *fastReader) walk(line []byte, rec *record, checked bool) (fields []field, ok, fallback bool) {
	r.bad = false
	r.lineBuf = r.lineBuf[:0]
	if cap(r.lineBuf) > 4*chunkSize {
		r.lineBuf = nil // a long line grew it: give the memory back
	}
	var message, content, summary, earlier []byte
	member := func(key, val []byte) {
		switch string(key) {
		case "type":
			rec.Type = r.str(val)
		case "subtype":
			rec.Subtype = r.str(val)
		case "uuid":
			rec.UUID = r.str(val)
		case "timestamp":
			rec.Timestamp = r.str(val)
		case "isCompactSummary":
			switch string(val) {
			case "true":
				rec.IsCompactSummary = true
			case "false", "null":
				rec.IsCompactSummary = false
			default:
				r.bad = true
			}
		case "message":
			message = val
		case "content":
			content = val
		case "summary":
			summary = val
		case "earlierMessages":
			earlier = val
		default:
			r.checkKey(key, recordKeys)
		}
	}
	if checked {
		if r.sc.Members(line, member) != nil {
			return nil, false, false
		}
	} else {
		jsonscan.EachMember(line, member)
	}
	if r.bad {
		return nil, false, true
	}
	if !searchedTypes[rec.Type] || bytes.HasSuffix([]byte(rec.Subtype), []byte("_boundary")) {
		return nil, true, false
	}
	switch rec.Type {
	case "summary":
		if !r.isString(summary) {
			return nil, false, true
		}
		if summary != nil && string(summary) != "null" && r.keepRaw(summary) {
			fields = append(fields, field{"summary", r.view(summary)})
		}
	case "system":
		if r.present(content) && r.keepRaw(content) {
			fields = append(fields, field{"system", r.view(content)})
		}
	case "user", "assistant":
		if message == nil || string(message) == "null" {
			break
		}
		if message[0] != '{' {
			return nil, false, true
		}
		var role, mcontent []byte
		jsonscan.EachMember(message, func(key, val []byte) {
			switch string(key) {
			case "role":
				role = val
			case "content":
				mcontent = val
			default:
				r.checkKey(key, []string{"role", "content"})
			}
		})
		if role != nil && !r.isString(role) {
			return nil, false, true
		}
		rec.Message = &recordMessage{Role: r.str(role)}
		where := "text"
		if rec.IsCompactSummary {
			where = "compact summary"
		}
		fields = r.content(fields, mcontent, where)
		if earlier != nil && string(earlier) != "null" {
			if earlier[0] != '[' {
				return nil, false, true
			}
			jsonscan.EachElement(earlier, func(el []byte) {
				if el[0] != '{' {
					r.bad = el[0] != 'n'
					return
				}
				var kind, text []byte
				jsonscan.EachMember(el, func(key, val []byte) {
					switch string(key) {
					case "kind":
						kind = val
					case "text":
						text = val
					default:
						r.checkKey(key, []string{"kind", "text"})
					}
				})
				if !r.isString(kind) || !r.isString(text) {
					r.bad = true
					return
				}
				if text != nil && string(text) != "null" && r.keepRaw(text) {
					fields = append(fields, field{"earlier " + r.str(kind), r.view(text)})
				}
			})
		}
	}
	if r.bad {
		return nil, false, true
	}
	return fields, true, false
}

// content adds the fields of a message's content (contentFields): a
// string, or an array of blocks; a content of another kind has none.
func (r *fastReader) content(out []field, raw []byte, where string) []field {
	if len(raw) == 0 {
		return out
	}
	switch raw[0] {
	case '"':
		if r.keepRaw(raw) {
			out = append(out, field{where, r.view(raw)})
		}
		return out
	case '[':
	case '{':
		r.bad = true // encoding/json fails on blocks from an object: let it
		return out
	default:
		return out // json.Unmarshal into blocks fails: no fields
	}
	jsonscan.EachElement(raw, func(el []byte) {
		if r.bad {
			return
		}
		if el[0] != '{' {
			if el[0] != 'n' {
				r.bad = true // blocks do not decode: encoding/json decides
			}
			return
		}
		var typ, text, thinking, name, input, content []byte
		jsonscan.EachMember(el, func(key, val []byte) {
			switch string(key) {
			case "type":
				typ = val
			case "text":
				text = val
			case "thinking":
				thinking = val
			case "name":
				name = val
			case "input":
				input = val
			case "content":
				content = val
			default:
				r.checkKey(key, []string{"type", "text", "thinking", "name", "input", "content"})
			}
		})
		for _, s := range [][]byte{typ, text, thinking, name} {
			if s != nil && !r.isString(s) {
				r.bad = true
				return
			}
		}
		switch r.str(typ) {
		case "text":
			if r.present(text) && r.keepRaw(text) {
				out = append(out, field{where, r.view(text)})
			}
		case "thinking":
			if r.present(thinking) && r.keepRaw(thinking) {
				out = append(out, field{"thinking", r.view(thinking)})
			}
		case "tool_use":
			if len(input) > 0 {
				out = r.input(out, "tool_use "+r.str(name)+" input", input)
			}
		case "tool_result":
			if len(content) == 0 {
				return
			}
			switch content[0] {
			case '"':
				if r.keepRaw(content) {
					out = append(out, field{"tool_result", r.view(content)})
				}
			case '[':
				jsonscan.EachElement(content, func(p []byte) {
					if p[0] != '{' {
						r.bad = r.bad || p[0] != 'n'
						return
					}
					var ptyp, ptext, pother []byte
					jsonscan.EachMember(p, func(key, val []byte) {
						switch string(key) {
						case "type":
							ptyp = val
						case "text":
							ptext = val
						case "thinking", "name":
							if !r.isString(val) {
								pother = val
							}
						case "input", "content":
						default:
							r.checkKey(key, []string{"type", "text", "thinking", "name", "input", "content"})
						}
					})
					if !r.isString(ptyp) || !r.isString(ptext) || pother != nil {
						r.bad = true
						return
					}
					if r.str(ptyp) == "text" && r.present(ptext) && r.keepRaw(ptext) {
						out = append(out, field{"tool_result", r.view(ptext)})
					}
				})
			}
		}
	})
	return out
}

// input adds the strings inside a tool call's input (inputFields): each
// named by its path, an object's members in the order of their sorted
// names, a repeated name counted once with its last value.
func (r *fastReader) input(out []field, path string, v []byte) []field {
	switch v[0] {
	case '"':
		if r.keepRaw(v) {
			out = append(out, field{path, r.view(v)})
		}
	case '[':
		i := 0
		jsonscan.EachElement(v, func(el []byte) {
			out = r.input(out, path+"["+strconv.Itoa(i)+"]", el)
			i++
		})
	case '{':
		type member struct {
			key string
			val []byte
		}
		var ms []member
		jsonscan.EachMember(v, func(key, val []byte) {
			ms = append(ms, member{string(key), val})
		})
		// The last of a repeated name wins: stable sort, then keep the
		// last of each run.
		slices.SortStableFunc(ms, func(a, b member) int {
			switch {
			case a.key < b.key:
				return -1
			case a.key > b.key:
				return 1
			}
			return 0
		})
		for i, m := range ms {
			if i+1 < len(ms) && ms[i+1].key == m.key {
				continue
			}
			out = r.input(out, path+"."+m.key, m.val)
		}
	}
	return out
}

// checkKey marks the line for encoding/json when key is not one of
// names but matches one ignoring case (encoding/json would read it).
func (r *fastReader) checkKey(key []byte, names []string) {
	// bytes.EqualFold compares up to the shorter before it looks at the
	// lengths: most keys were compared with every name. The names are
	// ASCII, and a key that folds to one is as long, or longer by the
	// Kelvin sign or the long s it holds (not ASCII).
	ascii := true
	for _, c := range key {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	for _, n := range names {
		if (len(key) == len(n) || len(key) > len(n) && !ascii) && bytes.EqualFold(key, []byte(n)) {
			r.bad = true
			return
		}
	}
}

// isString reports whether val is a JSON string or null (or absent).
func (r *fastReader) isString(val []byte) bool {
	return val == nil || val[0] == '"' || string(val) == "null"
}

// present reports whether a string member has a string (not absent, not
// null).
func (r *fastReader) present(val []byte) bool {
	return val != nil && val[0] == '"'
}

// str decodes a short string member (type, uuid, …); a member of
// another kind marks the line.
func (r *fastReader) str(val []byte) string {
	if val == nil || string(val) == "null" {
		return ""
	}
	if val[0] != '"' {
		r.bad = true
		return ""
	}
	return r.text(val)
}

// text decodes the raw string val (valid JSON: the scanner checked it).
// Its escapes are decoded as encoding/json decodes them (a lone
// surrogate as U+FFFD: unescapeAll); text with invalid UTF-8, which
// encoding/json mends byte by byte, is left to encoding/json.
func (r *fastReader) text(val []byte) string {
	body := val[1 : len(val)-1]
	if !utf8.Valid(body) {
		var s string
		if json.Unmarshal(val, &s) != nil {
			r.bad = true
		}
		return s
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	r.buf = unescapeAll(r.buf[:0], body)
	return string(r.buf)
}

// view is text for a field's text, not copied: the string points into
// the line, or into lineBuf when it has escapes, so it lives only as
// long as the line is looked at (a hit copies what it keeps: the
// snippet). Copying every field's text was a tenth of a many-hit search.
func (r *fastReader) view(val []byte) string {
	body := val[1 : len(val)-1]
	if len(body) == 0 || !utf8.Valid(body) {
		return r.text(val)
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return unsafe.String(unsafe.SliceData(body), len(body))
	}
	// Appended after the line's earlier texts: a buffer grown anew
	// leaves them in the old one.
	start := len(r.lineBuf)
	r.lineBuf = unescapeAll(r.lineBuf, body)
	if len(r.lineBuf) == start {
		return ""
	}
	return unsafe.String(&r.lineBuf[start], len(r.lineBuf)-start)
}

// keepRaw reports whether the raw string can hold a match.
func (r *fastReader) keepRaw(val []byte) bool {
	return r.keep == nil || r.keep(val)
}
