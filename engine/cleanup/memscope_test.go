package cleanup

import (
	"os"
	"path/filepath"
	"testing"
)

// memscope's own folder (the undo copies of file-history restores) is
// listed among what the sweep never deletes, and none of it is forecast
// as swept.
func TestForecastListsMemscopeFolderAsNeverSwept(t *testing.T) {
	h := sampleHome(t)
	p := h.Abs(".memscope/file-history/s1/journal.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := BuildForecast(Options{Home: h, Settings: period(7), HorizonDays: 5, Now: retNow})
	var found *NeverSwept
	for i := range f.NeverSwept {
		if f.NeverSwept[i].Kind == NeverSweptMemscope {
			found = &f.NeverSwept[i]
		}
	}
	if found == nil || found.Path != ".memscope" || found.Files != 1 || found.Size != 6 {
		t.Fatalf("never swept = %+v, want .memscope with 1 file of 6 bytes", f.NeverSwept)
	}
	for _, it := range f.Items {
		if filepath.ToSlash(it.Path)[:min(len(it.Path), 9)] == ".memscope" {
			t.Errorf("forecast as swept: %s", it.Path)
		}
	}
}
