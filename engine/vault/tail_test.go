package vault

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/model"
)

// The tests of a first sync's tail (docs/VAULT.md, "i31v2"): once the
// home is read, what is left is written and synced beside what is being
// written, and each file is still renamed into place only after the files
// it names: a pack before its index, the packs before the state.

// renames records the order files are renamed into place in (their
// folder's name, and "idx" for a pack's index), and calls hold (when
// set) before each rename of a temporary file whose name holds what.
type renames struct {
	mu    sync.Mutex
	order []string
}

func (r *renames) note(step faultfs.Step, p string) {
	if step != faultfs.StepRename {
		return
	}
	d := filepath.Base(filepath.Dir(p))
	if d == packsDir && strings.Contains(filepath.Base(p), ".idx") {
		d = "idx"
	}
	r.mu.Lock()
	r.order = append(r.order, d)
	r.mu.Unlock()
}

// inPlaceOrder checks that each pack was renamed into place before its
// index, and every pack and index before the state.
func (r *renames) inPlaceOrder(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	packs, idx := 0, 0
	for i, d := range r.order {
		switch d {
		case packsDir:
			packs++
		case "idx":
			idx++
			if idx > packs {
				t.Errorf("renamed into place in %v: an index before its pack", r.order)
			}
		case stateDir:
			if slices.Contains(r.order[i:], packsDir) || slices.Contains(r.order[i:], "idx") {
				t.Errorf("renamed into place in %v: the state before a pack", r.order)
			}
		}
	}
	if packs == 0 || packs != idx || !slices.Contains(r.order, stateDir) {
		t.Errorf("renamed into place: %v", r.order)
	}
}

// waitOnce waits, the first time only, for ch (false when it did not
// come: the deadlock guard).
func waitOnce(first *atomic.Bool, ch <-chan struct{}, seen *atomic.Bool) {
	if !first.CompareAndSwap(false, true) {
		return
	}
	select {
	case <-ch:
		seen.Store(true)
	case <-time.After(deadlockGuard):
	}
}

// syncHeldBeside is a first sync of a home of 12 transcripts whose
// first pack's rename waits until a file whose path synced says is
// synced (or the deadlock guard): whether it was, and the order files
// were renamed into place in, which it checks. The vault verifies.
func syncHeldBeside(t *testing.T, synced func(p string) bool) bool {
	t.Helper()
	home := manySessions(t, 12)
	seen := make(chan struct{})
	var once sync.Once
	var first, overlapped atomic.Bool
	r := &renames{}
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		if step == faultfs.StepSync && synced(p) {
			once.Do(func() { close(seen) })
		}
		if step == faultfs.StepRename && strings.Contains(filepath.Base(p), ".pack") {
			waitOnce(&first, seen, &overlapped)
		}
		r.note(step, p)
	}}
	v := openVault(t, w)
	if rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0}); err != nil || rep.New != 12 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	r.inPlaceOrder(t)
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	return overlapped.Load()
}

// A pack's index is written and synced while its pack is (before: after
// the pack was renamed into place and its folder synced): here the
// pack's rename waits for the index's fsync. The index is still renamed
// into place after its pack, and the vault verifies.
func TestIndexSyncedBesidePack(t *testing.T) {
	if !syncHeldBeside(t, func(p string) bool { return strings.Contains(filepath.Base(p), ".idx") }) {
		t.Errorf("the index was not synced while its pack was written")
	}
}

// A sync's state file is written and synced while its last pack is
// (before: after every pack was renamed into place): here the pack's
// rename waits for the state's fsync. The state is renamed into place
// after the packs and their indexes, and the vault verifies.
func TestStateSyncedBesideTheLastPack(t *testing.T) {
	if !syncHeldBeside(t, func(p string) bool { return filepath.Base(filepath.Dir(p)) == stateDir }) {
		t.Errorf("the state was not synced while the last pack was written")
	}
}

// A sync's last pack is written while a full pack is still being written
// in the background (before: the flush waited for it, and the two were
// written and synced one after the other): here the full pack's rename
// waits until the last pack is being written. Chunks are added one at a
// time, each compressed before the next, until a pack is full and
// sealed; three more go into the last pack. Both packs are in the index
// and the chunks read back.
func TestLastPackWrittenBesideAFullOne(t *testing.T) {
	old, oldF := packLimit, frameTarget
	packLimit, frameTarget = 256<<10, 32<<10
	t.Cleanup(func() { packLimit, frameTarget = old, oldF })
	secondPack := make(chan struct{})
	var once sync.Once
	var packTemps atomic.Int32
	var first, overlapped atomic.Bool
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		base := filepath.Base(p)
		if step == faultfs.StepCreateTemp && strings.Contains(base, ".pack") && packTemps.Add(1) == 2 {
			once.Do(func() { close(secondPack) })
		}
		if step == faultfs.StepRename && strings.Contains(base, ".pack") {
			waitOnce(&first, secondPack, &overlapped)
		}
	}}
	v := openVault(t, w)
	if err := v.ensure(); err != nil {
		t.Fatal(err)
	}
	ix := &index{load: v.loadIndex}
	pw := newPackWriter(v, ix, time.Now)
	defer pw.close()
	// 8 KiB of hex of random bytes a chunk: s2 does not shrink them.
	rnd := rand.New(rand.NewPCG(3, 3))
	var data [][]byte
	add := func() {
		raw := make([]byte, 4<<10)
		for i := range raw {
			raw[i] = byte(rnd.Uint32())
		}
		b := fmt.Appendf(nil, "%x", raw)
		data = append(data, b)
		if _, err := pw.add(v.hash.sum(b), b); err != nil {
			t.Fatal(err)
		}
	}
	for sealed := false; !sealed; {
		if len(data) > 1000 {
			t.Fatal("no pack sealed")
		}
		add()
		pw.wg.Wait()
		pw.sealers.Wait()
		pw.mu.Lock()
		sealed = pw.sealed != nil
		pw.mu.Unlock()
	}
	for range 3 {
		add()
	}
	if err := pw.flush(); err != nil {
		t.Fatal(err)
	}
	if !overlapped.Load() {
		t.Errorf("the last pack was not written while the full one was")
	}
	if n := len(ix.packs); n != 2 {
		t.Errorf("%d packs, want 2 (a full one and the last)", n)
	}
	r := newChunkReader(v, ix)
	defer r.close()
	for i, b := range data {
		if got, err := r.read(v.hash.sum(b)); err != nil || string(got) != string(b) {
			t.Fatalf("chunk %d read back: %v", i, err)
		}
	}
}

