package model

import (
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// slugMaxLen is where the client stops copying the path into the slug and
// appends a hash instead, so folder names stay under file-system limits.
const slugMaxLen = 200

// Slug returns the project folder name the client uses for path: every
// UTF-16 code unit outside [A-Za-z0-9] becomes "-" (so a character outside
// the Basic Multilingual Plane becomes "--"). A slug over 200 characters is
// cut to 200 and followed by "-" and the base-36 absolute value of the
// Java String.hashCode of path, as the client computes it in JavaScript
// (int32 wrap-around, then Math.abs, so -2^31 stays 2^31).
func Slug(p string) string {
	units := utf16.Encode([]rune(p))
	var b strings.Builder
	b.Grow(len(units))
	for _, u := range units {
		if u < 0x80 && isAlnum(byte(u)) {
			b.WriteByte(byte(u))
		} else {
			b.WriteByte('-')
		}
	}
	s := b.String()
	if len(s) <= slugMaxLen {
		return s
	}
	h := int64(javaHashCode(units))
	if h < 0 {
		h = -h
	}
	return s[:slugMaxLen] + "-" + strconv.FormatInt(h, 36)
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// javaHashCode is Java's String.hashCode over UTF-16 code units:
// h = 31*h + unit with int32 wrap-around.
func javaHashCode(units []uint16) int32 {
	var h int32
	for _, u := range units {
		h = 31*h + int32(u)
	}
	return h
}

// FindProjectDir looks for the project folder of path in a Claude home
// (fsys rooted at $H) and returns its slug. A slug of at most 200
// characters must match exactly. A longer one matches exactly or, because
// older client builds used another hash for the suffix, by its first 200
// characters followed by "-"; when several folders share the prefix the
// first in name order is returned.
func FindProjectDir(fsys fs.FS, p string) (string, bool) {
	slug := Slug(p)
	if isDir(fsys, path.Join("projects", slug)) {
		return slug, true
	}
	if len(slug) <= slugMaxLen {
		return "", false
	}
	prefix := slug[:slugMaxLen] + "-"
	entries, err := fs.ReadDir(fsys, "projects")
	if err != nil {
		return "", false
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), prefix) {
			found = append(found, e.Name())
		}
	}
	if len(found) == 0 {
		return "", false
	}
	sort.Strings(found)
	return found[0], true
}

func isDir(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.IsDir()
}
