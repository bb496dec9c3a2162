package cli

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// A killed restore leaves the atomic writer's copy beside the file it
// wrote, in the user's project tree; a killed prune leaves a staged copy
// in the memory folder. lint finds both (the first through the restore
// journal that names the file) and says what each copies;
// --remove-leftovers deletes them and nothing else.
func TestLintFindsAndRemovesLeftovers(t *testing.T) {
	e, out, errb := testEnv(t)
	base := t.TempDir()
	home, project := filepath.Join(base, "home"), filepath.Join(base, "proj")
	mem := filepath.Join(home, "projects", model.Slug(project), "memory")
	target := filepath.Join(project, "main.go")
	old := time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC) // an hour before testEnv's now
	sum := sha256.Sum256([]byte("package main // v2\n"))
	entry := fmt.Sprintf(`{"id":"r1","time":"2026-11-22T10:00:00Z","op":"restore","summary":"restore main.go","files":[{"path":%q,"existed":true,"before":%q,"after":%q}]}`,
		strings.TrimPrefix(filepath.ToSlash(target), "/"), base64.StdEncoding.EncodeToString([]byte("package main\n")), hex.EncodeToString(sum[:]))
	files := map[string]string{
		filepath.Join(mem, "MEMORY.md"):                                         "- [Note](note.md) — a note\n",
		filepath.Join(mem, "note.md"):                                           "---\nname: note\ndescription: a note\ntype: project\n---\n\nNote.\n",
		filepath.Join(mem, ".note.md.memscope-stage-7-4242"):                    "half a prune",
		filepath.Join(home, ".memscope", "file-history", "s1", "journal.jsonl"): entry + "\n",
		target: "package main // v2\n",
		filepath.Join(project, ".main.go.memscope-123456"): "package main // v2\n",
		filepath.Join(project, ".other.go.memscope-1"):     "not named by any journal",
		// Named with their writers' pids: one long gone, one this process,
		// which is writing nothing (its journal lock is free). Both are
		// found at once, whatever their age.
		filepath.Join(mem, ".note.md.memscope-99999999-stage-1"):                 "a killed prune's staged copy",
		filepath.Join(mem, ".note.md.memscope-"+strconv.Itoa(os.Getpid())+"-77"): "a failed write's temporary file",
		filepath.Join(mem, ".trash", "20261122-100000", ".keep"):                 "",
	}
	// The copies named with their writers' pids keep their times: found
	// at once, whatever their age. (Matched whole: a test process whose
	// pid is part of another name, 23456 in .main.go.memscope-123456,
	// left that copy new, so lint took it for a write under way.)
	young := map[string]bool{
		filepath.Join(mem, ".note.md.memscope-99999999-stage-1"):                 true,
		filepath.Join(mem, ".note.md.memscope-"+strconv.Itoa(os.Getpid())+"-77"): true,
	}
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if !young[p] {
			os.Chtimes(p, old, old)
		}
	}
	// An empty deletion folder a failed prune made.
	if err := os.Remove(filepath.Join(mem, ".trash", "20261122-100000", ".keep")); err != nil {
		t.Fatal(err)
	}
	delete(files, filepath.Join(mem, ".trash", "20261122-100000", ".keep"))
	// While a change runs in the memory folder (its lock held), this
	// process's copy may be in use: not reported.
	held := journal.Acquire(filepath.Join(mem, filepath.FromSlash(journal.Path)))
	run(e, []string{"lint", "--home", home, "--project", project})
	held.Release(false)
	if strings.Contains(out.String(), "-77:") || !strings.Contains(out.String(), "belong to a memscope writing now") || strings.Contains(out.String(), "20261122-100000") {
		t.Errorf("lint during a change reports its copy or its folder:\n%s", out)
	}
	e, out, errb = testEnv(t)
	code := run(e, []string{"lint", "--home", home, "--project", project})
	for _, want := range []string{
		filepath.Join(project, ".main.go.memscope-123456") + ": warning leftover-copy: a copy of " + target,
		".note.md.memscope-stage-7-4242: warning leftover-copy: a copy of note.md",
		".note.md.memscope-99999999-stage-1: warning leftover-copy: a copy of note.md (28 B) left by an interrupted memscope write (process 99999999, gone)",
		".note.md.memscope-" + strconv.Itoa(os.Getpid()) + "-77: warning leftover-copy: a copy of note.md",
		".trash/20261122-100000: warning leftover-copy: an empty folder made by a memscope change",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("lint (exit %d) does not report %q:\n%s%s", code, want, out, errb)
		}
	}
	if strings.Contains(out.String(), ".other.go") {
		t.Error("lint reports a file no restore journal names")
	}
	e, out, errb = testEnv(t)
	run(e, []string{"lint", "--home", home, "--project", project, "--remove-leftovers"})
	if _, err := os.Stat(filepath.Join(mem, ".trash", "20261122-100000")); err == nil {
		t.Error("the empty deletion folder was not removed")
	}
	for p := range files {
		_, err := os.Stat(p)
		gone := strings.Contains(filepath.Base(p), ".memscope-") && !strings.Contains(p, ".other.go")
		if gone != (err != nil) {
			t.Errorf("%s: removed %v, want %v (%s%s)", p, err != nil, gone, out, errb)
		}
	}
	if !strings.Contains(out.String(), "removed leftover "+filepath.Join(project, ".main.go.memscope-123456")) {
		t.Errorf("lint --remove-leftovers does not say what it removed:\n%s", out)
	}
}

