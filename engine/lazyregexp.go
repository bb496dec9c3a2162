package engine

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use. The engine has
// some seventy of them (scan, extraction, drift, imports); compiling them
// all when the program starts cost every command, `memscope --version`
// included, a few milliseconds for rules most commands never run.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// newLazyRegexp returns a regexp that compiles src (which must be valid:
// it panics on first use otherwise, as regexp.MustCompile would at start).
func newLazyRegexp(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool      { return l.get().MatchString(s) }
func (l *lazyRegexp) FindString(s string) string     { return l.get().FindString(s) }
func (l *lazyRegexp) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
func (l *lazyRegexp) FindStringSubmatch(s string) []string {
	return l.get().FindStringSubmatch(s)
}
func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}
func (l *lazyRegexp) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *lazyRegexp) ReplaceAllString(s, repl string) string {
	return l.get().ReplaceAllString(s, repl)
}
func (l *lazyRegexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return l.get().ReplaceAllStringFunc(s, f)
}
func (l *lazyRegexp) SubexpNames() []string       { return l.get().SubexpNames() }
func (l *lazyRegexp) SubexpIndex(name string) int { return l.get().SubexpIndex(name) }
