package preview

import (
	"path"
	"regexp"
	"strings"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/scan"
)

// The import limits (FORMATS.md, "CLAUDE.md and rules").
const (
	// ImportMaxDepth: a file and four nested levels of imports load; a
	// file at depth 5 does not.
	ImportMaxDepth = 5
	// ImportMaxBytes: imported files over 4 MiB are skipped.
	ImportMaxBytes = 4 << 20
)

// ImportRef is one "@path" found in a CLAUDE.md file.
type ImportRef struct {
	// Raw is the text after "@" as written.
	Raw string `json:"raw"`
	// Path is Raw with "\ " unescaped and any "#fragment" removed.
	Path string `json:"path"`
	// Line is the 1-based line in the file's content.
	Line int `json:"line"`
}

// importRE is the client's /(?:^|\s)@((?:[^\s\\]|\\ )+)/g with JavaScript's
// \s spelled out (RE2's \s is ASCII only).
var importRE = scan.NewLazyRegexp(`(?:^|[` + jsSpaceClass + `])@((?:[^` + jsSpaceClass + `\\]|\\ )+)`)

const jsSpaceClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// FindImports returns the @imports of a file's content in order, skipping
// fenced and indented code blocks, code spans and HTML comments, and
// keeping only paths the client accepts: "./x", "~/x", "/x" (not "/"
// alone), or a name starting with [A-Za-z0-9._-].
func FindImports(content string) []ImportRef {
	var out []ImportRef
	for _, seg := range proseSegments(content) {
		for _, m := range importRE.FindAllStringSubmatch(seg.text, -1) {
			raw := m[1]
			p := raw
			if i := strings.IndexByte(p, '#'); i >= 0 {
				p = p[:i]
			}
			p = strings.ReplaceAll(p, `\ `, " ")
			if p == "" || !validImportPath(p) {
				continue
			}
			out = append(out, ImportRef{Raw: raw, Path: p, Line: seg.line})
		}
	}
	return out
}

var importNameRE = scan.NewLazyRegexp(`^[A-Za-z0-9._-]`)

func validImportPath(p string) bool {
	switch {
	case strings.HasPrefix(p, "./"), strings.HasPrefix(p, "~/"):
		return true
	case strings.HasPrefix(p, "/"):
		return p != "/"
	}
	return importNameRE.MatchString(p)
}

// ResolveImport turns an import path into an absolute path: "~/" is the
// user's home folder, an absolute path stays, anything else is relative
// to the importing file's folder.
func ResolveImport(p, fromFile, userHome string) string {
	switch {
	case strings.HasPrefix(p, "~/"):
		return path.Join(userHome, p[2:])
	case strings.HasPrefix(p, "/"):
		return path.Clean(p)
	}
	return path.Join(path.Dir(fromFile), p)
}

// textExtensions are the extensions an import may have (a file without
// one is allowed too): importing a binary would fill the prompt with noise.
var textExtensions = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`md markdown mdx mdc txt text rst adoc asciidoc org tex bib
		json jsonc json5 jsonl yaml yml toml ini cfg conf config env properties xml plist html htm xhtml css scss sass less styl
		csv tsv log diff patch js mjs cjs jsx ts tsx mts cts py pyi pyw rb erb go mod sum rs java kt kts scala sc groovy gradle
		c h cc cpp cxx hpp hh hxx inl m mm cs csx fs fsi fsx vb swift php phtml pl pm t lua r rmd jl dart ex exs eex heex erl hrl
		hs lhs elm clj cljs cljc edn ml mli nim zig v sv svh vhd vhdl sql prisma graphql gql proto thrift avsc
		sh bash zsh fish ksh ps1 psm1 bat cmd vue svelte astro tf tfvars hcl nix dhall dockerfile containerfile makefile mk cmake
		lock gitignore gitattributes dockerignore editorconfig npmrc nvmrc prettierrc eslintrc babelrc svg csproj sln vcxproj
		rake gemspec podspec cabal opam sbt bzl bazel star cue jsonnet libsonnet rego tmpl tpl j2 jinja jinja2 hbs mustache liquid
		pug haml slim twig ejs njk asm s wat awk sed vim el lisp scm rkt ss`) {
		textExtensions[e] = true
	}
}

