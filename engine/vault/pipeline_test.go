package vault

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// smallPacks lowers packLimit for the test, so a small home fills many
// packs, and frameTarget to an eighth of it (frames of a few KB, as the
// tests had them when frames were an eighth of a pack).
func smallPacks(t *testing.T) {
	old, oldF := packLimit, frameTarget
	packLimit, frameTarget = 32<<10, 4<<10
	t.Cleanup(func() { packLimit, frameTarget = old, oldF })
}

// smallFrames lowers frameTarget for the test, so the frames' buffers
// (4 MiB and more each) do not hide what a test measures per byte.
func smallFrames(t *testing.T) {
	old := frameTarget
	frameTarget = 256 << 10
	t.Cleanup(func() { frameTarget = old })
}

// manySessions is a home of n transcripts with lines of their own (no
// two share a chunk), about 2.5 KB each: a 32 KiB pack holds many. (48
// of them are about 58 KB in s2 frames, one pack and most of another:
// with 500-byte lines, as when packs were zstd's chunks alone, 77 KB,
// and a third pack filled when the first was sealed early.)
func manySessions(t *testing.T, n int) string {
	home := filepath.Join(t.TempDir(), "home")
	for i := range n {
		sid := fmt.Sprintf("%08d-1111-4111-8111-111111111111", i)
		write(t, home, "projects/"+proj+"/"+sid+".jsonl", transcript(sid, i*10, i*10+6, 350), t0)
	}
	return home
}

// A full pack is written while the next one fills: the sync's workers
// go on reading the home's files while the first pack is being written
// (before, every worker waited for the write and its sync), here all of
// them. The packs hold each chunk once and the vault verifies.
//
// The first pack's write waits for the last file's open, told by a
// channel, so a slow machine only makes it wait longer (it waited at
// most 20 s of wall time, and failed once at load 23). The guard in
// syncWhileFirstPackWaits is no measure: it turns the old behaviour's
// deadlock (every worker waiting for a write that waits for them) into
// a failure.
func TestFullPacksWrittenWhileTheNextFills(t *testing.T) {
	const files = 48
	v, rep := syncWhileFirstPackWaits(t, files)
	packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack"))
	if len(packs) != 2 {
		t.Fatalf("%d packs written, want 2 (the test fills one 32 KiB pack and a half)", len(packs))
	}
	checkPacks(t, v, rep, packs)
}

// syncWhileFirstPackWaits syncs a home of files transcripts into a new
// vault of small packs whose first pack's write waits until every file
// of the home is opened (the deadlock guard failing the test), with the
// read-ahead at its least (the next file past the workers, no more: an
// open is a worker's progress).
func syncWhileFirstPackWaits(t *testing.T, files int) (*Vault, SyncReport) {
	smallPacks(t)
	oldB, oldF := prefetchBytes, prefetchFiles
	prefetchBytes, prefetchFiles = 0, 0
	t.Cleanup(func() { prefetchBytes, prefetchFiles = oldB, oldF })
	home := manySessions(t, files)
	reads := &openSignal{openFS: &openFS{FS: os.DirFS(home), suffix: ".jsonl"}, n: files, all: make(chan struct{})}
	readWhileWriting, whileWriting := false, 0
	var blocked atomic.Bool // packs are written two at once
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		if step != faultfs.StepCreateTemp || !strings.Contains(p, ".pack") || !blocked.CompareAndSwap(false, true) {
			return
		}
		select {
		case <-reads.all:
			readWhileWriting = true
		case <-time.After(deadlockGuard):
			whileWriting = reads.opened()
		}
	}}
	v := openVault(t, w)
	rep, err := v.Sync(SyncOptions{Home: &model.Home{Dir: home, FS: reads, Source: model.HomeFromFlag}, Now: t0})
	if err != nil || len(rep.Problems) > 0 || rep.New != files {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	if !readWhileWriting {
		t.Errorf("the home's files were not all read while the first full pack was written (%d of %d opened when the guard gave up)", whileWriting, files)
	}
	return v, rep
}

