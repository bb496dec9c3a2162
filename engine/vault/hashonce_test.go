package vault

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// cutAll cuts data as a sync of a new file does (prefixAt: the prefix
// wanted as chunks, -1 none), every chunk taken as new.
func cutAll(t *testing.T, data []byte, jsonl bool, prefixAt int64) cutResult {
	t.Helper()
	c := cutter{prefixAt: prefixAt, store: func(key, []byte) (bool, error) { return true, nil }}
	c.norm.enabled = jsonl
	res, err := c.cut(bytes.NewReader(data), 0, int64(len(data)), jsonl)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The prefix a cut records at prefixAt is the cut of those bytes alone,
// wherever prefixAt falls: at the file's start and end, at a chunk's
// end, just after one, inside a line (a file that is not JSON Lines
// grows mid-line); and it is no longer the prefix once one byte before
// prefixAt differs. This is what lets a sync replace a version that the
// file only extended without hashing the file's bytes a second time.
func TestCutPrefixIsTheCutOfThePrefix(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*chunkTarget; i++ {
		b.WriteString(line(sidA, i, 300+i%7*200))
	}
	data := []byte(b.String())
	for _, jsonl := range []bool{true, false} {
		whole := cutAll(t, data, jsonl, -1)
		if len(whole.chunks) < 3 {
			t.Fatalf("%d chunks, want 3 or more", len(whole.chunks))
		}
		ats := []int64{0, 1, int64(len(data)) - 1, int64(len(data))}
		var end int64
		for _, c := range whole.chunks {
			end += c.N
			ats = append(ats, end, end+1, end-1, end+int64(len(line(sidA, 0, 300))))
		}
		for _, at := range ats {
			if at < 0 || at > int64(len(data)) || jsonl && at > 0 && at < int64(len(data)) && data[at-1] != '\n' {
				continue
			}
			res := cutAll(t, data, jsonl, at)
			if !res.prefixSeen {
				t.Fatalf("jsonl %v, prefix at %d: not recorded", jsonl, at)
			}
			alone := cutAll(t, data[:at], jsonl, -1)
			if !isPrefix(alone.chunks, res.chunks[:res.prefixChunks], res.prefixPart) {
				t.Errorf("jsonl %v, prefix at %d of %d: %d chunks and part %+v, the prefix alone cuts into %d", jsonl, at, len(data), res.prefixChunks, res.prefixPart, len(alone.chunks))
			}
			if at == 0 {
				continue
			}
			other := bytes.Clone(data)
			other[at/2] ^= 1
			res = cutAll(t, other, jsonl, at)
			if isPrefix(alone.chunks, res.chunks[:res.prefixChunks], res.prefixPart) {
				t.Errorf("jsonl %v, prefix at %d: a byte changed at %d, still taken for the prefix", jsonl, at, at/2)
			}
		}
	}
}

// A sync hashes the file's bytes once: a new version carries the hash
// of its chunk list (Sum), no hash of its bytes and no hash state to
// resume, and the vault says format 2.
func TestNewVersionsNamedByTheirChunks(t *testing.T) {
	home := testHome(t, 300)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	st, _ := v.loadState()
	for _, r := range st.sorted() {
		ver := r.Latest()
		if ver.SHA256 != "" || ver.Sum != chunksSum(ver.Chunks) || r.Follow != nil && r.Follow.HashState != nil {
			t.Errorf("%s: sha256 %q sum %q (chunks say %q), hash state %d bytes", r.Path, ver.SHA256, ver.Sum, chunksSum(ver.Chunks), len(r.Follow.HashState))
		}
	}
	if got, _ := os.ReadFile(filepath.Join(v.Dir, formatFile)); string(got) != formatLine {
		t.Errorf("VAULT says %q, want %q", got, formatLine)
	}
}

// A version whose chunk list was changed in the state (a chunk dropped
// and its length given to the next, so the size still adds up) fails
// verify, and a restore refuses it before writing anything.
func TestChunkListCheckedAgainstItsSum(t *testing.T) {
	home := testHome(t, 300)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	st, _ := v.loadState()
	rel := "projects/" + proj + "/" + sidA + ".jsonl"
	r := st.get(rel)
	ver := r.Latest()
	if len(ver.Chunks) < 2 {
		t.Fatalf("%s: %d chunks, want 2 or more", rel, len(ver.Chunks))
	}
	ver.Chunks[1].N += ver.Chunks[0].N
	ver.Chunks = ver.Chunks[1:]
	if err := v.writeState(st, []*Record{r}, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	vr, err := v.Verify()
	if err != nil || vr.OK() || !strings.Contains(strings.Join(vr.Problems, "\n"), "chunk list") {
		t.Errorf("verify of a changed chunk list: %+v %v, want a problem naming the chunk list", vr, err)
	}
	other := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(other, 0o755)
	_, err = v.Restore(RestoreOptions{Home: homeOf(t, other), Session: sidA, Now: t0})
	if err == nil || !strings.Contains(err.Error(), "chunk list") {
		t.Errorf("restore of a changed chunk list: %v, want refused", err)
	}
	if _, err := os.Stat(filepath.Join(other, rel)); err == nil {
		t.Errorf("%s written by a refused restore", rel)
	}
}

// sidC is the fixture's third session (a transcript over smallFile,
// appended between its two syncs).
const sidC = "33333333-3333-4333-8333-333333333333"

// fixtureSumsOf reads testdata/<fixture>/sums.txt.
func fixtureSumsOf(t *testing.T, fixture string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", fixture, "sums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		sum, rel, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("sums.txt: %q", sc.Text())
		}
		out[rel] = sum
	}
	return out
}

