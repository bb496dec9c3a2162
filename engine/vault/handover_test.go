package vault

import (
	"slices"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// handOverHome is testHome with two more projects, named to be listed
// before and after its own.
func handOverHome(t *testing.T) string {
	t.Helper()
	home := testHome(t, 50)
	write(t, home, "projects/-a-first/"+sidA+".jsonl", transcript(sidA, 0, 40, 50), t0)
	write(t, home, "projects/-a-first/memory/MEMORY.md", "- [One](one.md) — a fact\n", t0)
	write(t, home, "projects/-z-last/"+sidB+".jsonl", transcript(sidB, 0, 40, 50), t0)
	return home
}

// The walk hands the first project folder's files to the workers as
// soon as it is listed, then the other projects' once they all are
// (before: every project's files at once, after the last project was
// listed, while the second core waited).
func TestWalkHandsOverFirstProjectAtOnce(t *testing.T) {
	home := homeOf(t, handOverHome(t))
	var probs []model.Problem
	var batches [][]homeFile
	ended := 0
	all := walkHome(home.FS, "", &probs, nil, func(b []homeFile) {
		if b == nil {
			ended++
			return
		}
		if ended > 0 {
			t.Errorf("a batch after the end: %v", b)
		}
		batches = append(batches, b)
	})
	if len(probs) > 0 || ended != 1 {
		t.Fatalf("problems %v, ended %d times", probs, ended)
	}
	if len(batches) != 2 {
		t.Fatalf("%d batches, want 2 (the first project's, then the others')", len(batches))
	}
	rels := func(fs []homeFile) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.rel)
		}
		return out
	}
	first, rest := rels(batches[0]), rels(batches[1])
	for _, r := range first {
		if !strings.HasPrefix(r, "projects/-a-first/") {
			t.Errorf("first batch holds %s", r)
		}
	}
	if len(first) != 2 {
		t.Errorf("first batch %v, want the first project's 2 files", first)
	}
	if !slices.IsSorted(first) || !slices.IsSorted(rest) {
		t.Errorf("batches not sorted: %v %v", first, rest)
	}
	var want []string
	for _, r := range rels(all) {
		if strings.HasPrefix(r, "projects/") {
			want = append(want, r)
		}
	}
	if got := append(first, rest...); !slices.Equal(got, want) {
		t.Errorf("handed over %v, want the projects' files %v", got, want)
	}
}

// A sync of a home of several projects, handed over in batches, keeps
// every file once, and the next sync finds them all unchanged.
func TestSyncHandedOverBatches(t *testing.T) {
	dir := handOverHome(t)
	v := openVault(t, nil)
	var probs []model.Problem
	n := len(walkHome(homeOf(t, dir).FS, "", &probs, nil, nil))
	rep := syncHome(t, v, dir, t0)
	if rep.Files != n || rep.New != n {
		t.Fatalf("first sync %+v, want %d files, all new", rep, n)
	}
	rep = syncHome(t, v, dir, t0)
	if rep.Files != n || rep.Unchanged != n {
		t.Fatalf("second sync %+v, want %d files, all unchanged", rep, n)
	}
}
