package memindex

import (
	"net/url"
	"path"
	"strings"

	"github.com/memscope/memscope/model"
)

// TargetPath turns the target of an index link into a slash path relative
// to the memory folder. It is the one normalizer of index links: lint,
// prune, export, the store's edits and every pane call it (directly or
// through EntryTarget and Resolver), so they agree on which file a line
// links.
//
// The client does not resolve these links itself: it loads MEMORY.md as
// text and the model opens the file a line names, relative to the memory
// folder. So a target is read the way a Markdown link destination is read
// as a relative URL:
//
//   - "<a b.md>" is Markdown's bracketed destination: a b.md. An unbracketed
//     destination followed by a title ("a.md \"Title\"", 'Title' or
//     (Title)) is the destination alone.
//   - "#fragment" and "?query" are not part of the file: "a.md#top" and
//     "a.md?x=1" link a.md. A bare "#top" links no file.
//   - A backslash separates folders, as in a path the client writes on
//     Windows and as URL parsers read it: "sub\a.md" is sub/a.md. (Markdown
//     escapes such as "\_" are not undone: nobody escapes a file name in a
//     link destination, while a Windows path "sub\_x.md" is plausible.)
//   - Percent escapes are decoded after that: "a%20b.md" is "a b.md" and
//     "a%5Cb.md" a file whose name holds a backslash. A target that does not
//     decode ("100%.md") is taken as written.
//   - "./a.md" is a.md. URLs (any "scheme:"), absolute paths ("/x.md",
//     "C:\x.md") and paths leaving the folder ("../a.md") are not files of
//     the folder: it reports false for them.
func TargetPath(target string) (string, bool) {
	t := destination(strings.TrimSpace(target))
	if k := strings.IndexAny(t, "#?"); k >= 0 {
		t = t[:k]
	}
	t = strings.ReplaceAll(t, "\\", "/")
	if t == "" || hasScheme(t) || strings.HasPrefix(t, "/") {
		return "", false
	}
	if u, err := url.PathUnescape(t); err == nil {
		t = u
	}
	rel := path.Clean(t)
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return "", false
	}
	return rel, true
}

// destination is the link destination of a Markdown link's parenthesized
// part: the inside of "<...>", or the text before a title.
func destination(t string) string {
	if strings.HasPrefix(t, "<") {
		if end := strings.IndexByte(t, '>'); end >= 0 {
			return t[1:end]
		}
		return t[1:] // unterminated: the rest is the target
	}
	return stripTitle(t)
}

// stripTitle drops a link title ("Title", 'Title' or (Title), after
// white space) from the end of an unbracketed destination.
func stripTitle(t string) string {
	if len(t) < 2 {
		return t
	}
	var open byte
	switch t[len(t)-1] {
	case '"':
		open = '"'
	case '\'':
		open = '\''
	case ')':
		open = '('
	default:
		return t
	}
	i := strings.LastIndexByte(t[:len(t)-1], open)
	if i <= 0 || t[i-1] != ' ' && t[i-1] != '\t' {
		return t
	}
	return strings.TrimRight(t[:i], " \t")
}

// hasScheme reports whether t starts with a URL scheme ("https:",
// "mailto:") or a drive letter ("C:"): either way not a file of the
// folder. A relative path whose first segment holds a colon must be
// written "./a:b.md", as in any URL.
func hasScheme(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// EntryTarget is the folder path a link entry ("- [Title](file.md)")
// links, by TargetPath; false for name entries and links to no file of
// the folder.
func EntryTarget(e *model.IndexEntry) (string, bool) {
	if e == nil || e.Form != model.EntryLink {
		return "", false
	}
	return TargetPath(e.Target)
}

// Resolver settles which file of one memory folder an index entry names.
// A link entry names its target (TargetPath); a name entry ("- safe_name
// -- description", the seed form) names safe_name.md, or, when there is no
// such file, the memory whose frontmatter name is safe_name.
type Resolver struct {
	exists map[string]bool
	byName map[string]string
}

// NewResolver prepares the lookups for md's files.
func NewResolver(md *model.MemoryDir) *Resolver {
	r := &Resolver{exists: map[string]bool{model.MemoryIndexName: true}, byName: map[string]string{}}
	if md == nil {
		return r
	}
	for _, f := range md.Files {
		r.exists[f.Path] = true
		if f.Name != "" {
			r.byName[f.Name] = f.Path
		}
	}
	for _, o := range md.Other {
		r.exists[o] = true
	}
	return r
}

// File is the folder path e names (which may not exist); false when e is
// no entry or links no file of the folder.
func (r *Resolver) File(e *model.IndexEntry) (string, bool) {
	if e == nil {
		return "", false
	}
	if e.Form == model.EntryName {
		target := e.Title + ".md"
		if p, named := r.byName[e.Title]; named && !r.exists[target] {
			target = p
		}
		return target, true
	}
	return EntryTarget(e)
}

// Exists reports whether rel is a file the folder was read with: a topic
// file, MEMORY.md or another file.
func (r *Resolver) Exists(rel string) bool { return r.exists[rel] }
