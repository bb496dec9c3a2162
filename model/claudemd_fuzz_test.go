package model

import (
	"strings"
	"testing"
)

func FuzzClaudeMdParse(f *testing.F) {
	f.Add([]byte("---\npaths: src/**\n---\nrules"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, prob := ParseClaudeMd("/r/CLAUDE.md", data)
		if !strings.HasSuffix(string(data), cf.Content) {
			t.Fatal("content is not a suffix of the input")
		}
		if (prob != nil) != (cf.Problem != nil) || prob != nil && len(cf.Paths) > 0 {
			t.Fatal("a file with bad frontmatter must be unconditional")
		}
		for _, p := range cf.Paths {
			if p == "" || strings.TrimSpace(p) != p {
				t.Fatalf("untrimmed glob %q", p)
			}
		}
	})
}