// isTextImport reports whether an import target's extension is allowed.
func isTextImport(p string) bool {
	ext := path.Ext(path.Base(p))
	if ext == "" || ext == path.Base(p) {
		return true
	}
	return textExtensions[strings.ToLower(ext[1:])]
}

// proseSegment is a piece of text outside code and comments, with the line
// it starts on.
type proseSegment struct {
	text string
	line int
}

// proseSegments splits content into the text the client's markdown lexer
// would see as prose: fenced blocks (``` or ~~~), indented code blocks,
// code spans and HTML comments are left out. An indented line starts a
// code block unless it continues a paragraph (a blank line, a heading, a
// fence or an HTML comment block before it all end the paragraph).
func proseSegments(content string) []proseSegment {
	var out []proseSegment
	lines := strings.Split(content, "\n")
	fence := ""
	inComment, blockComment, prevPara := false, false, false
	for i, raw := range lines {
		line := strings.TrimSuffix(raw, "\r")
		n := i + 1
		if fence != "" {
			if closesFence(line, fence) {
				fence = ""
			}
			continue
		}
		if !inComment {
			if f := opensFence(line); f != "" {
				fence, prevPara = f, false
				continue
			}
			if isIndentedCode(line) && !prevPara {
				continue
			}
		}
		opensBlock := !inComment && opensHTMLCommentBlock(line)
		closesBlock := inComment && blockComment
		var text string
		text, inComment = stripInline(line, inComment)
		if strings.TrimSpace(text) != "" {
			out = append(out, proseSegment{text: text, line: n})
		}
		switch {
		case opensBlock || closesBlock:
			blockComment, prevPara = inComment, false
		case strings.TrimSpace(line) == "", isATXHeading(line):
			prevPara = false
		default:
			prevPara = true
		}
	}
	return out
}

// opensHTMLCommentBlock reports whether line starts an HTML block of the
// comment kind: up to three spaces, then "<!--".
func opensHTMLCommentBlock(line string) bool {
	t := strings.TrimLeft(line, " ")
	return len(line)-len(t) <= 3 && strings.HasPrefix(t, "<!--")
}

// isATXHeading reports whether line is a "#" heading (one to six "#",
// then white space or the end of the line, after up to three spaces).
func isATXHeading(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
}

