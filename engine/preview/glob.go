package preview

import (
	"regexp"
	"strings"
	"sync"
)

// globCache keeps compiled globs; patterns come from settings and rule
// frontmatter, so there are few of them.
var globCache sync.Map

// GlobMatch reports whether name matches the glob pattern, with the
// picomatch rules the client uses for claudeMdExcludes and paths:: "**"
// spans folders, "*" and "?" stay within one, "[...]" is a class, "{a,b}"
// alternates, and dot files match. A bad pattern matches nothing.
func GlobMatch(pattern, name string) bool {
	re, ok := globCache.Load(pattern)
	if !ok {
		re, _ = regexp.Compile(globRegexp(pattern))
		globCache.Store(pattern, re)
	}
	r, _ := re.(*regexp.Regexp)
	return r != nil && r.MatchString(name)
}

func globRegexp(p string) string {
	var b strings.Builder
	b.WriteString("^")
	depth := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			i++
			if i+1 < len(p) && p[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := p[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		case c == '{':
			depth++
			b.WriteString("(?:")
		case c == '}' && depth > 0:
			depth--
			b.WriteString(")")
		case c == ',' && depth > 0:
			b.WriteString("|")
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	for ; depth > 0; depth-- {
		b.WriteString(")")
	}
	b.WriteString("$")
	return b.String()
}
