package vault

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testroot"
)

// useHash makes the vaults a sync creates name their chunks by h until
// the test ends (hashSHA256: a vault as format 3 wrote it).
func useHash(t *testing.T, h chunkHash) {
	t.Helper()
	old := newVaultHash
	newVaultHash = h
	t.Cleanup(func() { newVaultHash = old })
}

// chunkNames reads every chunk of v's index back and reports how many
// are named by h's hash of their bytes and how many are not.
func chunkNames(t *testing.T, v *Vault, h chunkHash) (named, other int) {
	t.Helper()
	_, ix, err := v.read(true)
	if err != nil {
		t.Fatal(err)
	}
	rd := newChunkReader(v, ix)
	defer rd.close()
	for k := range ix.m {
		data, err := rd.read(k)
		if err != nil {
			t.Fatalf("chunk %s: %v", k, err)
		}
		if h.sum(data) == k {
			named++
		} else {
			other++
		}
	}
	return named, other
}

// BLAKE3 as the vault computes it, against the function's published
// test values ("" and "abc") and, for a 1 MiB input that runs the
// vector code (whole 1 KiB chunks, many of them), the value another
// implementation (lukechampine.com/blake3 v1.4.1) gives.
func TestChunkHashBLAKE3(t *testing.T) {
	pat := make([]byte, 1<<20+3)
	for i := range pat {
		pat[i] = byte(i % 251)
	}
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{nil, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{[]byte("abc"), "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"},
		{pat, "dc51e3daeb5dbbb6a3eb12209fbb7cb14a74fc866a4ad82bc7eb703f536c1092"},
	} {
		if got := hashBLAKE3.sum(c.in).String(); got != c.want {
			t.Errorf("BLAKE3 of %d bytes: %s, want %s", len(c.in), got, c.want)
		}
	}
	if got, want := hashSHA256.sum([]byte("abc")), key(sha256.Sum256([]byte("abc"))); got != want {
		t.Errorf("SHA-256 of abc: %s, want %s", got, want)
	}
}

// A new vault is format 5 (format 4's BLAKE3 names): its chunks are named by their BLAKE3, it
// verifies and restores, and a second sync of the same home stores
// nothing (the look-up finds the chunks by the same names).
func TestNewVaultNamesChunksByBLAKE3(t *testing.T) {
	home := testHome(t, 300)
	before := snapshot(t, home, ofSessionA)
	v := openVault(t, nil)
	rep := syncHome(t, v, home, t0)
	if got, _ := os.ReadFile(filepath.Join(v.Dir, formatFile)); string(got) != formatLine || formatLine != "memscope vault 5\n" {
		t.Errorf("a new vault's VAULT says %q, want format 5", got)
	}
	v = Open(v.Dir, testroot.New(t), nil)
	if named, other := chunkNames(t, v, hashBLAKE3); named != rep.Chunks || other != 0 || named == 0 {
		t.Errorf("%d chunks named by their BLAKE3, %d otherwise; the sync stored %d", named, other, rep.Chunks)
	}
	if again := syncHome(t, Open(v.Dir, testroot.New(t), nil), home, t0.Add(time.Hour)); again.Chunks != 0 {
		t.Errorf("a second sync of the same home stored %d chunks", again.Chunks)
	}
	if vr, err := Open(v.Dir, testroot.New(t), nil).Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	sweep(t, home)
	syncHome(t, Open(v.Dir, testroot.New(t), nil), home, t0.Add(2*time.Hour))
	restoreSessionA(t, Open(v.Dir, testroot.New(t), nil), home, before, t0.Add(3*time.Hour))
}

// A vault of format 3 (testdata/vault3, written by main's code at
// 33cc3b2: s2 frames, chunks named by SHA-256) verifies and restores
// byte for byte as it is, and stays format 3 when synced: the chunks of
// the restored files are found by their SHA-256 names (the sync stores
// one chunk, the new file's), every chunk of the vault, old and new, is
// named by its SHA-256, and the vault verifies and restores again.
func TestFormat3VaultVerifiesRestoresAndSyncs(t *testing.T) {
	dir, v, sums, home, _ := openFixture(t, "vault3", 12)
	if heads := strings.Join(packHeaders(t, v), ""); strings.Count(heads, packHeaderS2) != 2 {
		t.Fatalf("the fixture's packs are %q, want two of s2 frames", heads)
	}
	syncOneNewFile(t, v, home)
	// Its new pack is of s2 frames, which a memscope of format 3 reads.
	if heads := strings.Join(packHeaders(t, v), ""); strings.Count(heads, packHeaderS2) != 3 {
		t.Errorf("after the sync the packs are %q, want three of s2 frames", heads)
	}
	checkSyncedFixture(t, dir, hashSHA256, sums)
}

// checkSyncedFixture checks a fixture's vault in dir after
// syncOneNewFile: every chunk named by hash, 13 versions that verify,
// the sessions restored byte for byte against sums.
func checkSyncedFixture(t *testing.T, dir string, hash chunkHash, sums map[string]string) {
	t.Helper()
	v := Open(dir, testroot.New(t), nil)
	if named, other := chunkNames(t, v, hash); other != 0 || named == 0 {
		t.Errorf("%d chunks named by the vault's hash, %d otherwise", named, other)
	}
	vr, err := v.Verify()
	if err != nil || !vr.OK() || vr.Versions != 13 {
		t.Fatalf("verify after a sync: %+v %v, want OK with 13 versions", vr, err)
	}
	restoreAll(t, Open(dir, testroot.New(t), nil), sums)
}

// A chunk of a format 4 vault checked by SHA-256, or of a format 3 one
// by BLAKE3, is refused: the name's meaning is the vault's format, and
// a VAULT file that says the other one fails verify (it is not trusted
// to say which hash any chunk matches).
func TestChunkCheckedByItsVaultsHash(t *testing.T) {
	home := testHome(t, 30)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	os.WriteFile(filepath.Join(v.Dir, formatFile), []byte(formatLine3), 0o600)
	vr, err := Open(v.Dir, testroot.New(t), nil).Verify()
	if err == nil && vr.OK() {
		t.Errorf("a format 4 vault relabelled format 3 verifies: %+v", vr)
	}
	os.WriteFile(filepath.Join(v.Dir, formatFile), []byte(formatLine), 0o600)
	if vr, err := Open(v.Dir, testroot.New(t), nil).Verify(); err != nil || !vr.OK() {
		t.Errorf("the same vault as format 4: %+v %v", vr, err)
	}
}
