package model

import (
	"os"
	"path/filepath"
	"testing"
)

// A paste file reached through a symlink is read by Resolve, so List must
// count it too; a symlink that loops is unreadable, not "not a file".
func TestPasteListFollowsSymlinks(t *testing.T) {
	home := t.TempDir()
	cache := filepath.Join(home, PasteCacheDir)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(home, "hello.txt")
	if err := os.WriteFile(elsewhere, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"5891b5b522d5df08.txt": elsewhere,              // sha256("hello\n") prefix
		"1111111111111111.txt": "1111111111111111.txt", // loops
	} {
		if err := os.Symlink(target, filepath.Join(cache, name)); err != nil {
			t.Fatal(err)
		}
	}
	c := NewPasteCache(os.DirFS(home))
	files, probs := c.List()
	if len(files) != 1 || files[0].Hash != "5891b5b522d5df08" || files[0].Size != 6 {
		t.Errorf("files = %+v", files)
	}
	if len(probs) != 1 || probs[0].File != PasteCacheDir+"/1111111111111111.txt" || probs[0].Kind != ProblemUnreadable {
		t.Errorf("problems = %+v", probs)
	}
	if r := c.Check("5891b5b522d5df08"); r.Status != PasteOK {
		t.Errorf("Check through the symlink = %+v", r)
	}
}
