package lint

import (
	"cmp"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// DriftRefKind says what a memory names.
type DriftRefKind string

// The kinds of reference drift checks.
const (
	// RefPath is a file path relative to the project ("internal/x.go").
	RefPath DriftRefKind = "path"
	// RefFileName is a bare file name ("basket.go"), looked for anywhere.
	RefFileName DriftRefKind = "file-name"
	// RefIdentifier is a code identifier in a code span ("`PriceBasket`").
	RefIdentifier DriftRefKind = "identifier"
)

// DriftRef is a path or identifier a memory names, and the line it is on.
type DriftRef struct {
	Kind DriftRefKind `json:"kind"`
	Text string       `json:"text"`
	Line int          `json:"line"`
}

// codeExtensions are file extensions that make a slash-separated word in
// prose a file path (in a code span any slash path counts).
var codeExtensions = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`go py pyi ts tsx js jsx mjs cjs rs java kt kts scala rb php cs fs swift m mm c h cc cpp hpp cxx
		sh bash zsh fish ps1 sql proto graphql gql md mdx rst txt yaml yml json jsonc toml ini cfg conf env lock
		html htm css scss sass less vue svelte astro tf tfvars hcl nix ex exs erl hrl clj cljs lua dart zig vim el
		xml gradle cmake mk dockerfile`) {
		codeExtensions[e] = true
	}
}

