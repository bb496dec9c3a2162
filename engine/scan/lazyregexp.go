package scan

import (
	"regexp"
	"sync"
)

// LazyRegexp is a regular expression compiled on first use. The engine has
// some seventy of them (scan, extraction, drift, imports); compiling them
// all when the program starts cost every command, `memscope --version`
// included, a few milliseconds for rules most commands never run.
type LazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// NewLazyRegexp returns a regexp that compiles src (which must be valid:
// it panics on first use otherwise, as regexp.MustCompile would at start).
func NewLazyRegexp(src string) *LazyRegexp { return &LazyRegexp{src: src} }

func (l *LazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *LazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *LazyRegexp) FindString(s string) string { return l.get().FindString(s) }

func (l *LazyRegexp) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }

func (l *LazyRegexp) FindStringSubmatch(s string) []string {
	return l.get().FindStringSubmatch(s)
}

func (l *LazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}

func (l *LazyRegexp) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }

func (l *LazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}

func (l *LazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}

func (l *LazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}

func (l *LazyRegexp) ReplaceAllString(s, repl string) string {
	return l.get().ReplaceAllString(s, repl)
}

func (l *LazyRegexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return l.get().ReplaceAllStringFunc(s, f)
}

func (l *LazyRegexp) SubexpNames() []string { return l.get().SubexpNames() }

func (l *LazyRegexp) SubexpIndex(name string) int { return l.get().SubexpIndex(name) }
