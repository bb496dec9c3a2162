package model

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// metadataOrder is the key order the client writes under metadata, used
// to place a key that is added.
var metadataOrder = []string{"node_type", "type", "originSessionId", "modified"}

// yamlText is the YAML of a frontmatter block as editable lines.
type yamlText struct {
	lines []string
	eols  []LineEnding
	eol   LineEnding
}

func splitYAML(b []byte, eol LineEnding) *yamlText {
	t := &yamlText{eol: eol}
	for pos := 0; pos < len(b); {
		line, next, e := nextLine(b, pos)
		t.lines, t.eols = append(t.lines, string(line)), append(t.eols, e)
		pos = next
	}
	return t
}

func (t *yamlText) bytes() []byte {
	var b bytes.Buffer
	for i, l := range t.lines {
		b.WriteString(l)
		b.WriteString(string(t.eols[i]))
	}
	return b.Bytes()
}

// replace puts text (which may hold several lines) in place of lines
// from..to (1-based, inclusive), keeping the ending of the first one.
func (t *yamlText) replace(from, to int, text string) {
	eol := t.eols[from-1]
	if eol == EndNone {
		eol = t.eol
	}
	news := strings.Split(text, "\n")
	eols := make([]LineEnding, len(news))
	for i := range eols {
		eols[i] = eol
	}
	if to == len(t.lines) {
		eols[len(eols)-1] = t.eols[to-1]
	}
	t.lines = append(t.lines[:from-1], append(news, t.lines[to:]...)...)
	t.eols = append(t.eols[:from-1], append(eols, t.eols[to:]...)...)
}

// insertAfter adds text as new lines after line n (0 = at the top).
func (t *yamlText) insertAfter(n int, text string) {
	news := strings.Split(text, "\n")
	eols := make([]LineEnding, len(news))
	for i := range eols {
		eols[i] = t.eol
	}
	if n > 0 && t.eols[n-1] == EndNone {
		t.eols[n-1] = t.eol
		eols[len(eols)-1] = EndNone
	}
	t.lines = append(t.lines[:n], append(news, t.lines[n:]...)...)
	t.eols = append(t.eols[:n], append(eols, t.eols[n:]...)...)
}

// pairEnd is the last line of the i-th key/value pair of block mapping m,
// where limit is the last line the mapping may use. Trailing blank lines
// and comments indented no deeper than the key belong to what follows.
func (t *yamlText) pairEnd(m *yaml.Node, i, limit int) int {
	k := m.Content[i]
	end := limit
	if i+2 < len(m.Content) {
		end = m.Content[i+2].Line - 1
	}
	for end > k.Line {
		l := t.lines[end-1]
		body := strings.TrimLeft(l, " \t")
		if body != "" && !(strings.HasPrefix(body, "#") && len(l)-len(body) <= k.Column-1) {
			break
		}
		end--
	}
	return end
}

// mappingEnd is the last line used by block mapping m within limit.
func (t *yamlText) mappingEnd(m *yaml.Node, limit int) int {
	if len(m.Content) < 2 {
		return m.Line
	}
	return t.pairEnd(m, len(m.Content)-2, limit)
}

// replacePair rewrites the i-th pair of block mapping m as one line "key:
// value", keeping the key as written, the spacing after the colon and a
// trailing comment.
func (t *yamlText) replacePair(m *yaml.Node, i, limit int, enc string) error {
	k, v := m.Content[i], m.Content[i+1]
	end := t.pairEnd(m, i, limit)
	line := t.lines[k.Line-1]
	colon, err := keyColon(line, runeColumn(line, k.Column-1))
	if err != nil {
		return err
	}
	rest := line[colon:]
	ws := rest[:len(rest)-len(strings.TrimLeft(rest, " \t"))]
	if ws == "" || v.Line != k.Line {
		ws = " "
	}
	out := line[:colon] + ws + enc
	if v.LineComment != "" && !strings.Contains(enc, "\n") {
		out += " " + v.LineComment
	}
	t.replace(k.Line, end, out)
	return nil
}

// runeColumn converts yaml.v3's character column to a byte offset.
func runeColumn(line string, col int) int {
	off := 0
	for i := 0; i < col && off < len(line); i++ {
		_, n := utf8.DecodeRuneInString(line[off:])
		off += n
	}
	return off
}

// keyColon returns the offset just after the ":" that ends the key
// starting at byte off of line.
func keyColon(line string, off int) (int, error) {
	i := off
	if i < len(line) && (line[i] == '"' || line[i] == '\'') {
		q := line[i]
		for i++; i < len(line); i++ {
			if q == '"' && line[i] == '\\' {
				i++
				continue
			}
			if line[i] == q {
				if q == '\'' && i+1 < len(line) && line[i+1] == '\'' {
					i++
					continue
				}
				i++
				break
			}
		}
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i < len(line) && line[i] == ':' {
			return i + 1, nil
		}
		return 0, errors.New("cannot find the colon after a quoted key")
	}
	for ; i < len(line); i++ {
		if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			return i + 1, nil
		}
	}
	return 0, errors.New("cannot find the colon after a key")
}