// opensFence returns the fence marker a line opens (up to three spaces of
// indent, then three or more backticks or tildes), or "".
func opensFence(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || t[0] != '`' && t[0] != '~' {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || t[0] == '`' && strings.ContainsRune(t[n:], '`') {
		return ""
	}
	return t[:n]
}

func closesFence(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(t[n:]) == ""
}

func isIndentedCode(line string) bool {
	return (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) && strings.TrimSpace(line) != ""
}

// tokenBreak stands where a code span or comment was removed: the
// client's Markdown lexer ends a text token there, so an import cannot run
// across it (a "\" before a code span is not the start of an escaped
// space). A newline is white space to importRE and never part of "\ ".
const tokenBreak = '\n'

// stripInline removes code spans and HTML comments from one line; a
// comment may continue from (inComment) or into the next line.
func stripInline(line string, inComment bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(line); {
		if inComment {
			end := strings.Index(line[i:], "-->")
			if end < 0 {
				return b.String(), true
			}
			i += end + 3
			inComment = false
			b.WriteByte(tokenBreak)
			continue
		}
		switch {
		case strings.HasPrefix(line[i:], "<!--"):
			inComment = true
			i += 4
		case line[i] == '`':
			n := 0
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			if end := closingTicks(line, i+n, n); end >= 0 {
				b.WriteByte(tokenBreak)
				i = end + n
			} else {
				b.WriteString(line[i : i+n])
				i += n
			}
		default:
			b.WriteByte(line[i])
			i++
		}
	}
	return b.String(), inComment
}

// closingTicks finds a run of exactly n backticks at or after from.
func closingTicks(line string, from, n int) int {
	for i := from; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		m := 0
		for i+m < len(line) && line[i+m] == '`' {
			m++
		}
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// StripHTMLComments removes HTML comments from a file's text the way the
// client does (measured on 2.1.332, e2e TestCommentsAsTheClientSends): its
// Markdown lexer splits the text into blocks, and a block that is an HTML
// comment (up to three spaces, then "<!--", to the line holding "-->",
// with the empty lines after it) is dropped, or, when text is left beside
// its comments, replaced by that text. A comment inside a paragraph
// ("a <!-- b --> c"), an indented one continuing a paragraph, and any in
// code are sent as written. An unclosed "<!--" runs to the end and is
// kept. When the text has a comment at all, it is sent as the lexer
// reads it: "\r\n" and "\r" become "\n".
func StripHTMLComments(content string) string {
	if !strings.Contains(content, "<!--") {
		return content
	}
	s := lexerText(content)
	var out strings.Builder
	out.Grow(len(s))
	fence, prevPara := "", false
	for pos := 0; pos < len(s); {
		eol, next := len(s), len(s)
		if k := strings.IndexByte(s[pos:], '\n'); k >= 0 {
			eol, next = pos+k, pos+k+1
		}
		line := s[pos:eol]
		t := strings.TrimLeft(line, " ")
		indent := len(line) - len(t)
		switch {
		case fence != "":
			if closesFence(line, fence) {
				fence = ""
			}
		case opensFence(line) != "":
			fence, prevPara = opensFence(line), false
		case isIndentedCode(line) && !prevPara:
		case strings.HasPrefix(t, "<!--") && (indent == 0 || indent <= 3 && !prevPara):
			// A comment at the line's start ends a paragraph; an
			// indented one only starts a block where none is open.
			end := commentBlockEnd(s, pos+indent+4)
			if residue := commentRE.ReplaceAllString(s[pos:end], ""); jsstr.Trim(residue) != "" {
				out.WriteString(residue)
			}
			pos, prevPara = end, false
			continue
		case strings.TrimSpace(line) == "", isATXHeading(line), prevPara && isSetextUnderline(line):
			prevPara = false
		default:
			prevPara = true
		}
		out.WriteString(s[pos:next])
		pos = next
	}
	return out.String()
}

// commentRE is one HTML comment (the client's /<!--[\s\S]*?-->/g).
var commentRE = regexp.MustCompile(`(?s)<!--.*?-->`)

// commentBlockEnd is where an HTML comment block whose "<!--" ends at
// from stops: after the comment's end ("-->", or "<!-->" and "<!--->"
// closing at once; the end of the text for an unclosed one), the rest of
// that line, and the line ends that follow.
func commentBlockEnd(s string, from int) int {
	end := len(s)
	switch {
	case strings.HasPrefix(s[from:], ">"):
		end = from + 1
	case strings.HasPrefix(s[from:], "->"):
		end = from + 2
	default:
		if k := strings.Index(s[from:], "-->"); k >= 0 {
			end = from + k + 3
		}
	}
	if k := strings.IndexByte(s[end:], '\n'); k >= 0 {
		end += k
	} else {
		end = len(s)
	}
	for end < len(s) && s[end] == '\n' {
		end++
	}
	return end
}

// lexerText is content as the client's Markdown lexer reads it: every
// line end "\n" (tabs are kept as written).
func lexerText(content string) string {
	return strings.ReplaceAll(strings.ReplaceAll(content, "\r\n", "\n"), "\r", "\n")
}

// isSetextUnderline reports whether line, under a paragraph, makes it a
// heading ("===" or "---", up to three spaces before).
func isSetextUnderline(line string) bool {
	t := strings.TrimSpace(line)
	if len(line)-len(strings.TrimLeft(line, " ")) > 3 || t == "" {
		return false
	}
	return strings.Trim(t, "=") == "" || strings.Trim(t, "-") == ""
}
