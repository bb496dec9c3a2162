package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// node is a JSON value that keeps its keys in the order written and its
// numbers and strings as written, so a settings file memscope changes
// keeps everything else exactly; it is written back the way the client
// writes settings (JSON.stringify with two-space indentation).
type node struct {
	// obj: keys and vals; arr: vals; leaf: raw.
	kind byte
	keys []string
	// rawKeys are the keys as written (nil for a key set here).
	rawKeys [][]byte
	vals    []*node
	raw     json.RawMessage
}

const (
	kindObj  = 'o'
	kindArr  = 'a'
	kindLeaf = 'l'
)

// parseTree reads one JSON value; anything after it is an error.
func parseTree(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec, data)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &json.SyntaxError{Offset: dec.InputOffset()}
	}
	return n, nil
}

// rawToken is the text of the token the decoder just read, which began
// after offset from (only white space, commas and colons lie between
// tokens).
func rawToken(data []byte, from int64, dec *json.Decoder) []byte {
	end := dec.InputOffset()
	for from < end && strings.IndexByte(" \t\r\n,:", data[from]) >= 0 {
		from++
	}
	return data[from:end]
}

func readNode(dec *json.Decoder, data []byte) (*node, error) {
	start := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{kind: kindObj}
			for dec.More() {
				from := dec.InputOffset()
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, &json.SyntaxError{Offset: dec.InputOffset()}
				}
				rk := rawToken(data, from, dec)
				v, err := readNode(dec, data)
				if err != nil {
					return nil, err
				}
				n.keys, n.rawKeys, n.vals = append(n.keys, k), append(n.rawKeys, rk), append(n.vals, v)
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &node{kind: kindArr}
			for dec.More() {
				v, err := readNode(dec, data)
				if err != nil {
					return nil, err
				}
				n.vals = append(n.vals, v)
			}
			_, err := dec.Token()
			return n, err
		}
		return nil, &json.SyntaxError{Offset: start}
	}
	// A leaf: kept as written (escapes and number forms included).
	return &node{kind: kindLeaf, raw: rawToken(data, start, dec)}, nil
}

// marshalLeaf writes a string, number, bool or null as JSON.stringify.
func marshalLeaf(v any) ([]byte, error) {
	if n, ok := v.(json.Number); ok {
		return []byte(n.String()), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// leaf is a JSON string, number or bool node.
func leaf(v any) *node {
	raw, _ := marshalLeaf(v)
	return &node{kind: kindLeaf, raw: raw}
}

// get is the value of key in an object node, nil when absent.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObj {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// set puts key in an object node, in place or at the end.
func (n *node) set(key string, v *node) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys, n.rawKeys, n.vals = append(n.keys, key), append(n.rawKeys, nil), append(n.vals, v)
}

// del removes key from an object node.
func (n *node) del(key string) {
	for i, k := range n.keys {
		if k == key {
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			n.rawKeys = append(n.rawKeys[:i:i], n.rawKeys[i+1:]...)
			n.vals = append(n.vals[:i:i], n.vals[i+1:]...)
			return
		}
	}
}

// str is a string leaf's value ("" for anything else).
func (n *node) str() string {
	if n == nil || n.kind != kindLeaf {
		return ""
	}
	var s string
	if json.Unmarshal(n.raw, &s) != nil {
		return ""
	}
	return s
}

// write prints n as JSON.stringify(v, null, 2) does.
func (n *node) write(b *strings.Builder, indent string) {
	switch n.kind {
	case kindLeaf:
		b.Write(n.raw)
	case kindArr:
		if len(n.vals) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, v := range n.vals {
			b.WriteString(indent + "  ")
			v.write(b, indent+"  ")
			if i < len(n.vals)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case kindObj:
		if len(n.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range n.keys {
			kb := n.rawKeys[i]
			if kb == nil {
				kb, _ = marshalLeaf(k)
			}
			b.WriteString(indent + "  ")
			b.Write(kb)
			b.WriteString(": ")
			n.vals[i].write(b, indent+"  ")
			if i < len(n.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	}
}

// bytes is the file text of n, ending in a newline when nl.
func (n *node) bytes(nl bool) []byte {
	var b strings.Builder
	n.write(&b, "")
	if nl {
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// SettingsError is a settings file memscope will not rewrite: not JSON,
// or not an object where one is needed. It names the file and line.
type SettingsError struct {
	Path   string
	Line   int
	Reason string
}

func (e *SettingsError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s; fix it or edit it by hand, memscope will not rewrite it", e.Path, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s; fix it or edit it by hand, memscope will not rewrite it", e.Path, e.Reason)
}

// syntaxLine is the line of a JSON decoding error, 0 when unknown.
func syntaxLine(data []byte, err error, lineAt func([]byte, int64) int) int {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return lineAt(data, se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return lineAt(data, int64(len(data)))
	}
	return 0
}