// checkPacks checks v's packs: an index each, every chunk once and
// reported, and the vault verifies.
func checkPacks(t *testing.T, v *Vault, rep SyncReport, packs []string) {
	t.Helper()
	ix, err := v.loadIndex()
	if err != nil {
		t.Fatal(err)
	}
	lines, idx := indexLines(v)
	if lines != len(ix.m) || rep.Chunks != len(ix.m) || len(idx) != len(packs) {
		t.Errorf("%d index lines, %d distinct chunks, %d reported; %d indexes for %d packs", lines, len(ix.m), rep.Chunks, len(idx), len(packs))
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A pack written in the background that fails (every write call of a
// many-pack first sync in turn; by default the first and the last of
// each step) fails the sync; the vault verifies, and the next sync
// completes and verifies.
func TestBackgroundPackWriteFaults(t *testing.T) {
	smallPacks(t)
	home := manySessions(t, 60)
	count := &faultfs.FS{}
	syncHome(t, openVault(t, count), home, t0)
	for si, step := range faultfs.Steps {
		for _, k := range testenv.Calls(count.Calls(step), si) {
			for _, last := range []bool{false, true} {
				n := k
				if last {
					n = count.Calls(step)
				}
				t.Run(string(step)+"/"+strconv.Itoa(n), func(t *testing.T) {
					ffs := &faultfs.FS{Step: step, Nth: n, Err: faultfs.Errnos[n%len(faultfs.Errnos)]}
					v := openVault(t, ffs)
					_, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0})
					if err == nil && len(ffs.Hits()) > 0 && step != faultfs.StepSyncDir {
						t.Fatalf("a sync whose %s failed reported no error", step)
					}
					ffs.Heal()
					if rep, err := v.Verify(); err == nil && !rep.OK() {
						t.Fatalf("after a failed %s: verify found %v %v", step, rep.Problems, rep.State)
					} else if err != nil && v.exists() {
						t.Fatalf("after a failed %s: verify: %v", step, err)
					}
					syncHome(t, v, home, t0.Add(time.Hour))
					if rep, err := v.Verify(); err != nil || !rep.OK() {
						t.Fatalf("after the healed sync: %+v %v", rep, err)
					}
				})
			}
		}
	}
}

// deadlockGuard is how long a test waits for what would otherwise
// never come: not a measure of speed (what it waits for comes at once
// on an idle machine), only a bound on a deadlock.
const deadlockGuard = 2 * time.Minute

// openSignal is openFS that closes all once n files were opened.
type openSignal struct {
	*openFS
	n    int
	all  chan struct{}
	once sync.Once
}

func (o *openSignal) OpenRegular(name string) (fs.File, error) {
	f, err := o.openFS.OpenRegular(name)
	if o.opened() >= o.n {
		o.once.Do(func() { close(o.all) })
	}
	return f, err
}

func (o *openSignal) opened() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.opens
}

// indexLines counts the lines of v's pack indexes, and lists them.
func indexLines(v *Vault) (lines int, idx []string) {
	idx, _ = filepath.Glob(filepath.Join(v.Dir, packsDir, "*.idx"))
	for _, p := range idx {
		data, _ := os.ReadFile(p)
		lines += strings.Count(string(data), "\n")
	}
	return lines, idx
}

// A first sync allocates less than it reads: a chunk handed to the
// compressors is copied into a buffer they give back (it was a new
// buffer a chunk), and the normalizer keeps its buffer from file to
// file (it grew a new one by doubling for every transcript). What is
// measured is what 12 more files cost (the fixed part, the encoders'
// and readers' buffers, is the same for both homes): 0.3-0.7 times their
// bytes, and about 4 times before (a buffer dropped when the GC clears
// the pool is allocated again, hence the margin). Frames of 256 KiB: a
// frame's buffer is a fixed cost too (a few frames in flight), which
// 4 MiB frames would make as large as these homes.
func TestFirstSyncAllocatesLessThanItReads(t *testing.T) {
	smallFrames(t)
	home := filepath.Join(t.TempDir(), "home")
	sync := func(files int) (alloc uint64, read int64) {
		for i := range files {
			sid := fmt.Sprintf("%08d-1111-4111-8111-111111111111", i)
			write(t, home, "projects/"+proj+"/"+sid+".jsonl", transcript(sid, i*1000, i*1000+150, 2500), t0)
		}
		v := openVault(t, nil)
		h := homeOf(t, home)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rep, err := v.Sync(SyncOptions{Home: h, Now: t0})
		runtime.ReadMemStats(&after)
		if err != nil || rep.New != files {
			t.Fatalf("sync: %+v %v", rep, err)
		}
		return after.TotalAlloc - before.TotalAlloc, rep.BytesRead
	}
	a12, r12 := sync(12)
	a24, r24 := sync(24)
	more, read := float64(a24)-float64(a12), float64(r24-r12)
	t.Logf("12 more files: %.0f bytes read, %.0f more allocated", read, more)
	if more > read*3/2 {
		t.Errorf("12 more files, %.0f bytes, made a first sync allocate %.0f bytes more (%.2f of them), want under 1.5", read, more, more/read)
	}
}