// A sync's folder stamps, a cache the next sync checks against the
// state, are written unsynced (before: synced beside the state, then
// their folder synced again after their rename, the sync's last fsync)
// and renamed into place after the state (a stamp never names files
// the state does not hold).
func TestFolderStampsUnsyncedAfterTheState(t *testing.T) {
	home := manySessions(t, 12)
	var mu sync.Mutex
	var order []string
	foldersSyncs := 0
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		base := filepath.Base(p)
		mu.Lock()
		defer mu.Unlock()
		if step == faultfs.StepSync && strings.Contains(base, "folders") {
			foldersSyncs++
		}
		if step != faultfs.StepRename || filepath.Base(filepath.Dir(p)) != stateDir {
			return
		}
		what := "state"
		if strings.Contains(base, "folders") {
			what = "folders"
		}
		order = append(order, what)
	}}
	v := openVault(t, w)
	if rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0}); err != nil || rep.New != 12 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	mu.Lock()
	if foldersSyncs != 0 {
		t.Errorf("the folder stamps were synced %d times, want none (a cache)", foldersSyncs)
	}
	if !slices.Equal(order, []string{"state", "folders"}) {
		t.Errorf("renamed into place in %v, want the state before the stamps", order)
	}
	mu.Unlock()
	if _, err := os.Stat(filepath.Join(v.Dir, filepath.FromSlash(foldersFile))); err != nil {
		t.Fatal(err)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// walkFS is a home whose listing of the paste cache waits until a
// transcript is opened (or the deadlock guard).
type walkFS struct {
	fs.FS
	opened chan struct{}
	once   sync.Once
	waited atomic.Bool
}

func (w *walkFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == model.PasteCacheDir {
		select {
		case <-w.opened:
			w.waited.Store(true)
		case <-time.After(deadlockGuard):
		}
	}
	return fs.ReadDir(w.FS, name)
}

func (w *walkFS) OpenRegular(name string) (fs.File, error) {
	if strings.HasPrefix(name, "projects/") && strings.HasSuffix(name, ".jsonl") {
		w.once.Do(func() { close(w.opened) })
	}
	return model.OpenRegular(w.FS, name)
}

// A sync reads the projects' files while the rest of the home is listed
// (before: it listed the whole home first, on one core, while the other
// waited): here the paste cache's listing waits for a transcript to be
// opened. Every file is synced once, the report and the state are as a
// sync that listed first makes them, and a second sync finds nothing
// changed.
func TestProjectsSyncedWhileTheHomeIsListed(t *testing.T) {
	home := manySessions(t, 12)
	write(t, home, "paste-cache/0123456789abcdef.txt", "pasted text\n", t0)
	write(t, home, "file-history/00000000-1111-4111-8111-111111111111/abc@v1", "old text\n", t0)
	h := homeOf(t, home)
	wf := &walkFS{FS: h.FS, opened: make(chan struct{})}
	h.FS = wf
	v := openVault(t, nil)
	rep, err := v.Sync(SyncOptions{Home: h, Now: t0})
	if err != nil || rep.New != 14 || rep.Files != 14 || len(rep.Problems) != 0 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	if !wf.waited.Load() {
		t.Errorf("no transcript was read while the home was listed")
	}
	// The state file is byte for byte a plain sync's of the same home.
	plain := openVault(t, nil)
	syncHome(t, plain, home, t0)
	if got, want := stateBytes(t, v), stateBytes(t, plain); got != want || len(got) < 100 {
		t.Errorf("state files differ from a plain sync's (%d and %d bytes)", len(got), len(want))
	}
	if rep2 := syncHome(t, v, home, t0.Add(time.Minute)); rep2.New+rep2.Changed != 0 || rep2.Unchanged != 14 {
		t.Errorf("second sync: %+v", rep2)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A sync opens the home's files through one listing of it
// (model.ListOnce): on Linux by their bare names from the folders the
// walk listed (held open), not by their paths resolved again beneath the
// home (openat2 and a reopen: five system calls a file, three now). Seen
// here by a project folder renamed once the first file is opened: its
// other transcripts are still read from the folder the walk listed
// (before: each was "unreadable", its path gone).
func TestFilesOpenedFromTheListedFolders(t *testing.T) {
	if !canAdvise {
		t.Skip("no read-ahead advice on this platform (the prefetcher, whose hook renames the folder, does not run)")
	}
	home := manySessions(t, 12)
	var once sync.Once
	adviseHook = func(string, int64) {
		once.Do(func() {
			from := filepath.Join(home, "projects", proj)
			if err := os.Rename(from, from+"-moved"); err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(func() { adviseHook = nil })
	v := openVault(t, nil)
	rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if rep.New != 12 || len(rep.Problems) != 0 {
		t.Errorf("%d of 12 files read, problems %v", rep.New, rep.Problems)
	}
}
