package vault

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// relatedSessions writes n transcripts in which each file read (a
// tool result of 40 KB) comes back in three sessions, in records of
// their own (no chunk dedupes): what a frame of several chunks stores
// once and a chunk compressed alone cannot.
func relatedSessions(t *testing.T, home string, n int) {
	for i := range n {
		sid := fmt.Sprintf("%08d-2222-4222-8222-222222222222", i)
		read := line(sid, 200000+i/3, 40<<10)
		read = strings.Replace(read, `"uuid":"u-`, fmt.Sprintf(`"uuid":"r%d-`, i), 1)
		write(t, home, "projects/"+proj+"/"+sid+".jsonl", transcript(sid, 100000+i*10, 100000+i*10+10, 200)+read, t0)
	}
}

// frames lists the frames of v's packs: each distinct (pack, offset) of
// its index, with the chunks in it.
func frames(t *testing.T, v *Vault) (map[frameID]int, *index) {
	t.Helper()
	ix, err := v.loadIndex()
	if err != nil {
		t.Fatal(err)
	}
	out := map[frameID]int{}
	for _, l := range ix.m {
		if !l.framed {
			t.Fatalf("a chunk of a new pack not in a frame: %+v", l)
		}
		out[frameID{l.pack, l.off}]++
	}
	return out, ix
}

// A sync writes packs of format 3: frames of several chunks, s2, each
// frame closed once it holds frameTarget bytes, every index line naming
// its chunk's place in its frame. The vault is smaller than the same
// home's with each chunk compressed alone by zstd (format 2), verifies,
// and restores byte for byte.
func TestFramesHoldSeveralChunks(t *testing.T) {
	smallFrames(t)
	// One worker: the chunks reach their frames in the files' order, so
	// the frames and their size are the same at every run. With two,
	// which chunks share a frame (and so how well s2 packs them) changed
	// from run to run, 117-170 KB, and now and then came within a few
	// bytes of zstd's chunks alone (170 308 bytes) and over it.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	home := testHome(t, 300)
	relatedSessions(t, home, 12)
	before := snapshot(t, home, ofSessionA)
	v := openVault(t, nil)
	rep := syncHome(t, v, home, t0.Add(2*time.Hour))
	if h := packHeaders(t, v); len(h) != 1 || h[0] != packHeaderMinLZ {
		t.Fatalf("packs headed %q, want one %q", h, packHeaderMinLZ)
	}
	if got, _ := os.ReadFile(filepath.Join(v.Dir, formatFile)); string(got) != formatLine {
		t.Errorf("VAULT says %q, want %q", got, formatLine)
	}
	fr, ix := frames(t, v)
	if len(fr) < 2 || len(fr)*4 > rep.Chunks {
		t.Errorf("%d chunks in %d frames, want several frames of several chunks each", rep.Chunks, len(fr))
	}
	raw := map[frameID]int64{}
	for _, l := range ix.m {
		raw[frameID{l.pack, l.off}] += int64(l.raw)
	}
	for id, n := range raw {
		if n > int64(frameTarget+maxChunk) {
			t.Errorf("frame %+v holds %d bytes, past frameTarget %d and a chunk", id, n, frameTarget)
		}
	}
	framed, err := v.Usage()
	if err != nil {
		t.Fatal(err)
	}
	useCodec(t, codecZstd)
	alone := openVault(t, nil)
	syncHome(t, alone, home, t0.Add(2*time.Hour))
	zstd, err := alone.Usage()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MinLZ frames %d bytes, zstd alone %d bytes (%d chunks)", framed.Stored, zstd.Stored, framed.Chunks)
	if framed.Chunks != zstd.Chunks || framed.Stored >= zstd.Stored {
		t.Errorf("MinLZ frames: %d chunks in %d bytes; zstd a chunk alone: %d chunks in %d bytes: want the same chunks, smaller", framed.Chunks, framed.Stored, zstd.Chunks, zstd.Stored)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	sweep(t, home)
	restoreSessionA(t, v, home, before, t0.Add(3*time.Hour))
}

// A frame is read within its bounds: a frame whose header says more
// than maxFrame bytes is an error before anything is allocated for it,
// a chunk whose index line reaches past its frame's end is an error,
// and an index line of a frame in a pack of chunks alone (or the
// reverse) is refused.
func TestFrameReadWithinItsBounds(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	fr, ix := frames(t, v)
	if len(fr) != 1 {
		t.Fatalf("%d frames, want 1", len(fr))
	}
	var k key
	var l loc
	for k, l = range ix.m {
		break
	}
	read := func(ix *index) error {
		rd := newChunkReader(v, ix)
		defer rd.close()
		_, err := rd.read(k)
		return err
	}
	if err := read(ix); err != nil {
		t.Fatal(err)
	}
	// Past its frame's end.
	longer := &index{m: map[key]loc{}, packs: ix.packs}
	l2 := l
	l2.at = int32(maxFrame - 1)
	longer.m[k] = l2
	if err := read(longer); err == nil || !strings.Contains(err.Error(), "past its frame") {
		t.Errorf("a chunk past its frame's end: %v", err)
	}
	// Unframed in a pack of frames.
	l3 := l
	l3.framed = false
	longer.m[k] = l3
	if err := read(longer); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("a chunk alone in a pack of frames: %v", err)
	}
	// A frame whose header says 100 MiB (a MinLZ block starts with a
	// zero byte, then its length).
	pack := filepath.Join(v.Dir, packsDir, l.pack+".pack")
	data, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	if data[l.off] != 0 {
		t.Fatalf("the frame starts with %#x, not a MinLZ block's 0", data[l.off])
	}
	n := binary.PutUvarint(data[l.off+1:], 100<<20)
	if n+1 > int(l.stored) {
		t.Fatalf("a frame of %d bytes", l.stored)
	}
	os.WriteFile(pack, data, 0o600)
	if err := read(ix); err == nil || !strings.Contains(err.Error(), "past the bound") {
		t.Errorf("a frame whose header says 100 MiB: %v", err)
	}
	// A frame of s2 in a pack of MinLZ frames (MinLZ's decoder would
	// take it): refused.
	s2frame := s2.Encode(nil, bytes.Repeat([]byte("a chunk of s2 "), 100))
	data = append(data[:l.off:l.off], s2frame...)
	os.WriteFile(pack, data, 0o600)
	l.stored, l.raw, l.at = int32(len(s2frame)), 14, 0
	ix.m[k] = l
	if err := read(ix); err == nil || !strings.Contains(err.Error(), "not MinLZ") {
		t.Errorf("a frame of s2 in a pack of MinLZ: %v", err)
	}
}

