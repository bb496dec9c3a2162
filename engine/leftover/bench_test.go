package leftover

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

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
