package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// With a cache, the paste files hashed at one start are not hashed at
// the next; a paste changed in between is.
func TestPasteVerdictsOutliveTheRun(t *testing.T) {
	dir := t.TempDir()
	var hist string
	var first string
	for i := range 5 {
		content := fmt.Sprintf("pasted text %d", i)
		sum := sha256.Sum256([]byte(content))
		hash := hex.EncodeToString(sum[:])[:16]
		if i == 0 {
			first = hash
		}
		os.MkdirAll(filepath.Join(dir, "paste-cache"), 0o700)
		os.WriteFile(filepath.Join(dir, "paste-cache", hash+".txt"), []byte(content), 0o600)
		hist += fmt.Sprintf(`{"display":"p %d [Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","contentHash":%q}},"timestamp":1763632800000,"project":"/w/app","sessionId":"s"}`+"\n", i, hash)
	}
	os.WriteFile(filepath.Join(dir, "history.jsonl"), []byte(hist), 0o600)
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	start := func() Model {
		return loadedModel(t, Options{Home: home, Cache: cache}, 100, 30)
	}
	if n := start().live.verdicts.Hashed(); n != 5 {
		t.Fatalf("first start hashed %d pastes, want 5", n)
	}
	if n := start().live.verdicts.Hashed(); n != 0 {
		t.Errorf("second start hashed %d pastes, want 0 (the verdicts were kept)", n)
	}
	// Rewritten in place: same name, other content.
	os.WriteFile(filepath.Join(dir, "paste-cache", first+".txt"), []byte("pasted text X"), 0o600)
	m := start()
	if n := m.live.verdicts.Hashed(); n != 1 {
		t.Errorf("after a paste changed: %d hashed, want 1", n)
	}
	if s := m.data.inventory.Summary; s.HashMismatch != 1 || s.Resolved != 4 {
		t.Errorf("after a paste changed: %+v, want 1 mismatch and 4 resolved", s)
	}
}
