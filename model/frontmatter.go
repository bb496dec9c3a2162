package model

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Frontmatter is the YAML block between "---" lines at the top of a
// markdown file. Offsets index the file's bytes (after a BOM, which is
// counted), so the block can be edited in place.
type Frontmatter struct {
	// Present is true when the file opens with a "---" line that is
	// closed by a later "---" line.
	Present bool
	// Unclosed is true when the file opens with "---" but no closing
	// "---" line follows; the client then reads the whole file as body.
	Unclosed bool
	// YAMLStart and YAMLEnd delimit the YAML text; BodyStart is the first
	// byte after the closing fence line.
	YAMLStart, YAMLEnd, BodyStart int
	// FirstLine is the file line number of the first YAML line.
	FirstLine int
	// EOL is the line ending of the opening fence, used for new lines.
	EOL LineEnding
	// Root is the top-level mapping, nil for an empty block.
	Root *yaml.Node
}

// SplitFrontmatter finds the frontmatter block of data without parsing
// the YAML. A block is an opening line "---" (trailing white space allowed,
// after an optional BOM) up to the next line that is "---".
func SplitFrontmatter(data []byte) Frontmatter {
	var fm Frontmatter
	start := 0
	if bytes.HasPrefix(data, utf8BOM) {
		start = len(utf8BOM)
	}
	line, next, eol := nextLine(data, start)
	if !isFence(line) || eol == EndNone {
		return fm
	}
	fm.EOL, fm.FirstLine, fm.YAMLStart = eol, 2, next
	for pos := next; pos < len(data); {
		line, after, _ := nextLine(data, pos)
		if isFence(line) {
			fm.Present, fm.YAMLEnd, fm.BodyStart = true, pos, after
			return fm
		}
		pos = after
	}
	fm.Unclosed = true
	return fm
}

func nextLine(data []byte, pos int) (line []byte, next int, eol LineEnding) {
	rest := data[pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		return rest, len(data), EndNone
	}
	line, eol = rest[:i], EndLF
	if bytes.HasSuffix(line, []byte{'\r'}) {
		line, eol = line[:len(line)-1], EndCRLF
	}
	return line, pos + i + 1, eol
}

func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t")) == "---"
}

// yamlLineRE pulls the line number out of yaml.v3's error messages.
var yamlLineRE = regexp.MustCompile(`line (\d+): `)

// yamlParserProblems are yaml.v3's parser (not scanner) messages. yaml.v3
// prints the 0-based line for these and the 1-based line for scanner
// errors, so the two need different offsets to name the file line.
var yamlParserProblems = []string{
	"did not find expected <stream-start>", "did not find expected <document start>",
	"found undefined tag handle", "did not find expected node content",
	"did not find expected '-' indicator", "did not find expected key",
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"found duplicate %YAML directive", "found incompatible YAML document", "found duplicate %TAG directive",
}

// yamlErrorLine returns the file line of a yaml.v3 syntax error in a block
// whose first line is first, and the message without yaml's own line
// number (which counts from the block, not the file).
func yamlErrorLine(err error, first int) (int, string) {
	msg := err.Error()
	m := yamlLineRE.FindStringSubmatchIndex(msg)
	if m == nil {
		return first, msg
	}
	n, _ := strconv.Atoi(msg[m[2]:m[3]])
	line := first + n - 1
	for _, p := range yamlParserProblems {
		if strings.HasSuffix(msg, p) {
			line++
			break
		}
	}
	return line, msg[:m[0]] + msg[m[1]:]
}

// ParseFrontmatter splits data and parses its YAML. It returns a problem
// (kind ProblemInvalidFrontmatter, with the file line of the error) when
// the block is unclosed, is not valid YAML, is not a mapping, or repeats a
// top-level key. file names the file in the problem.
func ParseFrontmatter(file string, data []byte) (fm Frontmatter, prob *Problem) {
	fm = SplitFrontmatter(data)
	bad := func(line int, reason string) *Problem {
		return &Problem{File: file, Line: line, Kind: ProblemInvalidFrontmatter, Reason: reason}
	}
	if fm.Unclosed {
		return fm, bad(1, `frontmatter opened with "---" is never closed`)
	}
	if !fm.Present {
		return fm, nil
	}
	if n := fm.YAMLEnd - fm.YAMLStart; n > MaxFrontmatterBytes {
		// yaml.v3's time and memory grow with nesting: a hostile block
		// could take seconds and a GB. Real frontmatter is a few lines.
		return fm, bad(fm.FirstLine, fmt.Sprintf("frontmatter is %s, more than the %s memscope parses", sizeText(int64(n)), sizeText(MaxFrontmatterBytes)))
	}
	root, err := parseYAML(data[fm.YAMLStart:fm.YAMLEnd])
	if err != nil {
		line, msg := yamlErrorLine(err, fm.FirstLine)
		// An error found at the end of the text (an unclosed bracket)
		// is marked after the last YAML line; name that line instead.
		line = min(line, fm.FirstLine+max(bytes.Count(data[fm.YAMLStart:fm.YAMLEnd], []byte{'\n'})-1, 0))
		return fm, bad(line, "frontmatter: "+msg)
	}
	if root == nil {
		return fm, nil
	}
	if root.Kind != yaml.MappingNode {
		return fm, bad(fm.FirstLine+root.Line-1, "frontmatter is not a mapping of keys to values")
	}
	if k := duplicateKey(root); k != nil {
		return fm, bad(fm.FirstLine+k.Line-1, fmt.Sprintf("frontmatter: key %q appears twice", k.Value))
	}
	fm.Root = root
	return fm, nil
}

// parseYAML parses one YAML document and returns its top node (nil for an
// empty document). yaml.v3 has panicked on hostile input in the past; a
// panic here becomes an error so a bad file can never crash memscope.
func parseYAML(text []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("yaml parser failed: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return nil, nil
	}
	return top, nil
}

// duplicateKey returns the second occurrence of a repeated key in a
// mapping (yaml.v3 only rejects these when decoding into a map; the
// client's parser rejects them outright).
func duplicateKey(m *yaml.Node) *yaml.Node {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if seen[k.Value] {
			return k
		}
		seen[k.Value] = true
	}
	return nil
}

// mapValue returns the value node of key in mapping m, or nil.
func mapValue(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}
