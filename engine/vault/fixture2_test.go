package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// TestWriteFixtureVault2 writes testdata/vault2 with the code it runs
// on, when MEMSCOPE_WRITE_VAULT2=<folder> is set (it writes into that
// folder: <folder>/vault and <folder>/sums.txt): the fixture of format 2
// (zstd packs, each chunk alone) was written by this test on the vault
// code of 8c522855 (34cbef2e's tree), before the frames of format 3, and
// the test then fixed to write in its own folder; testdata/vault3 (format
// 3: s2 frames, chunks named by SHA-256) by this test on main's code at
// 33cc3b2, before format 4's BLAKE3 names; testdata/vault4 (format 4: s2
// frames, BLAKE3 names) on main's code at 11ef45bf, before format 5's
// MinLZ frames. Sessions A, B (a fork) and C
// (1.4 MB, appended between the two syncs), a memory file with two
// versions; sums.txt is the home's files' SHA-256 after the second sync.
func TestWriteFixtureVault2(t *testing.T) {
	out := os.Getenv("MEMSCOPE_WRITE_VAULT2")
	if out == "" {
		t.Skip("MEMSCOPE_WRITE_VAULT2 is not set")
	}
	home := testHome(t, 300)
	write(t, home, "projects/"+proj+"/"+sidC+".jsonl", transcript(sidC, 0, 3000, 450), t0.Add(time.Hour))
	// The vault is written in the test's folders (the test root reads
	// there only), then copied out.
	dir := filepath.Join(t.TempDir(), "vault")
	v := Open(dir, testroot.New(t), nil)
	syncHome(t, v, home, t0.Add(2*time.Hour))
	f, err := os.OpenFile(filepath.Join(home, "projects", proj, sidC+".jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(transcript(sidC, 3000, 3100, 450))
	f.Close()
	os.Chtimes(filepath.Join(home, "projects", proj, sidC+".jsonl"), t0.Add(150*time.Minute), t0.Add(150*time.Minute))
	write(t, home, "projects/"+proj+"/memory/MEMORY.md", "- [Tests](feedback_tests.md) — use the real db, always\n", t0.Add(150*time.Minute))
	syncHome(t, v, home, t0.Add(3*time.Hour))
	var lines []string
	hfs := model.DirFS(home)
	fs.WalkDir(hfs, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(hfs, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		lines = append(lines, fmt.Sprintf("%s  %s\n", hex.EncodeToString(sum[:]), p))
		return nil
	})
	sort.Strings(lines)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "sums.txt"), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := enginetest.ReadTree(t, dir)
	delete(tree, "state.lock")
	enginetest.WriteTree(t, filepath.Join(out, "vault"), tree)
}