// encodeScalar renders a scalar node as single-line YAML.
func encodeScalar(n *yaml.Node) (string, error) {
	out, err := marshalNode(n)
	if err == nil && strings.Contains(out, "\n") {
		c := *n
		c.Style = yaml.DoubleQuotedStyle
		out, err = marshalNode(&c)
	}
	if err == nil && strings.Contains(out, "\n") {
		err = errors.New("value does not fit on one line")
	}
	return out, err
}

func marshalNode(n *yaml.Node) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml encoder failed: %v", r)
		}
	}()
	b, err := yaml.Marshal(n)
	return strings.TrimSuffix(string(b), "\n"), err
}

// setFrontmatterKey returns data with the frontmatter key at keyPath
// (["name"] or ["metadata", "type"]) set to value, touching only the
// lines of that key, or adding a line (or a frontmatter block) when the
// key is absent. A legacy top-level key stands in for its metadata twin
// when metadata lacks it, so flat files stay flat.
func setFrontmatterKey(data []byte, fm Frontmatter, keyPath []string, value *yaml.Node) (out []byte, err error) {
	// Line arithmetic below trusts yaml.v3's line numbers; any slip must
	// fail the edit, never crash the program.
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("edit failed: %v", r)
		}
	}()
	if fm.Present && !plainLineBreaks(data[fm.YAMLStart:fm.YAMLEnd]) {
		return nil, errors.New("frontmatter holds line breaks other than \n and \r\n; edit it by hand")
	}
	enc, err := encodeScalar(value)
	if err != nil {
		return nil, err
	}
	key := keyPath[len(keyPath)-1]
	if fm.Unclosed {
		return nil, errors.New("frontmatter is not closed")
	}
	if !fm.Present {
		return addFrontmatter(data, keyPath, enc), nil
	}
	t := splitYAML(data[fm.YAMLStart:fm.YAMLEnd], fm.EOL)
	root := fm.Root
	switch {
	case root == nil:
		t.insertAfter(len(t.lines), newKeyText(keyPath, enc, ""))
	case root.Style&yaml.FlowStyle != 0:
		if err := t.reemitFlowRoot(root, keyPath, value); err != nil {
			return nil, err
		}
	case len(keyPath) == 1:
		if err := t.setTop(root, key, enc); err != nil {
			return nil, err
		}
	default:
		if err := t.setMeta(root, key, value, enc); err != nil {
			return nil, err
		}
	}
	out = append([]byte{}, data[:fm.YAMLStart]...)
	out = append(out, t.bytes()...)
	return append(out, data[fm.YAMLEnd:]...), nil
}

// plainLineBreaks reports whether text breaks lines only with "\n" or
// "\r\n". YAML also breaks at a lone "\r", U+0085, U+2028 and U+2029, which
// would put yaml.v3's line numbers out of step with ours.
func plainLineBreaks(text []byte) bool {
	for i, c := range text {
		if c == '\r' && (i+1 == len(text) || text[i+1] != '\n') {
			return false
		}
	}
	s := string(text)
	return !strings.ContainsAny(s, "\u0085\u2028\u2029")
}

func addFrontmatter(data []byte, keyPath []string, enc string) []byte {
	start := 0
	if bytes.HasPrefix(data, utf8BOM) {
		start = len(utf8BOM)
	}
	eol := "\n"
	if _, _, e := nextLine(data, start); e == EndCRLF {
		eol = "\r\n"
	}
	block := "---\n" + newKeyText(keyPath, enc, "") + "\n---\n"
	out := append([]byte{}, data[:start]...)
	out = append(out, strings.ReplaceAll(block, "\n", eol)...)
	return append(out, data[start:]...)
}

// newKeyText is the text of a new key: "key: v" or "metadata:\n  key: v".
func newKeyText(keyPath []string, enc, indent string) string {
	if len(keyPath) == 1 {
		return indent + keyPath[0] + ": " + enc
	}
	return indent + "metadata:\n" + indent + "  " + keyPath[1] + ": " + enc
}

func pairIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i
		}
	}
	return -1
}

func indentOf(n *yaml.Node) string { return strings.Repeat(" ", n.Column-1) }

