package udiff

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Applying the diff to the old text gives the new text.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd", true, true)
	f.Add("", "x\n", false, true)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\nX\n4\n5\n6\n7\n8\nY\n10\n", true, true)
	f.Fuzz(func(t *testing.T, a, b string, aExists, bExists bool) {
		if !aExists {
			a = ""
		}
		if !bExists {
			b = ""
		}
		d := Unified("f", []byte(a), aExists, []byte(b), bExists)
		if a == b && aExists == bExists {
			if d != "" {
				t.Fatalf("diff of equal texts: %q", d)
			}
			return
		}
		got, err := applyUnified(a, d)
		if err != nil || got != b {
			t.Fatalf("patch gives %q (%v), want %q\n%s", got, err, b, d)
		}
	})
}

// applyUnified applies a diff made by UnifiedDiff to a.
func applyUnified(a, diff string) (string, error) {
	old := splitLinesKeepEOL(a)
	lines := splitLinesKeepEOL(diff)
	var out []string
	pos := 0
	hdr := regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@\n$`)
	for i := 2; i < len(lines); i++ {
		m := hdr.FindStringSubmatch(lines[i])
		if m == nil {
			return "", errBadPatch(lines[i])
		}
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		if n > 0 {
			start--
		}
		out = append(out, old[pos:start]...)
		pos = start
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "@@ ") {
			i++
			l := lines[i]
			text := l[1:]
			if i+1 < len(lines) && lines[i+1] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				out = append(out, text)
				pos++
			case '-':
				pos++
			case '+':
				out = append(out, text)
			default:
				return "", errBadPatch(l)
			}
		}
	}
	out = append(out, old[pos:]...)
	return strings.Join(out, ""), nil
}

type errBadPatch string

func (e errBadPatch) Error() string { return "bad patch line " + strconv.Quote(string(e)) }