// A full pack is sealed with the chunks compressed so far, without
// waiting for those being compressed (they go into the next pack): here
// one compression waits until the first pack is being written. Before,
// the adder that found the pack full waited for every compression in
// flight while the other workers waited for it, so the pack's write
// could not begin (the guard turns that deadlock into a failure).
func TestFullPackSealedWhileAFrameIsCompressed(t *testing.T) {
	smallPacks(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	home := manySessions(t, 60)
	packWritten := make(chan struct{})
	var once sync.Once
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		if step == faultfs.StepCreateTemp && strings.Contains(p, ".pack") {
			once.Do(func() { close(packWritten) })
		}
	}}
	var jobs atomic.Int32
	waited := atomic.Bool{}
	compressHook = func() {
		if jobs.Add(1) != 3 {
			return
		}
		select {
		case <-packWritten:
		case <-time.After(deadlockGuard):
			return
		}
		waited.Store(true)
	}
	t.Cleanup(func() { compressHook = nil })
	v := openVault(t, w)
	rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0})
	if err != nil || len(rep.Problems) > 0 {
		t.Fatalf("sync: %v %v", err, rep.Problems)
	}
	if !waited.Load() {
		t.Errorf("no pack was written while the third frame was being compressed")
	}
	lines, _ := indexLines(v)
	if ix, err := v.loadIndex(); err != nil || lines != len(ix.m) || rep.Chunks != lines {
		t.Fatalf("%d index lines, %d reported: %v", lines, rep.Chunks, err)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	if rs := syncHome(t, v, home, t0.Add(time.Hour)); rs.New+rs.Changed != 0 {
		t.Errorf("a second sync stored again: %+v", rs)
	}
}

// A first sync's packs close at 8 MiB (they were 32 MiB): the last one,
// written and synced once the home is read, with nothing left to do
// beside it, is small, and the ones before it are written while the
// sync goes on. 20 MB of text s2 cannot shrink (random hex) fill three
// packs at least (one, before); none holds more than packLimit and the
// frames compressed while it was sealed (frames of 256 KiB here: 4 MiB
// frames of random bytes are 4 MiB stored, half a pack each).
func TestFirstSyncWritesPacksOf8MiB(t *testing.T) {
	smallFrames(t)
	home := filepath.Join(t.TempDir(), "home")
	r := rand.New(rand.NewPCG(7, 7))
	for f := range 5 {
		sid := fmt.Sprintf("%08d-1111-4111-8111-111111111111", f)
		var b []byte
		for len(b) < 4<<20 {
			raw := make([]byte, 200+r.IntN(3000))
			for i := range raw {
				raw[i] = byte(r.Uint32())
			}
			b = fmt.Appendf(b, `{"type":"user","sessionId":"%s","text":"%x"}`+"\n", sid, raw)
		}
		write(t, home, "projects/"+proj+"/"+sid+".jsonl", string(b), t0)
	}
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack"))
	if len(packs) < 3 {
		t.Errorf("%d packs for 20 MB that do not compress, want 3 or more (packs of 8 MiB)", len(packs))
	}
	inFlight := 2 * runtime.GOMAXPROCS(0) * (frameTarget + maxChunk) * 11 / 10
	for _, p := range packs {
		if info, err := os.Stat(p); err != nil || info.Size() > int64(packLimit+inFlight) {
			t.Errorf("pack %s: %d bytes, over %d", filepath.Base(p), info.Size(), packLimit+inFlight)
		}
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A sync encodes its state's records while its last pack is written
// and synced (before, after: the encoding was the last step alone):
// here the pack's index waits, before it is renamed into place, for the
// records to be encoded. The state is written after the pack, and the
// vault verifies.
func TestStateEncodedWhileTheLastPackIsWritten(t *testing.T) {
	home := manySessions(t, 12)
	encoded := make(chan struct{})
	var once sync.Once
	stateEncodedHook = func() { once.Do(func() { close(encoded) }) }
	t.Cleanup(func() { stateEncodedHook = nil })
	var order []string
	overlapped := false
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		if step != faultfs.StepRename {
			return
		}
		if d := filepath.Base(filepath.Dir(p)); d == packsDir || d == stateDir {
			order = append(order, d)
		}
		if strings.Contains(filepath.Base(p), ".idx") && !overlapped {
			select {
			case <-encoded:
				overlapped = true
			case <-time.After(deadlockGuard):
			}
		}
	}}
	v := openVault(t, w)
	rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0})
	if err != nil || rep.New != 12 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	if !overlapped {
		t.Errorf("the state's records were not encoded while the pack was written")
	}
	if want := []string{packsDir, packsDir, stateDir, stateDir}; !slices.Equal(order, want) {
		t.Errorf("renamed into place in %v, want %v (the packs before the state)", order, want)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A full pack is written beside one still being written (packWrites at
// once) instead of stopping the sync's workers until the first write
// and its fsync end: here the first pack's write waits until every file
// of a home of about three packs is opened (on the old code the second
// pack filled, every worker waited for the first write, and the guard
// gave up). The packs hold each chunk once and the vault verifies.
func TestNextPackWrittenBesideASlowOne(t *testing.T) {
	const files = 80 // about 96 KB in s2 frames: three 32 KiB packs
	v, rep := syncWhileFirstPackWaits(t, files)
	packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack"))
	if len(packs) < 3 {
		t.Errorf("%d packs written, want 3 or more", len(packs))
	}
	checkPacks(t, v, rep, packs)
}