// setTop sets a top-level key of a block mapping. A new name goes first, a
// new description after the name, anything else last.
func (t *yamlText) setTop(root *yaml.Node, key, enc string) error {
	limit := len(t.lines)
	if i := pairIndex(root, key); i >= 0 {
		return t.replacePair(root, i, limit, enc)
	}
	indent := indentOf(root.Content[0])
	after := t.mappingEnd(root, limit)
	switch key {
	case "name":
		after = root.Content[0].Line - 1
	case "description":
		if i := pairIndex(root, "name"); i >= 0 {
			after = t.pairEnd(root, i, limit)
		}
	}
	t.insertAfter(after, indent+key+": "+enc)
	return nil
}

// setMeta sets key under metadata (or its legacy top-level twin).
func (t *yamlText) setMeta(root *yaml.Node, key string, value *yaml.Node, enc string) error {
	limit := len(t.lines)
	mi := pairIndex(root, "metadata")
	if mi >= 0 {
		mv := root.Content[mi+1]
		if mv.Kind == yaml.MappingNode {
			if i := pairIndex(mv, key); i >= 0 {
				if mv.Style&yaml.FlowStyle != 0 {
					return t.reemitFlowPair(root, mi, limit, key, value)
				}
				return t.replacePair(mv, i, t.pairEnd(root, mi, limit), enc)
			}
		}
	}
	if i := pairIndex(root, key); i >= 0 {
		return t.replacePair(root, i, limit, enc)
	}
	if mi < 0 {
		indent := indentOf(root.Content[0])
		if pairIndex(root, "type") >= 0 {
			t.insertAfter(t.mappingEnd(root, limit), indent+key+": "+enc)
			return nil
		}
		t.insertAfter(t.mappingEnd(root, limit), newKeyText([]string{"metadata", key}, enc, indent))
		return nil
	}
	mv := root.Content[mi+1]
	switch {
	case mv.Kind == yaml.MappingNode && mv.Style&yaml.FlowStyle != 0:
		return t.reemitFlowPair(root, mi, limit, key, value)
	case mv.Kind == yaml.MappingNode:
		t.insertAfter(t.metaInsertLine(mv, key, t.pairEnd(root, mi, limit)), indentOf(mv.Content[0])+key+": "+enc)
		return nil
	case isNull(mv):
		k := root.Content[mi]
		t.replace(k.Line, t.pairEnd(root, mi, limit), newKeyText([]string{"metadata", key}, enc, indentOf(k)))
		return nil
	}
	return errors.New("frontmatter metadata is not a mapping")
}

// metaInsertLine picks where a new metadata key goes: after the last
// present key that the client writes before it, else first for node_type
// and type, else last.
func (t *yamlText) metaInsertLine(mv *yaml.Node, key string, limit int) int {
	after := -1
	for _, k := range metadataOrder {
		if k == key {
			break
		}
		if i := pairIndex(mv, k); i >= 0 {
			after = t.pairEnd(mv, i, limit)
		}
	}
	switch {
	case after >= 0:
		return after
	case key == "node_type" || key == "type":
		return mv.Content[0].Line - 1
	}
	return t.mappingEnd(mv, limit)
}

// reemitFlowPair rewrites "metadata: {...}" with key set; a flow mapping
// cannot be edited line by line.
func (t *yamlText) reemitFlowPair(root *yaml.Node, mi, limit int, key string, value *yaml.Node) error {
	mv := *root.Content[mi+1]
	mv.Content = append([]*yaml.Node{}, mv.Content...)
	setNodeKey(&mv, key, value)
	enc, err := marshalNode(&mv)
	if err != nil {
		return err
	}
	return t.replacePair(root, mi, limit, enc)
}

// reemitFlowRoot rewrites a frontmatter written as one flow mapping.
func (t *yamlText) reemitFlowRoot(root *yaml.Node, keyPath []string, value *yaml.Node) error {
	r := *root
	r.Content = append([]*yaml.Node{}, r.Content...)
	target := &r
	if len(keyPath) == 2 {
		_, mv := mapValue(&r, "metadata")
		if mv == nil || isNull(mv) {
			mv = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
			setNodeKey(&r, "metadata", mv)
		} else if mv.Kind != yaml.MappingNode {
			return errors.New("frontmatter metadata is not a mapping")
		} else {
			c := *mv
			c.Content = append([]*yaml.Node{}, mv.Content...)
			mv = &c
			setNodeKey(&r, "metadata", mv)
		}
		target = mv
	}
	setNodeKey(target, keyPath[len(keyPath)-1], value)
	enc, err := marshalNode(&r)
	if err != nil {
		return err
	}
	end := len(t.lines)
	for end > root.Line && strings.TrimSpace(t.lines[end-1]) == "" {
		end--
	}
	t.replace(root.Line, end, enc)
	return nil
}

func setNodeKey(m *yaml.Node, key string, value *yaml.Node) {
	if i := pairIndex(m, key); i >= 0 {
		m.Content[i+1] = value
		return
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, value)
}