var (
	// proseFileRE finds slash paths in prose; the extension is checked after.
	proseFileRE = scan.NewLazyRegexp(`(?:^|[\s(\["'<])((?:\.{1,2}/)?[A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_.\-]+)+)`)
	// identRE is an identifier, optionally dotted, optionally called.
	identRE = scan.NewLazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?$`)
	// pathLikeRE is a code span that is a path (no spaces, no scheme).
	pathLikeRE = scan.NewLazyRegexp(`^(?:\.{1,2}/)?[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)*/?$`)
)

// DriftRefs finds what text names that can be checked against a project:
// slash paths with a code file extension in prose; in inline code spans,
// slash paths, bare file names with a code extension, and identifiers
// shaped like code (snake_case, camelCase or PascalCase with two humps,
// a call "f()", a dotted name). Fenced code blocks are skipped: examples
// name things that never existed. URLs, absolute and home paths are not
// project files. Each reference is listed once, at its first line.
func DriftRefs(text string) []DriftRef {
	var out []DriftRef
	seen := map[string]bool{}
	add := func(k DriftRefKind, s string, line int) {
		if key := string(k) + "\x00" + s; !seen[key] {
			seen[key] = true
			out = append(out, DriftRef{Kind: k, Text: s, Line: line})
		}
	}
	fence := ""
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		prose, spans := splitCodeSpans(line)
		for _, m := range proseFileRE.FindAllStringSubmatchIndex(prose, -1) {
			p := prose[m[2]:m[3]]
			// A markdown link target is a memory file, not a project file.
			if isURLContext(prose, m[2]) || strings.HasSuffix(prose[:m[2]], "](") || strings.HasSuffix(prose[:m[2]], "](<") {
				continue
			}
			if p = cleanRefPath(p); p != "" && codeExtensions[fileExt(p)] {
				add(RefPath, p, n+1)
			}
		}
		for _, span := range spans {
			s := strings.TrimSpace(span)
			switch {
			case s == "" || strings.ContainsAny(s, " \t") || strings.Contains(s, "://"):
			case strings.Contains(s, "/") && pathLikeRE.MatchString(s):
				if p := cleanRefPath(s); p != "" {
					add(RefPath, p, n+1)
				}
			case !strings.Contains(s, "/") && codeExtensions[fileExt(s)] && strings.Count(s, ".") == 1 && pathLikeRE.MatchString(s):
				add(RefFileName, s, n+1)
			case identRE.MatchString(s) && codeShaped(s):
				add(RefIdentifier, strings.TrimSuffix(s, "()"), n+1)
			}
		}
	}
	return out
}

// splitCodeSpans separates a line into its prose (code spans blanked) and
// the contents of its inline code spans.
func splitCodeSpans(line string) (string, []string) {
	var prose strings.Builder
	var spans []string
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			prose.WriteString(line)
			return prose.String(), spans
		}
		run := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
		ticks := line[i : i+run]
		rest := line[i+run:]
		j := strings.Index(rest, ticks)
		if j < 0 {
			prose.WriteString(line)
			return prose.String(), spans
		}
		prose.WriteString(line[:i])
		prose.WriteString(strings.Repeat(" ", run*2+j))
		spans = append(spans, rest[:j])
		line = rest[j+run:]
	}
}

// isURLContext reports whether the match at i of s is part of a URL or a
// host name ("docs.example.com/v3", "https://x/y").
func isURLContext(s string, i int) bool {
	// Only the first segment matters; scanning further would make a long
	// line of paths quadratic.
	first := s[i:]
	if k := strings.IndexAny(first, "/ \t"); k >= 0 {
		first = first[:k]
	}
	if strings.Count(first, ".") >= 1 && first != "." && first != ".." && !codeExtensions[fileExt(first)] {
		return true
	}
	return strings.HasSuffix(s[:i], ":") || strings.HasSuffix(s[:i], "//")
}

// cleanRefPath trims a line reference and punctuation off a path and
// cleans it; "" when it leaves the project.
func cleanRefPath(p string) string {
	p = strings.TrimRight(p, ".,;:!?)'\"")
	if k := strings.IndexByte(p, ':'); k > 0 {
		p = p[:k]
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return ""
	}
	return p
}

func fileExt(p string) string {
	base := path.Base(p)
	k := strings.LastIndexByte(base, '.')
	if k <= 0 {
		return strings.ToLower(base)
	}
	return strings.ToLower(base[k+1:])
}

// codeShaped reports whether an identifier looks like code rather than a
// word: it has "_" or ".", ends in "()", or has at least two upper-case
// letters each following a lower-case one or starting it (PriceBasket,
// getUserName), and is not all upper case.
func codeShaped(s string) bool {
	if strings.Contains(s, "_") || strings.Contains(s, ".") || strings.HasSuffix(s, "()") {
		return strings.ContainsFunc(s, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' })
	}
	humps, lower := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			if i == 0 || lower {
				humps++
			}
			lower = false
		case 'a' <= c && c <= 'z':
			lower = true
		}
	}
	return humps >= 2 || humps == 1 && s[0] >= 'a' && s[0] <= 'z'
}

// DriftOptions bound the identifier search of CheckDrift.
type DriftOptions struct {
	// MaxFiles and MaxBytes stop the search (defaults 20000 files seen,
	// 64 MiB read).
	MaxFiles int   `json:"maxFiles"`
	MaxBytes int64 `json:"maxBytes"`
	// MaxFileSize skips larger files (default 1 MiB): they are data.
	MaxFileSize int64 `json:"maxFileSize"`
}

// skippedProjectDirs are folders the identifier search does not enter:
// version control, dependencies and build output. Folders starting with
// "." are skipped too.
var skippedProjectDirs = map[string]bool{
	"node_modules": true, "vendor": true, "third_party": true, "bower_components": true,
	"venv": true, "__pycache__": true, "dist": true, "build": true, "target": true,
}

// DriftMiss is a reference that no longer resolves in the project.
type DriftMiss struct {
	// Doc is the memory (or index) that names it.
	Doc string   `json:"doc"`
	Ref DriftRef `json:"ref"`
}

// DriftResult is what CheckDrift found.
type DriftResult struct {
	Missing []DriftMiss `json:"missing"`
	// Unchecked counts identifiers and file names not looked for because
	// the search hit its bounds; Files and Bytes say how far it got.
	Unchecked int   `json:"unchecked"`
	Files     int   `json:"files"`
	Bytes     int64 `json:"bytes"`
	Truncated bool  `json:"truncated"`
}

// CheckDrift checks what docs name against the project tree (an fs.FS
// rooted at the project folder): paths directly with Stat, identifiers
// and bare file names in one bounded walk that tokenizes each text file
// and stops as soon as everything is found.
func CheckDrift(project fs.FS, docs []DupeDoc, o DriftOptions) DriftResult {
	o = o.withDefaults()
	res := DriftResult{Missing: []DriftMiss{}}
	idents := map[string][]driftUse{}
	names := map[string][]driftUse{}
	for _, d := range docs {
		for _, r := range DriftRefs(d.Text) {
			switch r.Kind {
			case RefPath:
				if _, err := fs.Stat(project, r.Text); errors.Is(err, fs.ErrNotExist) {
					res.Missing = append(res.Missing, DriftMiss{Doc: d.Path, Ref: r})
				}
			case RefFileName:
				names[r.Text] = append(names[r.Text], driftUse{d.Path, r})
			case RefIdentifier:
				key := r.Text
				if k := strings.LastIndexByte(key, '.'); k >= 0 {
					key = key[k+1:]
				}
				idents[key] = append(idents[key], driftUse{d.Path, r})
			}
		}
	}
	if len(idents)+len(names) > 0 {
		res.Files, res.Bytes, res.Truncated = searchProject(project, idents, names, o)
	}
	for _, m := range []map[string][]driftUse{names, idents} {
		for _, uses := range m {
			for _, u := range uses {
				if res.Truncated {
					res.Unchecked++
					continue
				}
				res.Missing = append(res.Missing, DriftMiss{Doc: u.doc, Ref: u.ref})
			}
		}
	}
	sortDriftMisses(res.Missing)
	return res
}

// driftUse is one mention of a reference.
type driftUse struct {
	doc string
	ref DriftRef
}

// searchProject walks the project and deletes from idents and names what
// it finds. It returns how much it read and whether it stopped early
// with something left to find.
func searchProject(project fs.FS, idents, names map[string][]driftUse, o DriftOptions) (files int, read int64, truncated bool) {
	errStop := errors.New("stop")
	fs.WalkDir(project, ".", func(p string, d fs.DirEntry, err error) error {
		if len(idents)+len(names) == 0 {
			return errStop
		}
		if err != nil {
			if d != nil && d.IsDir() && p != "." {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || skippedProjectDirs[d.Name()]) {
				return fs.SkipDir
			}
			return nil
		}
		if files >= o.MaxFiles || read >= o.MaxBytes {
			truncated = true
			return errStop
		}
		files++
		delete(names, d.Name())
		if !d.Type().IsRegular() || len(idents) == 0 {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > o.MaxFileSize {
			return nil
		}
		data, err := model.ReadFileBounded(project, p, o.MaxFileSize)
		if err != nil {
			return nil
		}
		read += int64(len(data))
		if model.LooksBinary(data) {
			return nil
		}
		deleteIdentTokens(data, idents)
		return nil
	})
	return files, read, truncated && len(idents)+len(names) > 0
}

// deleteIdentTokens removes from idents every [A-Za-z0-9_] run of data
// that starts like an identifier.
func deleteIdentTokens(data []byte, idents map[string][]driftUse) {
	start := -1
	for i := 0; i <= len(data); i++ {
		word := i < len(data) && (data[i] == '_' || 'a' <= data[i] && data[i] <= 'z' || 'A' <= data[i] && data[i] <= 'Z' || '0' <= data[i] && data[i] <= '9')
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			// The conversion in the index expression does not allocate.
			if _, ok := idents[string(data[start:i])]; ok {
				delete(idents, string(data[start:i]))
			}
			start = -1
		}
	}
}

func sortDriftMisses(m []DriftMiss) {
	slices.SortFunc(m, func(a, b DriftMiss) int {
		return cmp.Or(cmp.Compare(a.Doc, b.Doc), cmp.Compare(a.Ref.Line, b.Ref.Line), cmp.Compare(a.Ref.Text, b.Ref.Text))
	})
}

func (o DriftOptions) withDefaults() DriftOptions {
	if o.MaxFiles <= 0 {
		o.MaxFiles = 20000
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 64 << 20
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = 1 << 20
	}
	return o
}