// restoreAll restores sessions A, B and C of the fixture into an empty
// home and checks every file against sums.txt; it returns the home and
// openFixture copies the fixture vault testdata/<name>/vault into the
// test's folder, verifies it as it is (OK, with versions versions), and
// restores sessions A, B and C from it against the fixture's sums.txt.
func openFixture(t *testing.T, name string, versions int) (dir string, v *Vault, sums map[string]string, home string, restored []string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "vault")
	enginetest.WriteTree(t, dir, enginetest.ReadTree(t, filepath.Join("testdata", name, "vault")))
	v = Open(dir, testroot.New(t), nil)
	vr, err := v.Verify()
	if err != nil || !vr.OK() || vr.Versions != versions {
		t.Fatalf("verify of the fixture %s: %+v %v, want OK with %d versions", name, vr, err, versions)
	}
	sums = fixtureSumsOf(t, name)
	home, restored = restoreAll(t, v, sums)
	return dir, v, sums, home, restored
}

// syncOneNewFile syncs a fixture's restored home with one new memory
// file: the restored files store nothing (their chunks are found by
// name), the new file one chunk, and the vault is format 3 after it
// (syncOneNewFileTo: another).
func syncOneNewFile(t *testing.T, v *Vault, home string) {
	t.Helper()
	syncOneNewFileTo(t, v, home, formatLine3)
}

// syncOneNewFileTo is syncOneNewFile after which the VAULT file says
// format.
func syncOneNewFileTo(t *testing.T, v *Vault, home, format string) {
	t.Helper()
	write(t, home, "projects/"+proj+"/memory/project_new.md", "---\nname: new\ntype: project\n---\nA new fact.\n", t0)
	rep := syncHome(t, v, home, t0.Add(24*time.Hour))
	if rep.New != 1 || rep.Chunks != 1 {
		t.Errorf("a sync of the restored files and one new file stored %d chunks for %d new files, want 1 and 1", rep.Chunks, rep.New)
	}
	if got, _ := os.ReadFile(filepath.Join(v.Dir, formatFile)); string(got) != format {
		t.Errorf("VAULT after a sync says %q, want %q", got, format)
	}
}

// the files restored.
func restoreAll(t *testing.T, v *Vault, sums map[string]string) (string, []string) {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	os.MkdirAll(home, 0o755)
	var paths []string
	for _, sid := range []string{sidA, sidB, sidC} {
		rep, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: model.SessionID(sid), Now: t0})
		if err != nil {
			t.Fatalf("restore %s: %v", sid, err)
		}
		for _, f := range rep.Files {
			if want, ok := sums[f.Path]; !ok || f.SHA256 != want {
				t.Errorf("restore %s: %s reported as %s, sums.txt says %q", sid, f.Path, f.SHA256, want)
			}
			sum, _, err := fileSum(homeOf(t, home).FS, f.Path)
			if err != nil || sum != sums[f.Path] {
				t.Errorf("restore %s: %s hashes to %s (%v), sums.txt says %s", sid, f.Path, sum, err, sums[f.Path])
			}
			paths = append(paths, f.Path)
		}
	}
	if len(paths) != 8 {
		t.Errorf("restored %d files of sessions A, B and C, want 8", len(paths))
	}
	return home, paths
}