// format2ToPrune is a vault of format 2 (zstd packs, VAULT "2") whose
// one pack is mostly sessions gone from the home for a day, and session
// A's files as they were (for restoreSessionA): a prune 40 days later
// rewrites that pack.
func format2ToPrune(t *testing.T) (dir, home string, before map[string]fileState) {
	home = testHome(t, 300)
	relatedSessions(t, home, 12)
	before = snapshot(t, home, ofSessionA)
	v := openVault(t, nil)
	useHash(t, hashSHA256)
	old := writeCodec
	writeCodec = codecZstd
	syncHome(t, v, home, t0)
	gone, _ := filepath.Glob(filepath.Join(home, "projects", proj, "*-2222-4222-8222-222222222222.jsonl"))
	for _, p := range gone {
		os.Remove(p)
	}
	syncHome(t, v, home, t0.Add(time.Hour))
	writeCodec = old
	os.WriteFile(filepath.Join(v.Dir, formatFile), []byte(formatLine2), 0o600)
	return v.Dir, home, before
}

// pruneLater is the prune format2ToPrune's vault is made for.
var pruneLater = PruneOptions{KeepDays: 30, Now: t0.Add(40 * 24 * time.Hour)}

// A prune that rewrites a pack of a format 2 vault makes the vault
// format 3 first (the pack it writes is of s2 frames, which a memscope
// of format 2 could not read), and the vault verifies and restores.
func TestPruneOfAFormat2VaultMakesItFormat3(t *testing.T) {
	dir, home, before := format2ToPrune(t)
	v := Open(dir, testroot.New(t), nil)
	rep, err := v.Prune(pruneLater)
	if err != nil || rep.PacksRewritten != 1 {
		t.Fatalf("prune: %+v %v, want one pack rewritten", rep, err)
	}
	if got, _ := os.ReadFile(filepath.Join(v.Dir, formatFile)); string(got) != formatLine3 {
		t.Errorf("VAULT after a prune that rewrote a pack says %q, want %q", got, formatLine3)
	}
	if h := packHeaders(t, v); len(h) != 1 || h[0] != packHeaderS2 {
		t.Errorf("after the prune the packs are %q, want one of s2 frames", h)
	}
	if vr, err := Open(dir, testroot.New(t), nil).Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	sweep(t, home)
	restoreSessionA(t, Open(dir, testroot.New(t), nil), home, before, t0.Add(41*24*time.Hour))
}