// On hostilehome's leftovers home (what killed and failed writes leave),
// lint names every leftover, --remove-leftovers removes them all and the
// folders they leave empty, and nothing of the user's changes: not the
// memory files, not the project tree the pending restore names.
func TestLintCleansTheLeftoversHome(t *testing.T) {
	e, out, errb := testEnv(t)
	base := t.TempDir()
	home := filepath.Join(base, "home")
	res, err := hostilehome.Write(home, hostilehome.Leftovers, hostilehome.Options{Outside: filepath.Join(base, "project")})
	if err != nil {
		t.Fatal(err)
	}
	user := testenv.Files(t, filepath.Join(home, filepath.FromSlash(res.MemoryDir)))
	args := []string{"lint", "--home", home, "--project", res.Project}
	run(e, args)
	for _, l := range res.Leftovers {
		rel, _ := filepath.Rel(filepath.Join(home, filepath.FromSlash(res.MemoryDir)), l)
		if !strings.Contains(out.String(), l+": warning leftover-copy") && !strings.Contains(out.String(), filepath.ToSlash(rel)+": warning leftover-copy") {
			t.Errorf("lint does not name %s:\n%s%s", l, out, errb)
		}
	}
	if !strings.Contains(out.String(), "interrupted-change") || !strings.Contains(out.String(), "files "+res.SessionID+" --undo") {
		t.Errorf("lint does not report the pending restore:\n%s", out)
	}
	e, out, errb = testEnv(t)
	run(e, append(args, "--remove-leftovers"))
	for _, l := range res.Leftovers {
		if _, err := os.Lstat(l); err == nil {
			t.Errorf("%s is still there after --remove-leftovers:\n%s%s", l, out, errb)
		}
	}
	if left := ownLeftovers([]string{home, filepath.Join(base, "project")}); len(left) > 0 {
		t.Errorf("left after --remove-leftovers: %q", left)
	}
	for p, sum := range res.Targets {
		data, err := os.ReadFile(p)
		if got := sha256.Sum256(data); err != nil || hex.EncodeToString(got[:]) != sum {
			t.Errorf("the user's %s changed (%v)", p, err)
		}
	}
	after := testenv.Files(t, filepath.Join(home, filepath.FromSlash(res.MemoryDir)))
	for p, c := range user {
		if _, own := model.ParseOwnCopy(filepath.Base(p)); !own && after[p] != c {
			t.Errorf("memory file %s changed", p)
		}
	}
}

// ownLeftovers lists memscope's copies and its empty folders under the
// roots.
func ownLeftovers(roots []string) []string {
	var out []string
	for _, r := range roots {
		filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if _, own := model.ParseOwnCopy(d.Name()); own {
				out = append(out, p)
			}
			if d.IsDir() && (strings.Contains(p, "/"+store.TrashDir) || strings.Contains(p, "/"+store.ArchiveDir) || d.Name() == ".memscope") {
				if ents, _ := os.ReadDir(p); len(ents) == 0 {
					out = append(out, p+"/ (empty)")
				}
			}
			return nil
		})
	}
	return out
}
