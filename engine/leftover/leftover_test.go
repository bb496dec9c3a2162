package leftover

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// live is the one process the tests say is running.
const live = 4242

func alive(pid int) bool { return pid == live }

// fixture is a home with a project's memory folder holding every kind of
// hidden file, and a project tree a pending restore wrote into.
type fixture struct {
	home, mem, src string
	now            time.Time
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	base := t.TempDir()
	f := fixture{home: filepath.Join(base, "home"), src: filepath.Join(base, "src"), now: time.Now()}
	f.mem = filepath.Join(f.home, "projects", "-p", "memory")
	enginetest.WriteTree(t, f.mem, map[string]string{
		"MEMORY.md":                   "- [A](a.md) — a\n",
		"a.md":                        "a",
		".a.md.memscope-99-123":       "a copy, writer gone",
		".a.md.memscope-4242-5":       "a copy, writer running",
		".a.md.memscope-4242-stage-3": "staged, writer running",
		"..a.md.memscope-99-stage-1.memscope-99-7":          "temp of a staged copy",
		".trash/20261120-101010/.b.md.memscope-99-remove-2": "set aside",
		".trash/20261121-101010/b.md":                       "a trashed memory",
		".memscope-99-probe-1":                              "",
		".memscope-4242-probe-2":                            "",
		".old.md.memscope-777":                              "legacy, old",
		".new.md.memscope-888":                              "legacy, young",
		".memscope/.journal.jsonl.memscope-99-4":            "{}",
		".hidden.md":                                        "not ours",
		"a.memscope-1.md":                                   "not hidden: not ours",
		".a.md.memscope-12-draft":                           "not a name memscope gives",
	})
	for _, d := range []string{".trash/20261122-101010", ".archive/notes"} {
		if err := os.MkdirAll(filepath.Join(f.mem, filepath.FromSlash(d)), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	old := f.now.Add(-time.Hour)
	os.Chtimes(filepath.Join(f.mem, ".old.md.memscope-777"), old, old)
	// A restore of session s1 wrote src/main.go and was killed.
	enginetest.WriteTree(t, f.src, map[string]string{
		"main.go":                  "package main",
		".main.go.memscope-99-31":  "restored content, never renamed",
		".other.go.memscope-99-32": "beside a file no restore wrote",
	})
	e := journal.Entry{ID: "r1", Time: f.now, Op: "restore", Summary: "rewind s1", Pending: true,
		Files: []journal.File{{Path: strings.TrimPrefix(filepath.ToSlash(filepath.Join(f.src, "main.go")), "/"), Existed: true, Before: []byte("package old")}}}
	line, _ := json.Marshal(e)
	jn := filepath.Join(f.home, filepath.FromSlash(filehist.RestoreJournal("s1")))
	enginetest.WriteTree(t, filepath.Dir(jn), map[string]string{"journal.jsonl": string(line) + "\n", ".journal.jsonl.memscope-99-8": "half a journal"})
	return f
}

func (f fixture) find(t *testing.T, busy func(string) bool) Report {
	return Find(Input{Root: testroot.New(t), HomeDir: f.home, Now: f.now, Alive: alive, Busy: busy})
}

func rels(base string, items []Item) []string {
	var out []string
	for _, it := range items {
		r, _ := filepath.Rel(base, it.Path)
		out = append(out, filepath.ToSlash(r))
	}
	slices.Sort(out)
	return out
}

// With a change under way in the memory folder (its journal lock held),
// the running writer's copies and the empty folders are not leftovers;
// everything a gone writer left, old unnamed copies, and copies beside
// the files a pending restore wrote are, and nothing else is.
func TestFindWhileAChangeRuns(t *testing.T) {
	f := newFixture(t)
	memJournal := filepath.Join(f.mem, filepath.FromSlash(journal.Path))
	rep := f.find(t, func(j string) bool { return j == memJournal })
	got := rels(filepath.Dir(f.home), rep.Items)
	want := []string{
		"home/.memscope/file-history/s1/.journal.jsonl.memscope-99-8",
		"home/projects/-p/memory/..a.md.memscope-99-stage-1.memscope-99-7",
		"home/projects/-p/memory/.a.md.memscope-99-123",
		"home/projects/-p/memory/.memscope-99-probe-1",
		"home/projects/-p/memory/.memscope/.journal.jsonl.memscope-99-4",
		"home/projects/-p/memory/.old.md.memscope-777",
		"home/projects/-p/memory/.trash/20261120-101010/.b.md.memscope-99-remove-2",
		"src/.main.go.memscope-99-31",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("leftovers\n%q\nwant\n%q", got, want)
	}
	// In flight: two copies and a probe of the running writer, the young
	// unnamed copy, the five folders that hold nothing but leftovers
	// (.archive/ holds only an empty folder; .memscope/ and a deletion's
	// folder only a gone writer's copy).
	if rep.InFlight != 9 {
		t.Errorf("in flight %d, want 9", rep.InFlight)
	}
	for _, it := range rep.Items {
		switch filepath.Base(it.Path) {
		case "..a.md.memscope-99-stage-1.memscope-99-7", ".a.md.memscope-99-123":
			if it.Of != filepath.Join(f.mem, "a.md") || it.Kind != KindCopy || !strings.Contains(it.What(), "a copy of "+filepath.Join(f.mem, "a.md")) {
				t.Errorf("%s: of %q, kind %s, %q", it.Path, it.Of, it.Kind, it.What())
			}
		case ".main.go.memscope-99-31":
			if it.Of != filepath.Join(f.src, "main.go") || !strings.Contains(it.Why, "restore (session s1)") || !strings.Contains(it.Why, "process 99, gone") {
				t.Errorf("%s: of %q, why %q", it.Path, it.Of, it.Why)
			}
		case ".memscope-99-probe-1":
			if it.Kind != KindProbe {
				t.Errorf("%s: kind %s", it.Path, it.Kind)
			}
		}
	}
	if len(rep.Interrupted) != 1 || rep.Interrupted[0].ID != "r1" || rep.Interrupted[0].Session != "s1" {
		t.Errorf("interrupted %+v, want restore r1 of s1", rep.Interrupted)
	}
}

// With no change under way, a running memscope's copies are leftovers
// too (no write of it is using them: the lock is free), and so are the
// empty folders a change made; a probe of a running process is not.
func TestFindWhenNoChangeRuns(t *testing.T) {
	f := newFixture(t)
	rep := f.find(t, func(string) bool { return false })
	got := rels(f.mem, rep.Items)
	for _, w := range []string{".a.md.memscope-4242-5", ".a.md.memscope-4242-stage-3", ".trash/20261122-101010", ".archive/notes", ".archive"} {
		if !slices.Contains(got, w) {
			t.Errorf("%s not found: %q", w, got)
		}
	}
	for _, no := range []string{".memscope-4242-probe-2", ".new.md.memscope-888", ".trash/20261121-101010", ".trash", ".hidden.md", "a.memscope-1.md", ".a.md.memscope-12-draft"} {
		if slices.Contains(got, no) {
			t.Errorf("%s taken for a leftover", no)
		}
	}
	for _, it := range rep.Items {
		if strings.HasSuffix(it.Path, "4242-5") && !strings.Contains(it.Why, "process 4242, no longer writing") {
			t.Errorf("why %q", it.Why)
		}
	}
}

// Remove deletes what Find listed, checking each again: a copy whose
// writer started a change since, a folder written into since and a path
// that is not memscope's are left, with the reason.
func TestRemove(t *testing.T) {
	f := newFixture(t)
	rep := f.find(t, func(string) bool { return false })
	// Since Find: the running memscope began a change; a deletion went
	// into the empty trash folder.
	memJournal := filepath.Join(f.mem, filepath.FromSlash(journal.Path))
	busyNow := func(j string) bool { return j == memJournal }
	if err := os.WriteFile(filepath.Join(f.mem, ".trash/20261122-101010/c.md"), []byte("c"), 0o600); err != nil {
		t.Fatal(err)
	}
	items := append(rep.Items, Item{Path: filepath.Join(f.mem, "a.md"), Kind: KindCopy})
	done, err := Remove(model.OSWriteFS{}, items, alive, busyNow)
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]string{}
	for _, d := range done {
		_, statErr := os.Lstat(d.Path)
		if d.Skipped == "" && statErr == nil {
			t.Errorf("%s reported removed but is there", d.Path)
		}
		if d.Skipped != "" {
			skipped[filepath.Base(d.Path)] = d.Skipped
			if statErr != nil {
				t.Errorf("%s skipped (%s) but gone", d.Path, d.Skipped)
			}
		}
	}
	want := map[string]string{
		".a.md.memscope-4242-5":       "process 4242 is writing now",
		".a.md.memscope-4242-stage-3": "process 4242 is writing now",
		"20261122-101010":             "a change is under way there",
		"notes":                       "a change is under way there",
		".archive":                    "a change is under way there",
		".memscope":                   "a change is under way there",
		"20261120-101010":             "a change is under way there",
		"a.md":                        "not a name memscope gives its copies",
	}
	for k, v := range want {
		if skipped[k] != v {
			t.Errorf("%s: skipped %q, want %q", k, skipped[k], v)
		}
	}
	if len(skipped) != len(want) {
		t.Errorf("skipped %v, want %v", skipped, want)
	}
	// The user's files are all there.
	for _, p := range []string{"a.md", "MEMORY.md", ".hidden.md", "a.memscope-1.md", ".trash/20261121-101010/b.md"} {
		if _, err := os.Stat(filepath.Join(f.mem, p)); err != nil {
			t.Errorf("user file %s: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(f.src, "main.go")); err != nil {
		t.Error(err)
	}
	// Once the change is done, the next look finds the rest and removes
	// it; then nothing is left.
	rep = f.find(t, func(string) bool { return false })
	if _, err := Remove(model.OSWriteFS{}, rep.Items, alive, func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if again := f.find(t, func(string) bool { return false }); len(again.Items) != 0 {
		t.Fatalf("left after removing: %q", rels(f.home, again.Items))
	}
}

// A change killed after taking the journal lock and before writing its
// entry leaves the lock file (and the folders made for it) with no
// journal: found, removed, and nothing of memscope's is left. A journal
// that holds a change keeps its lock.
func TestFindLockWithoutJournal(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	mem := filepath.Join(home, "projects", "-p", "memory")
	kept := filepath.Join(home, "projects", "-q", "memory")
	enginetest.WriteTree(t, home, map[string]string{
		"projects/-p/memory/MEMORY.md":               "- [A](a.md) — a\n",
		"projects/-p/memory/.memscope/journal.lock":  "",
		".memscope/file-history/s2/journal.lock":     "",
		"projects/-q/memory/.memscope/journal.lock":  "",
		"projects/-q/memory/.memscope/journal.jsonl": "{\"id\":\"x\"}\n",
		"projects/-q/memory/MEMORY.md":               "",
	})
	in := Input{Root: testroot.New(t), HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }}
	rep := Find(in)
	got := rels(home, rep.Items)
	want := []string{".memscope", ".memscope/file-history", ".memscope/file-history/s2", ".memscope/file-history/s2/journal.lock",
		"projects/-p/memory/.memscope", "projects/-p/memory/.memscope/journal.lock"}
	if !slices.Equal(got, want) {
		t.Fatalf("found %q, want %q", got, want)
	}
	if _, err := Remove(model.OSWriteFS{}, rep.Items, alive, func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{filepath.Join(home, ".memscope"), filepath.Join(mem, ".memscope")} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(kept, ".memscope", "journal.lock")); err != nil {
		t.Errorf("the lock of a journal with a change was removed: %v", err)
	}
}

// A memory folder that is a link (outside the home) is not searched:
// memscope never writes through one, and nothing is removed through one.
func TestFindSkipsALinkedMemoryFolder(t *testing.T) {
	base := t.TempDir()
	home, outside := filepath.Join(base, "home"), filepath.Join(base, "outside")
	enginetest.WriteTree(t, outside, map[string]string{".x.md.memscope-99-1": "looks like a copy"})
	if err := os.MkdirAll(filepath.Join(home, "projects", "-p"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(home, "projects", "-p", "memory")); err != nil {
		t.Fatal(err)
	}
	rep := Find(Input{Root: testroot.New(t), HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }})
	if len(rep.Items) != 0 {
		t.Fatalf("found through the link: %q", rels(base, rep.Items))
	}
}

// A deletion of a memory in a subfolder makes .trash/<time>/<subfolder>/;
// killed before its file moved there, it leaves both folders empty: both
// are leftovers (the folders a change makes are store.IsOwnFolder's), and
// once removed nothing of the change is left. A subfolder of the user's
// outside the trash is never one, empty or not.
func TestFindNestedTrashFolder(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	mem := filepath.Join(home, "projects", "-p", "memory")
	enginetest.WriteTree(t, mem, map[string]string{"MEMORY.md": "- [N](notes/n.md) — n\n", "notes/n.md": "n"})
	for _, d := range []string{".trash/20261122-101010/notes", "drafts"} {
		if err := os.MkdirAll(filepath.Join(mem, filepath.FromSlash(d)), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	in := Input{Root: testroot.New(t), HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }}
	rep := Find(in)
	got := rels(mem, rep.Items)
	want := []string{".trash", ".trash/20261122-101010", ".trash/20261122-101010/notes"}
	if !slices.Equal(got, want) {
		t.Fatalf("found %q, want %q", got, want)
	}
	if _, err := Remove(model.OSWriteFS{}, rep.Items, alive, func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(mem, ".trash")); err == nil {
		t.Error(".trash is still there")
	}
	for _, p := range []string{"drafts", "notes/n.md"} {
		if _, err := os.Lstat(filepath.Join(mem, p)); err != nil {
			t.Errorf("the user's %s: %v", p, err)
		}
	}
}

// A killed scrub's copies anywhere in the home (beside a transcript, a
// paste, history.jsonl; a scrub copy's temporary manifest) are found by
// the one search, counted, and removed; one whose writer still runs is
// in flight and stays; the user's hidden files are never taken.
func TestFindEveryHiddenCopyInTheHome(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	gone := map[string]string{
		"projects/-p/.s.jsonl.memscope-99-stage-2":                            "the transcript as it was",
		"projects/-p/..s.jsonl.memscope-99-stage-2.memscope-99-5":             "its temporary file",
		"paste-cache/.abc.txt.memscope-99-remove-1":                           "a paste",
		".history.jsonl.memscope-99-stage-1":                                  "history",
		".memscope/scrub/20261124-120000-abcdef/.manifest.json.memscope-99-1": "{}",
	}
	files := map[string]string{
		"projects/-p/s.jsonl":                        "{}\n",
		"projects/-p/.s.jsonl.memscope-4242-stage-3": "a running scrub's",
		".hidden":                                "the user's",
		"paste-cache/.abc.txt.memscope-12-draft": "not a name memscope gives",
	}
	for k, v := range gone {
		files[k] = v
	}
	enginetest.WriteTree(t, home, files)
	in := Input{Root: testroot.New(t), HomeDir: home, Now: time.Now(), Alive: alive, Busy: func(string) bool { return false }}
	rep := Find(in)
	var got []string
	for _, it := range rep.Items {
		if it.Kind == KindCopy {
			rel, _ := filepath.Rel(home, it.Path)
			got = append(got, filepath.ToSlash(rel))
		}
	}
	var want []string
	for k := range gone {
		want = append(want, k)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("found %v\nwant %v", got, want)
	}
	if rep.InFlight != 1 {
		t.Errorf("in flight %d, want 1 (the running scrub's staged file)", rep.InFlight)
	}
	if n := Count(in); n != len(rep.Items) {
		t.Errorf("Count = %d, Find found %d", n, len(rep.Items))
	}
	if _, err := Remove(model.OSWriteFS{}, rep.Items, alive, func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	for k := range gone {
		if _, err := os.Lstat(filepath.Join(home, k)); !os.IsNotExist(err) {
			t.Errorf("%s not removed: %v", k, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(home, "projects/-p/.s.jsonl.memscope-4242-stage-3")); err != nil {
		t.Errorf("the running scrub's file was removed: %v", err)
	}
}
