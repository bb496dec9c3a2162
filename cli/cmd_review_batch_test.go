package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	memjournal "github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/review"
)

// inboxPaths is the review inbox's files of l, in order.
func inboxPaths(t *testing.T, home, project string) []string {
	t.Helper()
	e, out, errb := testEnv(t)
	if code := run(e, []string{"review", "--home", home, "--project", project, "--json"}); code != 0 {
		t.Fatalf("review: exit %d: %s", code, errb)
	}
	var v struct{ Items []struct{ Path string } }
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	var ps []string
	for _, it := range v.Items {
		ps = append(ps, it.Path)
	}
	return ps
}

// Rejecting several files is one change, one journal entry: one undo
// puts them all back (one entry each, past the journal's 100 entries,
// left the first ones without undo).
func TestReviewRejectIsOneJournalEntry(t *testing.T) {
	l := provHome(t)
	var reject []string
	for _, p := range inboxPaths(t, l.Home, l.Project) {
		if !strings.HasSuffix(p, "MEMORY.md") && !strings.Contains(p, "/") {
			reject = append(reject, p)
		}
	}
	if len(reject) < 2 {
		t.Fatalf("the fixture's inbox has %v: want two topic files to reject", reject)
	}
	e, _, errb := testEnv(t)
	if code := run(e, []string{"review", "--home", l.Home, "--project", l.Project, "--reject", strings.Join(reject, ",")}); code != 0 {
		t.Fatalf("reject: exit %d: %s", code, errb)
	}
	data, err := os.ReadFile(filepath.Join(l.MemoryDir, filepath.FromSlash(memjournal.Path)))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.TrimSpace(string(data)), "\n") + 1; n != 1 {
		t.Errorf("the journal holds %d entries after rejecting %d files, want 1", n, len(reject))
	}
	e, _, errb = testEnv(t)
	if code := run(e, []string{"undo", "--home", l.Home, "--project", l.Project}); code != 0 {
		t.Fatalf("undo: exit %d: %s", code, errb)
	}
	for _, p := range reject {
		if _, err := os.Stat(filepath.Join(l.MemoryDir, p)); err != nil {
			t.Errorf("one undo did not put %s back: %v", p, err)
		}
	}
}

// Two accepts at once keep both (each wrote the state it had read, and
// the last one won).
func TestReviewConcurrentAcceptsKeepBoth(t *testing.T) {
	l := provHome(t)
	var files []string
	for _, p := range inboxPaths(t, l.Home, l.Project) {
		if !strings.Contains(p, "/") {
			files = append(files, p)
		}
	}
	if len(files) < 2 {
		t.Fatalf("the fixture's inbox has %v: want two files", files)
	}
	state := filepath.Join(l.MemoryDir, filepath.FromSlash(review.Path))
	for round := range 20 {
		os.Remove(state)
		var wg sync.WaitGroup
		for _, p := range files[:2] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e, _, errb := testEnv(t)
				if code := run(e, []string{"review", "--home", l.Home, "--project", l.Project, "--accept", p}); code != 0 {
					t.Errorf("accept %s: exit %d: %s", p, code, errb)
				}
			}()
		}
		wg.Wait()
		st, err := review.Load(os.DirFS(l.MemoryDir))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files[:2] {
			if _, ok := st.Files[p]; !ok {
				t.Fatalf("round %d: %s's accept was lost (review.json has %d files)", round, p, len(st.Files))
			}
		}
	}
}
