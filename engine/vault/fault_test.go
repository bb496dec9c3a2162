package vault

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// Every call of a sync's writes fails in turn (each errno of a full
// disk, a denied permission and a read-only mount): the sync reports
// it, the vault still verifies, and once the disk is healed the next
// sync completes and every session restores byte for byte. The first
// sync starts from an empty vault; the second from one that holds the
// home before an append and a new memory file. (MEMSCOPE_LONG=1 fails
// every call of every step in both; by default each step fails in one
// of the two syncs, in turn, at its first or its last call, so each sync
// meets steps at both ends.)
func TestSyncFaultsLeaveAVaultThatVerifies(t *testing.T) {
	for gi, stage := range []string{"first", "incremental"} {
		count := &faultfs.FS{}
		home := testHome(t, 100)
		v := openVault(t, count)
		if stage == "incremental" {
			syncHome(t, v, home, t0)
		}
		before := faultfs.CallsOf(count)
		grow(t, home)
		syncHome(t, v, home, t0.Add(time.Hour))
		for si, step := range faultfs.Steps {
			if !testenv.Long() && si%2 != gi {
				continue
			}
			n := count.Calls(step) - before[step]
			for _, k := range testenv.Calls(n, si/2) {
				errno := faultfs.Errnos[k%len(faultfs.Errnos)]
				t.Run(stage+"/"+string(step)+"/"+strconv.Itoa(k), func(t *testing.T) {
					home := testHome(t, 100)
					ffs := &faultfs.FS{Step: step, Nth: k, Err: errno}
					v := openVault(t, ffs)
					if stage == "incremental" {
						ffs.Heal()
						syncHome(t, v, home, t0)
						ffs.Step = step
						ffs.Nth = k + ffs.Calls(step)
					}
					grow(t, home)
					_, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: t0.Add(time.Hour)})
					if err == nil && len(ffs.Hits()) > 0 && step != faultfs.StepSyncDir {
						t.Fatalf("a sync whose %s failed reported no error", step)
					}
					ffs.Heal()
					if rep, err := v.Verify(); err == nil && !rep.OK() {
						t.Fatalf("after a failed %s: verify found %v %v", step, rep.Problems, rep.State)
					} else if err != nil && v.exists() {
						t.Fatalf("after a failed %s: verify: %v", step, err)
					}
					syncHome(t, v, home, t0.Add(2*time.Hour))
					if rep, err := v.Verify(); err != nil || !rep.OK() {
						t.Fatalf("after the healed sync: %+v %v", rep, err)
					}
					checkRestores(t, v, home)
				})
			}
		}
	}
}

// grow appends to session A's transcript and adds a memory file.
func grow(t *testing.T, home string) {
	t.Helper()
	p := filepath.Join(home, "projects", proj, sidA+".jsonl")
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(transcript(sidA, 200, 230, 100))
	f.Close()
	write(t, home, "projects/"+proj+"/memory/project_new.md", "---\nname: new\ntype: project\n---\nA new fact.\n", t0.Add(time.Hour))
}

// checkRestores deletes session A from a copy of home and restores it
// from v: the copy then equals home.
func checkRestores(t *testing.T, v *Vault, home string) {
	t.Helper()
	want := snapshot(t, home, ofSessionA)
	sweep(t, home)
	if _, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: t0}); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, home, ofSessionA)
	for rel, w := range want {
		if got[rel].data != w.data {
			t.Errorf("%s differs after restore", rel)
		}
	}
}

// garbling is a WriteFS whose files get other bytes than written (a
// disk that lies): a restore's read-back sees it.
type garbling struct{ model.OSWriteFS }

func (g garbling) CreateTemp(dir, pattern string) (model.TempFile, error) {
	f, err := g.OSWriteFS.CreateTemp(dir, pattern)
	return garbled{f}, err
}

type garbled struct{ model.TempFile }

func (f garbled) Write(p []byte) (int, error) {
	q := append([]byte(nil), p...)
	if len(q) > 0 {
		q[0] ^= 0xff
	}
	return f.TempFile.Write(q)
}

// A file that reads back other bytes than the vault's is removed: the
// restore fails and leaves nothing no undo could take back.
func TestRestoreRemovesAFileThatReadsBackWrong(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	sweep(t, home)
	v.w = garbling{}
	_, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: t0})
	if err == nil || !strings.Contains(err.Error(), "does not hash") {
		t.Fatalf("restore through a garbling disk: %v, want the read-back error", err)
	}
	if left := snapshot(t, home, ofSessionA); len(left) != 0 {
		t.Errorf("the failed restore left %d files of the session: %v", len(left), left)
	}
}
