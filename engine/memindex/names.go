package memindex

import (
	"fmt"
	"path"
	"strings"

	"github.com/memscope/memscope/model"
)

// maxMemoryNameLen bounds a memory name so the file name stays well under
// file-system limits (255 bytes) with the type prefix and ".md".
const maxMemoryNameLen = 100

// SafeMemoryName returns name as the client normalizes it when it writes
// a memory file: kept when it is already [a-z0-9_-]+, else slugified to
// [a-z0-9-] (lower case; every other run of characters becomes one "-",
// none at either end). Longer names are cut to 100 characters. An empty
// result is an error.
func SafeMemoryName(name string) (string, error) {
	n := strings.TrimSpace(name)
	if !isSafeName(n) {
		var b strings.Builder
		dash := false
		for _, r := range strings.ToLower(n) {
			if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
				if dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				b.WriteRune(r)
				dash = false
				continue
			}
			dash = true
		}
		n = b.String()
	}
	if len(n) > maxMemoryNameLen {
		n = strings.TrimRight(n[:maxMemoryNameLen], "-_")
	}
	if n == "" {
		return "", fmt.Errorf("memory name %q has no letters or digits to make a file name from", name)
	}
	return n, nil
}

func isSafeName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// MemoryFileName is the file name memscope gives a memory: the name with
// "-" turned into "_", prefixed with "<type>_" unless it already starts
// with it, plus ".md". It follows what the client's model writes in
// practice (the memory prompt's examples are user_role.md and
// feedback_testing.md; a memory named feedback-terse-answers lives in
// feedback_terse_answers.md). An untyped memory gets no prefix.
func MemoryFileName(t model.MemoryType, safeName string) string {
	base := strings.ReplaceAll(safeName, "-", "_")
	if t != model.TypeUntyped && t != "" && !strings.HasPrefix(base, string(t)+"_") {
		base = string(t) + "_" + base
	}
	return base + ".md"
}

// NameMatchesFile reports whether a memory's name fits its file name
// (a slash path): equal once case is folded and "_" read as "-", with or
// without the "<type>_" prefix.
func NameMatchesFile(rel, name string, t model.MemoryType) bool {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	base := norm(strings.TrimSuffix(path.Base(rel), ".md"))
	n := norm(name)
	return base == n || t != model.TypeUntyped && base == norm(string(t))+"-"+n
}
