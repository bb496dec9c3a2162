package leftover

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/testroot"
)

// BenchmarkFind is the look for leftovers every project load makes, on a
// home whose one memory folder holds n files (no leftovers among them).
func BenchmarkFind(b *testing.B) {
	for _, n := range []int{1_000, 20_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			home := filepath.Join(b.TempDir(), "home")
			mem := filepath.Join(home, "projects", "-p", "memory")
			if err := os.MkdirAll(mem, 0o700); err != nil {
				b.Fatal(err)
			}
			for i := range n {
				if err := os.WriteFile(filepath.Join(mem, fmt.Sprintf("note_%06d.md", i)), []byte("x"), 0o600); err != nil {
					b.Fatal(err)
				}
			}
			in := Input{Root: testroot.New(b), HomeDir: home, Now: time.Now()}
			b.ResetTimer()
			for range b.N {
				if rep := Find(in); len(rep.Items) != 0 {
					b.Fatal(rep.Items)
				}
			}
		})
	}
}

// BenchmarkFindRestores is the same look on a home whose restore journal
// names n files of one project folder (a rewind): the folder is read once,
// not once per file (1 500 files: 1.6 s a look when it was, 13 ms now).
func BenchmarkFindRestores(b *testing.B) {
	for _, n := range []int{100, 1_500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			base := b.TempDir()
			home, src := filepath.Join(base, "home"), filepath.Join(base, "src")
			if err := os.MkdirAll(src, 0o700); err != nil {
				b.Fatal(err)
			}
			var files []journal.File
			for i := range n {
				p := filepath.Join(src, fmt.Sprintf("f%05d.go", i))
				if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
					b.Fatal(err)
				}
				files = append(files, journal.File{Path: strings.TrimPrefix(filepath.ToSlash(p), "/"), Existed: true, Before: []byte("old")})
			}
			line, err := json.Marshal(journal.Entry{ID: "r1", Time: time.Now(), Op: "restore", Summary: "rewind", Files: files})
			if err != nil {
				b.Fatal(err)
			}
			jn := filepath.Join(home, filepath.FromSlash(filehist.RestoreJournal("s1")))
			if err := os.MkdirAll(filepath.Dir(jn), 0o700); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(jn, append(line, '\n'), 0o600); err != nil {
				b.Fatal(err)
			}
			in := Input{Root: testroot.New(b), HomeDir: home, Now: time.Now()}
			b.ResetTimer()
			for range b.N {
				if rep := Find(in); len(rep.Items) != 0 || len(rep.Problems) != 0 {
					b.Fatal(rep.Items, rep.Problems)
				}
			}
		})
	}
}

// BenchmarkFindHome is the same look on a home of 200 projects of 50
// transcripts each (no memory folder, no leftover): the cost of the walk
// of the whole home that finds a killed scrub's copies anywhere in it.
func BenchmarkFindHome(b *testing.B) {
	home := filepath.Join(b.TempDir(), "home")
	for p := range 200 {
		dir := filepath.Join(home, "projects", fmt.Sprintf("-p%03d", p))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		for s := range 50 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%08d-0000-4000-8000-000000000000.jsonl", s)), []byte("{}\n"), 0o600); err != nil {
				b.Fatal(err)
			}
		}
	}
	in := Input{Root: testroot.New(b), HomeDir: home, Now: time.Now()}
	b.ResetTimer()
	for range b.N {
		if rep := Find(in); len(rep.Items) != 0 {
			b.Fatal(rep.Items)
		}
	}
}