// A vault written by format 1 (testdata/vault1: every version carries
// the SHA-256 of the file's bytes and a hash state to resume; written by
// 53675dc, the code before the hash was taken once) verifies, restores
// byte for byte, and takes a sync: the sync makes it format 2, files
// whose bytes did not change keep one version (compared by their chunks,
// across the two formats), and it still verifies and restores.
func TestFormat1VaultVerifiesRestoresAndSyncs(t *testing.T) {
	dir, v, sums, home, restored := openFixture(t, "vault1", 12)
	if got, _ := os.ReadFile(filepath.Join(dir, formatFile)); string(got) != formatLine1 {
		t.Fatalf("VAULT after a verify and restores says %q, want it left %q", got, formatLine1)
	}
	before, _ := v.loadState()
	// The restored home: the session files (other mtimes and inodes:
	// read whole), no memory and no history.
	rep := syncHome(t, v, home, t0.Add(24*time.Hour))
	if rep.BytesNew != 0 {
		t.Errorf("a sync of the same bytes stored %d new bytes", rep.BytesNew)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, formatFile)); string(got) != formatLine3 {
		t.Errorf("VAULT after a sync says %q, want %q", got, formatLine3)
	}
	after, _ := v.loadState()
	for rel := range sums {
		b, a := before.get(rel), after.get(rel)
		if b == nil || a == nil || len(a.Versions) != len(b.Versions) {
			t.Errorf("%s: versions before and after a sync of the same bytes: %+v, %+v", rel, b, a)
			continue
		}
	}
	for _, rel := range restored {
		if l := after.get(rel).Latest(); l.Sum != chunksSum(l.Chunks) || l.SHA256 != "" {
			t.Errorf("%s: the version a sync found unchanged is %+v, want it named by its chunks now", rel, l)
		}
	}
	vr, err := Open(dir, testroot.New(t), nil).Verify()
	if err != nil || !vr.OK() || vr.Versions != 12 {
		t.Fatalf("verify after a sync: %+v %v, want OK with 12 versions", vr, err)
	}
	restoreAll(t, Open(dir, testroot.New(t), nil), sums)
}

// A memscope that reads formats 1 to 5 refuses another.
func TestUnknownFormatRefused(t *testing.T) {
	v := openVault(t, nil)
	os.MkdirAll(v.Dir, 0o755)
	os.WriteFile(filepath.Join(v.Dir, formatFile), []byte("memscope vault 6\n"), 0o600)
	if err := v.Exists(); err == nil || !strings.Contains(err.Error(), "memscope vault 6") {
		t.Errorf("a format 6 vault: %v, want refused naming it", err)
	}
}

// The sync that makes a format 1 vault format 2 (VAULT rewritten, then a
// pack, the state, the folder stamps) fails at every call of every write
// step in turn: the vault still verifies, the healed sync completes, and
// the sessions restore byte for byte against sums.txt.
func TestFormat1UpgradeFaultsLeaveAVaultThatVerifies(t *testing.T) {
	upgradeFaults(t, "vault1", formatLine3, packHeaderS2)
}

// The same for the sync that makes a format 2 vault (zstd packs, a
// chunk alone) format 3: VAULT rewritten, then a pack of s2 frames.
func TestFormat2UpgradeFaultsLeaveAVaultThatVerifies(t *testing.T) {
	upgradeFaults(t, "vault2", formatLine3, packHeaderS2)
}