// The same prune fails at every call of every write step in turn
// (VAULT rewritten, the trash's records, the pack of s2 frames, the
// state, the moves to the trash): the vault verifies, the healed prune
// completes, and session A restores byte for byte.
func TestPruneUpgradeFaultsLeaveAVaultThatVerifies(t *testing.T) {
	dir, home, before := format2ToPrune(t)
	fixture := enginetest.ReadTree(t, dir)
	open := func(t *testing.T, w model.WriteFS) *Vault {
		d := filepath.Join(t.TempDir(), "vault")
		enginetest.WriteTree(t, d, fixture)
		return Open(d, testroot.New(t), w)
	}
	count := &faultfs.FS{}
	if _, err := open(t, count).Prune(pruneLater); err != nil {
		t.Fatal(err)
	}
	for si, step := range faultfs.Steps {
		for _, k := range testenv.Calls(count.Calls(step), si) {
			errno := faultfs.Errnos[k%len(faultfs.Errnos)]
			t.Run(string(step)+"/"+strconv.Itoa(k), func(t *testing.T) {
				ffs := &faultfs.FS{Step: step, Nth: k, Err: errno}
				v := open(t, ffs)
				_, err := v.Prune(pruneLater)
				if err == nil && len(ffs.Hits()) > 0 && step != faultfs.StepSyncDir {
					t.Fatalf("a prune whose %s failed reported no error", step)
				}
				ffs.Heal()
				if rep, err := Open(v.Dir, testroot.New(t), nil).Verify(); err != nil || !rep.OK() {
					t.Fatalf("after a failed %s: verify %+v %v", step, rep, err)
				}
				if _, err := Open(v.Dir, testroot.New(t), ffs).Prune(pruneLater); err != nil {
					t.Fatalf("the healed prune: %v", err)
				}
				v = Open(v.Dir, testroot.New(t), nil)
				if rep, err := v.Verify(); err != nil || !rep.OK() {
					t.Fatalf("after the healed prune: %+v %v", rep, err)
				}
				if got, _ := os.ReadFile(filepath.Join(v.Dir, formatFile)); string(got) != formatLine3 {
					t.Errorf("VAULT after the healed prune says %q", got)
				}
				h := filepath.Join(t.TempDir(), "home")
				enginetest.WriteTree(t, h, enginetest.ReadTree(t, home))
				sweep(t, h)
				restoreSessionA(t, v, h, before, t0.Add(41*24*time.Hour))
			})
		}
	}
}

// indexLine writes what the index's Fprintf formats wrote: a chunk
// alone and a chunk in a frame, and parseIndexBytes reads it back.
func TestIndexLineAsFormatted(t *testing.T) {
	k := key(sha256.Sum256([]byte("chunk")))
	for _, l := range []loc{
		{off: 26, stored: 1234, raw: 5678},
		{off: 1 << 40, stored: maxFrame, raw: maxChunk, at: maxFrame - maxChunk, framed: true},
		{off: int64(minPackHeader), framed: true},
	} {
		want := fmt.Sprintf("%s %d %d %d\n", k, l.off, l.stored, l.raw)
		if l.framed {
			want = fmt.Sprintf("%s %d %d %d %d\n", k, l.off, l.stored, l.raw, l.at)
		}
		got := string(indexLine(nil, k, l))
		if got != want {
			t.Errorf("indexLine = %q, want %q", got, want)
		}
		if k2, l2, err := parseIndexBytes([]byte(strings.TrimSuffix(got, "\n"))); err != nil || k2 != k || l2 != l {
			t.Errorf("%q read back as %v %+v %v", got, k2, l2, err)
		}
	}
}
