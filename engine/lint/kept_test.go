package lint_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// A Memo on the app's cache answers a later run (a new process: a new
// Memo) from what an earlier run kept: nothing is scanned or shingled
// when no memory changed, the report is the one computed without a
// cache byte for byte, and an edited file is seen (scanned again, its
// pairs found again).
func TestMemoOnCacheKeepsAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	files := with(healthy(), map[string]string{
		"MEMORY.md":         healthy()["MEMORY.md"] + "- [Brief](feedback_brief.md) — brief\n- [Key](project_key.md) — key\n",
		"feedback_brief.md": enginetest.FreshMemory("brief", "Short answers", "feedback", "Answer briefly; see [[freeze]] and keep it short.\n"),
		"project_key.md":    enginetest.FreshMemory("key", "The deploy key", "project", "key "+enginetest.LeakedKey+"\n"),
	})
	enginetest.WriteTree(t, dir, files)
	cacheDir := filepath.Join(t.TempDir(), "cache")
	run := func(cache *diskcache.Store) (string, *lint.Memo) {
		t.Helper()
		s, _ := store.Open(dir, nil)
		in := lint.Input{Memory: s.Memory(), Problems: s.Problems(), MemoryFS: os.DirFS(dir), Now: enginetest.OpsNow}
		plain, _ := json.Marshal(lint.Run(in))
		in.Memo = lint.NewMemoOn(cache, "/home", "folder")
		got, _ := json.Marshal(lint.Run(in))
		if string(got) != string(plain) {
			t.Fatalf("with the cache:\n%s\nwithout:\n%s", got, plain)
		}
		return string(got), in.Memo
	}
	newCache := func() *diskcache.Store { return diskcache.New(cacheDir, testroot.New(t), model.OSWriteFS{}) }
	cold, m := run(newCache())
	if scanned, rebuilds, _ := m.Computed(); scanned != 5 || rebuilds != 1 {
		t.Fatalf("cold: %d files scanned, %d rebuilds; want 5 and 1", scanned, rebuilds)
	}
	if !strings.Contains(cold, `"near-duplicate"`) || !strings.Contains(cold, `"security"`) {
		t.Fatalf("the fixture has no near-duplicate or no security finding: %s", cold)
	}
	warm, m := run(newCache())
	if scanned, rebuilds, updates := m.Computed(); scanned != 0 || rebuilds+updates != 0 {
		t.Errorf("warm, nothing changed: %d files scanned, %d rebuilds, %d updates; want none", scanned, rebuilds, updates)
	}
	if warm != cold {
		t.Errorf("warm report differs:\n%s\ncold:\n%s", warm, cold)
	}
	// Another folder of the same home shares the file and has its own entry.
	if _, m := run2(t, newCache(), dir); m == 0 {
		t.Errorf("another folder was answered from this folder's entry")
	}
	if _, m := run(newCache()); func() bool { s, r, u := m.Computed(); return s+r+u != 0 }() {
		t.Errorf("the first folder's entry was lost when another folder saved")
	}
	// An edit is seen: the duplicate goes, the key goes.
	enginetest.WriteTree(t, dir, map[string]string{
		"feedback_brief.md": enginetest.FreshMemory("brief", "Deploys", "feedback", "Deploy on Tuesdays only, after the freeze.\n"),
		"project_key.md":    enginetest.FreshMemory("key", "The deploy key", "project", "key in the vault\n"),
	})
	edited, m := run(newCache())
	if edited == warm {
		t.Fatalf("the edit was not seen")
	}
	if scanned, _, _ := m.Computed(); scanned != 2 {
		t.Errorf("after two files changed, %d files scanned; want 2", scanned)
	}
	if again, m := run(newCache()); again != edited || func() bool { s, r, u := m.Computed(); return s+r+u != 0 }() {
		t.Errorf("the run after the edit was not answered from the cache")
	}
	// A damaged cache file is not used: everything is computed again.
	names, _ := filepath.Glob(filepath.Join(cacheDir, "lint.*"))
	if len(names) != 1 {
		t.Fatalf("cache files %v; want one", names)
	}
	raw, _ := os.ReadFile(names[0])
	raw[len(raw)-1] ^= 0xff
	if err := os.WriteFile(names[0], raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if again, m := run(newCache()); again != edited || func() bool { s, r, _ := m.Computed(); return s != 5 || r != 1 }() {
		t.Errorf("a damaged cache file was used")
	}
}

// run2 lints dir with a Memo of another folder on cache: what it scanned.
func run2(t *testing.T, cache *diskcache.Store, dir string) (lint.Report, int) {
	t.Helper()
	s, _ := store.Open(dir, nil)
	m := lint.NewMemoOn(cache, "/home", "other")
	r := lint.Run(lint.Input{Memory: s.Memory(), Problems: s.Problems(), MemoryFS: os.DirFS(dir), Now: enginetest.OpsNow, Memo: m})
	scanned, _, _ := m.Computed()
	return r, scanned
}
