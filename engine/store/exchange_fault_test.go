package store

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
)

// The exchange steps of the checked writes (ops_concurrent.go), which
// faultfs.FS does not know.
const (
	stepExchange faultfs.Step = "exchange"
	stepLink     faultfs.Step = "link"
)

// faultExchange is the exchangeFS production uses on Linux (the OS's
// exchange and link) over a faultfs.FS, and can make the Nth call of
// the exchange or the link fail once too; so the checked write path, not
// only the plain one, meets every fault.
type faultExchange struct {
	*faultfs.FS
	step faultfs.Step
	nth  int
	err  syscall.Errno

	mu    sync.Mutex
	calls map[faultfs.Step]int
	hits  []string
}

// TestStoreFaults again, on the checked path that production takes on
// Linux: every step (the exchange and the link included) fails at each
// of its calls, one errno per call in turn (by default at the first or
// the last call only, and the steps faultfs knows in the operations
// TestStoreFaults leaves to this path: see onChecked).
func TestStoreFaultsCheckedPath(t *testing.T) {
	t.Parallel()
	if !osExchangeSupported {
		t.Skip("no atomic exchange on this system: production takes the plain path, which TestStoreFaults covers")
	}
	steps := append(slices.Clone(faultfs.Steps), stepExchange, stepLink)
	for oi, op := range faultOps() {
		ref := &faultExchange{FS: &faultfs.FS{}}
		r := newFaultRunWith(t, op, ref.FS, ref)
		ch, err := op.op(r.store)
		if err != nil {
			t.Fatalf("%s without a fault: %v", op.name, err)
		}
		wantFiles, wantIDs := withoutJournal(snapshot(t, r.dir)), journalIDs(t, r.dir)
		names := []string{journal.Path}
		for _, f := range ch.Files {
			names = append(names, f.Path)
		}
		for si, step := range steps {
			if transient, _ := kinds(oi, si, step); !testenv.Long() && si < len(faultfs.Steps) && (!onChecked(oi, si) || !transient) {
				continue
			}
			for _, k := range testenv.Calls(ref.callsOf(step), sampleCell(oi, si)) {
				errno := faultfs.Errnos[(si+k)%len(faultfs.Errnos)]
				t.Run(fmt.Sprintf("%s/%s/%d/%s", op.name, step, k, errno), func(t *testing.T) {
					t.Parallel()
					f := &faultExchange{FS: &faultfs.FS{}, step: step, nth: k, err: errno}
					if step != stepExchange && step != stepLink {
						f.FS.Step, f.FS.Nth, f.FS.Err = step, k, errno
					}
					r := newFaultRunWith(t, op, f.FS, f)
					r.hits = f.allHits
					_, err := op.op(r.store)
					switch {
					case step == faultfs.StepSyncDir:
						if err != nil {
							t.Fatalf("a failed folder fsync failed the change: %v", err)
						}
					case step == faultfs.StepRemove && err == nil:
						// Known limit of the checked path: the exchange has
						// landed the change and the old content sits in the
						// staged name; when it cannot be removed the change
						// still stands (failing it now would drop a journal
						// entry for a change that landed) and the hidden copy
						// stays: a copy of the file's old or new content.
						snap := snapshot(t, r.dir)
						for _, name := range leftovers(snap) {
							target := leftoverTarget(name)
							// A new file is created by link(2): the staged name
							// is then a second name of the new content.
							if old, ok := r.before[target]; (!ok || snap[name] != old) && snap[name] != wantFiles[target] {
								t.Errorf("%s is left behind and holds neither the old nor the new content of %s", name, target)
							}
						}
					default:
						if err == nil {
							t.Fatalf("call %d of %s failed (%q) and the change succeeded", k, step, r.hits())
						}
						r.checkFailed(t, err, errno)
						if !namesOne(err, names) {
							t.Errorf("error %q names none of the change's files %q", err, names)
						}
						f.heal()
						if _, err := op.op(r.store); err != nil && !undoneAlready(op, err) {
							t.Fatalf("retry: %v", err)
						}
					}
					if d := enginetest.DiffTrees(wantFiles, withoutLeftovers(withoutJournal(snapshot(t, r.dir)))); d != "" {
						t.Errorf("after the change the folder differs from a run without a fault:\n%s", d)
					}
					if ids := journalIDs(t, r.dir); !slices.Equal(ids, wantIDs) {
						t.Errorf("journal %q, want %q", ids, wantIDs)
					}
				})
			}
		}
	}
}

// leftoverTarget is the file a staged or set-aside name was made for:
// "dir/.x.md.memscope-stage-3-99" is "dir/x.md".
func leftoverTarget(name string) string {
	dir, base := path.Split(name)
	base = strings.TrimPrefix(base, ".")
	if i := strings.Index(base, ".memscope-"); i >= 0 {
		base = base[:i]
	}
	return dir + base
}

func (f *faultExchange) fail(step faultfs.Step, path string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[faultfs.Step]int{}
	}
	f.calls[step]++
	if f.step != step || f.calls[step] != f.nth {
		return false
	}
	f.hits = append(f.hits, path)
	return true
}

func (f *faultExchange) Exchange(a, b string) error {
	if f.fail(stepExchange, a) {
		return &os.LinkError{Op: "renameat2", Old: a, New: b, Err: f.err}
	}
	return osExchange(a, b)
}

func (f *faultExchange) Link(a, b string) error {
	if f.fail(stepLink, a) {
		return &os.LinkError{Op: "link", Old: a, New: b, Err: f.err}
	}
	return os.Link(a, b)
}

func (f *faultExchange) allHits() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append(f.FS.Hits(), f.hits...)
}

func (f *faultExchange) heal() {
	f.FS.Heal()
	f.mu.Lock()
	f.step = ""
	f.mu.Unlock()
}

func (f *faultExchange) callsOf(step faultfs.Step) int {
	if step == stepExchange || step == stepLink {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.calls[step]
	}
	return f.FS.Calls(step)
}
