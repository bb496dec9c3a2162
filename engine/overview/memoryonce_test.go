package overview_test

import (
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
)

// isMemoryFile says name is a topic file or the MEMORY.md of one of
// the home's project memory folders (projects/<slug>/memory/<rel>).
func isMemoryFile(name string) bool {
	parts := strings.SplitN(name, "/", 4)
	return len(parts) == 4 && parts[0] == "projects" && parts[2] == "memory" && (model.IsMemoryTopicPath(parts[3]) || parts[3] == model.MemoryIndexName)
}

// TestColdStartReadsEachMemoryFileOnce: on a cold cache, the secrets
// count (which reads every memory file for secrets) and the Problems
// line's stat after it (which parses every memory file for its
// frontmatter) open each memory file once between them, whichever line
// is asked first, and the lines are those each gives reading on its
// own (on the demo home). With the open project's memory folder read
// first (the app's project load), the count reads none of its files'
// bytes again. Before, each file was opened and read twice, the open
// project's three times.
func TestColdStartReadsEachMemoryFileOnce(t *testing.T) {
	orders := map[string][]overview.ID{
		"secrets first":  {overview.Secrets, overview.Problems},
		"problems first": {overview.Problems, overview.Secrets},
		"together":       nil,
		"project first":  {overview.Secrets, overview.Problems},
	}
	for name, order := range orders {
		t.Run(name, func(t *testing.T) {
			// The demo home made again for each order: files the memo
			// holds from another test's read are not read at all.
			h := passHomes(t)[1]
			{
				home, err := model.OpenHome(h.dir, model.HomeFromFlag)
				if err != nil {
					t.Fatal(err)
				}
				mo := &pasteReads{FS: home.FS, opened: map[string]int{}, bytes: map[string]int64{}, match: isMemoryFile}
				s := passSource(t, h, mo, newCache(t))
				own := passSource(t, h, nil, nil)
				slug, ok := model.FindProjectDir(home.FS, h.project)
				if !ok {
					t.Fatalf("no project folder for %s", h.project)
				}
				projectDir := "projects/" + slug + "/memory"
				if name == "project first" {
					if md, _ := model.ReadMemoryDir(mo, projectDir); len(md.Files) == 0 {
						t.Fatalf("no memory file in %s", projectDir)
					}
				}
				computeInOrder(t, s, own, order)
				if len(mo.opened) == 0 {
					t.Fatalf("no memory file opened on %s", h.name)
				}
				for n, k := range mo.opened {
					info, err := fs.Stat(home.FS, n)
					if err != nil {
						t.Fatal(err)
					}
					switch {
					case !strings.HasPrefix(n, projectDir+"/"):
						if k != 1 || mo.bytes[n] != info.Size() {
							t.Errorf("%s opened %d times, %d bytes read of %d: want one open, each byte read once", n, k, mo.bytes[n], info.Size())
						}
					case name == "project first":
						// Read by the project's read; the count opens it
						// to see it is the file that read read.
						if k != 2 || mo.bytes[n] != info.Size() {
							t.Errorf("%s (the open project's, read first) opened %d times, %d bytes read of %d: want 2 opens, each byte read once", n, k, mo.bytes[n], info.Size())
						}
					default:
						// The pass's load of the open project reads its
						// folder by a file system of its own (not
						// counted) before or after the count.
						if k > 1 || mo.bytes[n] > info.Size() {
							t.Errorf("%s (the open project's) opened %d times, %d bytes read of %d here: want at most one open and each byte once", n, k, mo.bytes[n], info.Size())
						}
					}
				}
			}
		})
	}
}

// computeInOrder computes the secrets and Problems lines from s in
// order (nil: both at once, as the app counts them) and checks each is
// the line own (no cache, no pass) gives reading on its own.
func computeInOrder(t *testing.T, s, own *overview.Source, order []overview.ID) {
	t.Helper()
	ids := order
	if ids == nil {
		ids = []overview.ID{overview.Secrets, overview.Problems}
	}
	got := make([]overview.Line, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		if order != nil {
			got[i] = overview.Compute(s, id)
			continue
		}
		wg.Go(func() { got[i] = overview.Compute(s, id) })
	}
	wg.Wait()
	for i, id := range ids {
		if g, w := lineJSON(t, got[i]), lineJSON(t, overview.Compute(own, id)); g != w {
			t.Errorf("%s:\n%s\nreading on its own:\n%s", id, g, w)
		}
	}
}
