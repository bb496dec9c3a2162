package lint

import (
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// bigMemoryDir is a memory folder whose one file has a body of one line of
// n bytes, beside a few ordinary files.
func bigMemoryDir(tb testing.TB, n int) (*model.MemoryDir, fstest.MapFS) {
	tb.Helper()
	fsys := fstest.MapFS{
		"MEMORY.md": {Data: []byte("- [Big](big.md) — a huge line\n- [A](a.md) — a\n")},
		"big.md":    {Data: []byte("---\nname: big\ndescription: one huge line\ntype: project\n---\n\n" + strings.Repeat("lorem ipsum dolor sit amet ", n/27+1)[:n] + "\n")},
		"a.md":      {Data: []byte("---\nname: a\ndescription: lorem ipsum dolor sit amet\ntype: project\n---\n\nlorem ipsum dolor sit amet\n")},
	}
	md, probs := model.ReadMemoryDir(fsys, ".")
	if len(md.Files) != 2 {
		tb.Fatalf("read %d files (%v)", len(md.Files), probs)
	}
	return md, fsys
}

func BenchmarkLintBigMemoryFile(b *testing.B) {
	md, fsys := bigMemoryDir(b, benchBigBytes)
	b.ReportAllocs()
	for b.Loop() {
		Run(Input{Memory: md, MemoryFS: fsys, Now: enginetest.Now})
	}
}

// benchBigBytes is the big line of BenchmarkLintBigMemoryFile.
var benchBigBytes = 100 << 20

// A memory whose body is one 8 MiB line (1 MiB by default, 16 times
// DupeMaxBytes; MEMSCOPE_LONG=1 for 8) is linted like any other: it is
// reported as too long, and a copy of it is still found as a duplicate
// (comparison looks at the first DupeMaxBytes of each).
func TestLintBigMemoryFile(t *testing.T) {
	t.Parallel()
	md, fsys := bigMemoryDir(t, testenv.Size(t, 8<<20, 1<<20))
	copyRaw := append([]byte(nil), md.File("big.md").Raw()...)
	fsys["copy.md"] = &fstest.MapFile{Data: append(copyRaw, "and a different tail\n"...)}
	md, _ = model.ReadMemoryDir(fsys, ".")
	r := Run(Input{Memory: md, MemoryFS: fsys, Now: enginetest.Now})
	var tooLong, dupe bool
	for _, f := range r.Findings {
		if f.Path == "big.md" && f.Kind == TooLong {
			tooLong = true
		}
		if f.Kind == Duplicate && (f.Path == "big.md" || f.Path == "copy.md") {
			dupe = true
		}
	}
	if !tooLong || !dupe {
		t.Errorf("too-long reported: %v, duplicate reported: %v", tooLong, dupe)
	}
	if got := dupeText(strings.Repeat("é", DupeMaxBytes)); len(got) > DupeMaxBytes || !utf8.ValidString(got) {
		t.Errorf("dupeText cut to %d bytes, valid UTF-8: %v", len(got), utf8.ValidString(got))
	}
}