// upgradeFaults is the upgrade fault matrix on testdata/<name>.
func upgradeFaults(t *testing.T, name, wantFormat, wantPack string) {
	fixture := enginetest.ReadTree(t, filepath.Join("testdata", name, "vault"))
	open := func(t *testing.T, w model.WriteFS) *Vault {
		dir := filepath.Join(t.TempDir(), "vault")
		enginetest.WriteTree(t, dir, fixture)
		return Open(dir, testroot.New(t), w)
	}
	sums := fixtureSumsOf(t, name)
	base, _ := restoreAll(t, open(t, nil), sums)
	// A new file: the upgrading sync writes a pack too.
	write(t, base, "projects/"+proj+"/memory/project_new.md", "---\nname: new\ntype: project\n---\nA new fact.\n", t0)
	home := enginetest.ReadTree(t, base)
	count := &faultfs.FS{}
	syncHome(t, open(t, count), base, t0.Add(24*time.Hour))
	for si, step := range faultfs.Steps {
		for _, k := range testenv.Calls(count.Calls(step), si) {
			errno := faultfs.Errnos[k%len(faultfs.Errnos)]
			t.Run(string(step)+"/"+strconv.Itoa(k), func(t *testing.T) {
				h := filepath.Join(t.TempDir(), "home")
				enginetest.WriteTree(t, h, home)
				ffs := &faultfs.FS{Step: step, Nth: k, Err: errno}
				v := open(t, ffs)
				_, err := v.Sync(SyncOptions{Home: homeOf(t, h), Now: t0.Add(24 * time.Hour)})
				if err == nil && len(ffs.Hits()) > 0 && step != faultfs.StepSyncDir {
					t.Fatalf("a sync whose %s failed reported no error", step)
				}
				ffs.Heal()
				v = Open(v.Dir, testroot.New(t), ffs)
				if rep, err := v.Verify(); err != nil || !rep.OK() {
					t.Fatalf("after a failed %s: verify %+v %v", step, rep, err)
				}
				syncHome(t, v, h, t0.Add(25*time.Hour))
				v = Open(v.Dir, testroot.New(t), nil)
				if rep, err := v.Verify(); err != nil || !rep.OK() {
					t.Fatalf("after the healed sync: %+v %v", rep, err)
				}
				if got, _ := os.ReadFile(filepath.Join(v.Dir, formatFile)); string(got) != wantFormat {
					t.Errorf("VAULT after the healed sync says %q, want %q", got, wantFormat)
				}
				if heads := strings.Join(packHeaders(t, v), ""); !strings.Contains(heads, wantPack) {
					t.Errorf("after the healed sync the packs are %q, want one headed %q", heads, wantPack)
				}
				restoreAll(t, v, sums)
			})
		}
	}
}

// A vault written by format 2 (testdata/vault2: zstd packs, a chunk
// alone; written by TestWriteFixtureVault2 at 8c522855) verifies and
// restores byte for byte as it is (VAULT left at format 2), and takes a
// sync of a home with a new file: the sync makes it format 3 and writes
// a pack of s2 frames beside the zstd ones, files whose bytes did not
// change keep their one version, and it verifies and restores again.
func TestFormat2VaultVerifiesRestoresAndSyncs(t *testing.T) {
	dir, v, sums, home, _ := openFixture(t, "vault2", 12)
	if got, _ := os.ReadFile(filepath.Join(dir, formatFile)); string(got) != formatLine2 {
		t.Fatalf("VAULT after a verify and restores says %q, want it left %q", got, formatLine2)
	}
	if heads := strings.Join(packHeaders(t, v), ""); strings.Count(heads, packHeaderZstd) != 2 {
		t.Fatalf("the fixture's packs are %q, want two of zstd", heads)
	}
	before, _ := v.loadState()
	syncOneNewFile(t, v, home)
	if heads := strings.Join(packHeaders(t, v), ""); strings.Count(heads, packHeaderZstd) != 2 || strings.Count(heads, packHeaderS2) != 1 {
		t.Errorf("after the sync the packs are %q, want the two of zstd and one of s2 frames", heads)
	}
	after, _ := v.loadState()
	for rel := range sums {
		b, a := before.get(rel), after.get(rel)
		if b == nil || a == nil || len(a.Versions) != len(b.Versions) {
			t.Errorf("%s: versions before and after a sync of the same bytes: %+v, %+v", rel, b, a)
		}
	}
	vr, err := Open(dir, testroot.New(t), nil).Verify()
	if err != nil || !vr.OK() || vr.Versions != 13 {
		t.Fatalf("verify after a sync: %+v %v, want OK with 13 versions", vr, err)
	}
	restoreAll(t, Open(dir, testroot.New(t), nil), sums)
}
