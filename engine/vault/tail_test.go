package vault

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
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

// A pack's index is written and synced while its pack is (before: after
// the pack was renamed into place and its folder synced): here the
// pack's rename waits for the index's fsync. The index is still renamed
// into place after its pack, and the vault verifies.
func TestIndexSyncedBesidePack(t *testing.T) {
	home := manySessions(t, 12)
	idxSynced := make(chan struct{})
	var once sync.Once
	var first, overlapped atomic.Bool
	r := &renames{}
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		base := filepath.Base(p)
		if step == faultfs.StepSync && strings.Contains(base, ".idx") {
			once.Do(func() { close(idxSynced) })
		}
		if step == faultfs.StepRename && strings.Contains(base, ".pack") {
			waitOnce(&first, idxSynced, &overlapped)
		}
		r.note(step, p)
	}}
	v := openVault(t, w)
	if rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0}); err != nil || rep.New != 12 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	if !overlapped.Load() {
		t.Errorf("the index was not synced while its pack was written")
	}
	r.inPlaceOrder(t)
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A sync's state file is written and synced while its last pack is
// (before: after every pack was renamed into place): here the pack's
// rename waits for the state's fsync. The state is renamed into place
// after the packs and their indexes, and the vault verifies.
func TestStateSyncedBesideTheLastPack(t *testing.T) {
	home := manySessions(t, 12)
	stateSynced := make(chan struct{})
	var once sync.Once
	var first, overlapped atomic.Bool
	r := &renames{}
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		if step == faultfs.StepSync && filepath.Base(filepath.Dir(p)) == stateDir {
			once.Do(func() { close(stateSynced) })
		}
		if step == faultfs.StepRename && strings.Contains(filepath.Base(p), ".pack") {
			waitOnce(&first, stateSynced, &overlapped)
		}
		r.note(step, p)
	}}
	v := openVault(t, w)
	if rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0}); err != nil || rep.New != 12 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	if !overlapped.Load() {
		t.Errorf("the state was not synced while the last pack was written")
	}
	r.inPlaceOrder(t)
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}

// A sync's last pack is written while a full pack is still being written
// in the background (before: the flush waited for it, and the two were
// written and synced one after the other): here the full pack's rename
// waits until the last pack is being written. Two packs (one full, the
// last), each chunk once, and the vault verifies.
func TestLastPackWrittenBesideAFullOne(t *testing.T) {
	old, oldF := packLimit, frameTarget
	packLimit, frameTarget = 256<<10, 32<<10
	t.Cleanup(func() { packLimit, frameTarget = old, oldF })
	// About 400 KB that s2 does not shrink (hex of random bytes): a full
	// pack of 256 KiB, and the rest in the last.
	home := filepath.Join(t.TempDir(), "home")
	rnd := rand.New(rand.NewPCG(3, 3))
	for f := range 4 {
		sid := fmt.Sprintf("%08d-1111-4111-8111-111111111111", f)
		var b []byte
		for len(b) < 100<<10 {
			raw := make([]byte, 100+rnd.IntN(400))
			for i := range raw {
				raw[i] = byte(rnd.Uint32())
			}
			b = fmt.Appendf(b, `{"type":"user","sessionId":"%s","text":"%x"}`+"\n", sid, raw)
		}
		write(t, home, "projects/"+proj+"/"+sid+".jsonl", string(b), t0)
	}
	secondPack := make(chan struct{})
	var once sync.Once
	var packTemps atomic.Int32
	var first, overlapped atomic.Bool
	r := &renames{}
	w := &faultfs.FS{OnCall: func(step faultfs.Step, p string) {
		base := filepath.Base(p)
		if step == faultfs.StepCreateTemp && strings.Contains(base, ".pack") && packTemps.Add(1) == 2 {
			once.Do(func() { close(secondPack) })
		}
		if step == faultfs.StepRename && strings.Contains(base, ".pack") {
			waitOnce(&first, secondPack, &overlapped)
		}
		r.note(step, p)
	}}
	v := openVault(t, w)
	if rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0}); err != nil || rep.New != 4 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	if !overlapped.Load() {
		t.Errorf("the last pack was not written while the full one was")
	}
	if packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack")); len(packs) != 2 {
		t.Errorf("%d packs, want 2 (a full one and the last)", len(packs))
	}
	r.inPlaceOrder(t)
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
}
