package model

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// simpleKeyMax bounds the keys the fast path takes; YAML limits implicit
// keys to 1024 characters, and real keys are short.
const simpleKeyMax = 128

// parseSimpleFrontmatter reads a frontmatter block written in the plain
// form the client writes ("key: value" lines, and one nested mapping
// under "metadata:") without the YAML parser, which costs far more than
// the rest of reading a memory folder. ok is false for any other block,
// which then goes to yaml.v3. Values are single-line plain scalars that
// cannot be null, a bool or a flow or block collection; a value that
// does not start with a letter carries no tag, so yaml.v3 resolves it
// itself when it is decoded and it reads exactly as after a full parse.
func parseSimpleFrontmatter(text []byte) (root *yaml.Node, ok bool) {
	if len(text) == 0 || text[len(text)-1] != '\n' {
		return nil, false
	}
	// One allocation for every node: a key and a value per line, the root
	// and the nested mapping.
	slab := make([]yaml.Node, 0, 2*bytes.Count(text, []byte{'\n'})+2)
	node := func(n yaml.Node) *yaml.Node {
		slab = append(slab, n)
		return &slab[len(slab)-1]
	}
	root = node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1})
	var nested *yaml.Node
	nestedIndent := 0
	for n, rest := 0, text; len(rest) > 0; n++ {
		end := bytes.IndexByte(rest, '\n')
		line := bytes.TrimSuffix(rest[:end], []byte{'\r'})
		rest = rest[end+1:]
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		key, value, ok := simpleKeyValue(line[indent:])
		if !ok {
			return nil, false
		}
		k := node(yaml.Node{Kind: yaml.ScalarNode, Value: key, Line: n + 1, Column: indent + 1})
		v := node(yaml.Node{Kind: yaml.ScalarNode, Tag: plainTag(value), Value: value, Line: n + 1, Column: indent + len(key) + 3})
		switch {
		case indent == 0:
			if nested != nil && len(nested.Content) == 0 || hasKey(root, key) {
				return nil, false
			}
			nested = nil
			if value == "" {
				if key != "metadata" {
					return nil, false
				}
				v.Kind, v.Tag = yaml.MappingNode, "!!map"
				nested, nestedIndent = v, 0
			}
			root.Content = append(root.Content, k, v)
		case nested == nil || value == "" || nestedIndent != 0 && indent != nestedIndent || hasKey(nested, key):
			return nil, false
		default:
			if nestedIndent == 0 {
				nestedIndent, nested.Line, nested.Column = indent, n+1, indent+1
			}
			nested.Content = append(nested.Content, k, v)
		}
	}
	if nested != nil && len(nested.Content) == 0 {
		return nil, false
	}
	return root, true
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// simpleKeyValue splits "key: value" (or "key:" for a nested mapping),
// refusing anything whose YAML reading is not plainly that.
func simpleKeyValue(line []byte) (key, value string, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 || colon > simpleKeyMax || !simpleKey(line[:colon]) {
		return "", "", false
	}
	rest := line[colon+1:]
	if len(rest) > 0 && rest[0] != ' ' {
		return "", "", false
	}
	rest = bytes.Trim(rest, " ")
	if len(rest) > 0 && !plainSafe(rest) {
		return "", "", false
	}
	return string(line[:colon]), string(rest), true
}

func simpleKey(k []byte) bool {
	for i, c := range k {
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && (c == '-' || '0' <= c && c <= '9'):
		default:
			return false
		}
	}
	return true
}

// plainTag is "!!str" for a value that starts with a letter (yaml.v3
// reads those as strings: plainSafe has refused the bool and null words),
// else "", leaving numbers and times for yaml.v3 to resolve on decoding.
func plainTag(v string) string {
	r, _ := utf8.DecodeRuneInString(v)
	if unicode.IsLetter(r) {
		return "!!str"
	}
	return ""
}

// yamlSpecialWords are the plain values yaml.v3 reads as a bool or null
// and that start like a word.
var yamlSpecialWords = map[string]bool{"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"null": true, "Null": true, "NULL": true}

// plainSafe reports whether v, trimmed, reads as one plain scalar with the
// same text in YAML's block context: it starts with a letter or digit, is
// not a bool or null word, holds no comment (" #"), no value indicator
// (": " or a final ":"), and only printable characters that do not break
// lines.
func plainSafe(v []byte) bool {
	r, _ := utf8.DecodeRune(v)
	if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r >= utf8.RuneSelf && unicode.IsLetter(r)) {
		return false
	}
	if yamlSpecialWords[string(v)] || v[len(v)-1] == ':' || bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return false
	}
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7F {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(v[i:])
		if r == utf8.RuneError && size == 1 || !yamlPrintable(r) {
			return false
		}
		i += size
	}
	return true
}

// yamlPrintable is YAML's printable set above ASCII, without the line
// breaks U+0085, U+2028 and U+2029 and without the byte order mark.
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029 || r == 0xFEFF:
		return false
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}
