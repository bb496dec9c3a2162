package testenv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Without the switch the sizes shrink and a fault matrix samples one
// call per cell, alternating its first and last; with it everything runs.
func TestSwitch(t *testing.T) {
	for _, long := range []string{"", "0", "1"} {
		t.Run("MEMSCOPE_LONG="+long, func(t *testing.T) {
			t.Setenv(Var, long)
			on := long == "1" && !testing.Short()
			if Long() != on {
				t.Fatalf("Long() = %v, want %v", Long(), on)
			}
			wantSize, wantEven, wantOdd := 10, []int{1}, []int{4}
			if on {
				wantSize, wantEven, wantOdd = 100, []int{1, 2, 3, 4}, []int{1, 2, 3, 4}
			}
			if got := Size(t, 100, 10); got != wantSize {
				t.Errorf("Size(100, 10) = %d, want %d", got, wantSize)
			}
			if got := Size(t, 5, 10); got != 5 {
				t.Errorf("Size(5, 10) = %d: a short size over the full one is the full one", got)
			}
			if got := Calls(4, 0); !slices.Equal(got, wantEven) {
				t.Errorf("Calls(4, 0) = %v, want %v", got, wantEven)
			}
			if got := Calls(4, 7); !slices.Equal(got, wantOdd) {
				t.Errorf("Calls(4, 7) = %v, want %v", got, wantOdd)
			}
			if got := Calls(0, 1); len(got) != 0 {
				t.Errorf("Calls(0, 1) = %v: a step without calls has nothing to fail", got)
			}
		})
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", ".memscope"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"x.md": "x", "a/.memscope/journal.jsonl": "{}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := Files(t, dir)
	if len(got) != 2 || got[filepath.Join(dir, "x.md")] != "x" || got[filepath.Join(dir, "a/.memscope/journal.jsonl")] != "{}\n" {
		t.Errorf("Files = %v", got)
	}
}
