package model

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// A kept listing's entries cost one allocation each, their paths joined
// only when their information is asked (most entries of a kept listing,
// the paste cache's thousands, are never asked): each entry was an
// entry, a closure and its joined path (the warm start's largest
// path.Join, 3.5 MB on W). Their information is still each file's own.
func TestKeptListingEntryIsOneAllocation(t *testing.T) {
	home := t.TempDir()
	const n = 200
	if err := os.Mkdir(filepath.Join(home, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(home, "d", "file-"+strconv.Itoa(i)+".txt"), []byte(strconv.Itoa(i)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	later := time.Now().Add(time.Hour) // the folder settled
	first := NewTrustedFolders(home, KeptFolders{}, later)
	if _, err := TrustingFS(HomeFS(home), first).(dirFS).ReadDir("d"); err != nil {
		t.Fatal(err)
	}
	kept, _ := first.Kept()
	tr := NewTrustedFolders(home, kept, later)
	d := TrustingFS(HomeFS(home), tr).(dirFS)
	allocs := testing.AllocsPerRun(5, func() {
		if ents, err := d.trustedReadDir("d", nil); err != nil || len(ents) != n {
			t.Fatalf("%d entries, %v", len(ents), err)
		}
	})
	if hits, _ := tr.Counts(); hits == 0 {
		t.Fatal("the kept listing did not answer")
	}
	if allocs > n+20 {
		t.Errorf("%.0f allocations for a kept listing of %d entries, want at most %d (one an entry)", allocs, n, n+20)
	}
	ents, _ := d.trustedReadDir("d", nil)
	for _, e := range ents[:3] {
		info, err := e.Info()
		if err != nil || info.Name() != e.Name() || info.Size() != int64(len(e.Name())-len("file-.txt")) {
			t.Errorf("%s: %v, %v", e.Name(), info, err)
		}
	}
}
