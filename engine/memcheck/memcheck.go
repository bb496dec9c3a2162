// Package memcheck assembles what a memory folder's checks run on: lint's
// input (the folder as a store read it, the project's folder for drift,
// what the sessions loaded, memscope's leftovers) and the prune plan's
// facts. `memscope lint`, `memscope prune` and the TUI's open-project
// load all call it, so the Health pane and the CLI check the same things.
package memcheck

import (
	"io/fs"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// Request is one memory folder, read, and where it sits.
type Request struct {
	// Memory and Problems are the folder as it was read (a store's
	// Memory and Problems, or model.ReadMemoryDir's).
	Memory   *model.MemoryDir
	Problems []model.Problem
	// MemoryFS is the folder itself, for lint's byte-level checks; nil
	// leaves them out.
	MemoryFS fs.FS
	// MemoryDir is the folder's absolute path (leftovers are looked for
	// in it).
	MemoryDir string
	// Root is the machine's file system from "/" (model.RootName names);
	// ProjectDir the project's folder on it ("" unknown: drift is not
	// checked), HomeDir the Claude home ("" none: no journals there).
	Root       fs.FS
	ProjectDir string
	HomeDir    string
	// Unstamped says the client does not stamp this folder (agent
	// memory).
	Unstamped bool
	Now       time.Time
	Staleness memindex.StalenessThresholds
	// Loads is what the transcripts say the sessions loaded (nil: not
	// read).
	Loads *loads.Report
	// Memo keeps lint's per-file work from the folder's last check (nil:
	// none).
	Memo *lint.Memo
	// Walk keeps the leftover search's walk of the home between checks
	// (nil: each check walks it); its owner hands it the home's change
	// events (leftover.WalkCache).
	Walk *leftover.WalkCache
	// Listed is the home listed once for the readers of this moment
	// (leftover.Input.Listed; nil: none).
	Listed fs.FS
}

// Inputs are lint's input and the leftovers found on the way (the Health
// pane lists them; `memscope lint --remove-leftovers` removes them).
type Inputs struct {
	Lint      lint.Input
	Leftovers leftover.Report
}

// Assemble builds lint's input for the folder.
func Assemble(r Request) Inputs {
	in := lint.Input{Memory: r.Memory, Problems: r.Problems, MemoryFS: r.MemoryFS, Unstamped: r.Unstamped, Now: r.Now, Staleness: r.Staleness, Memo: r.Memo}
	if r.ProjectDir != "" && r.Root != nil {
		name := model.RootName(filepath.ToSlash(r.ProjectDir))
		if st, err := fs.Stat(r.Root, name); err == nil && st.IsDir() {
			in.Project, _ = fs.Sub(r.Root, name)
		}
	}
	if r.Loads != nil {
		in.Loads = r.Loads.LintFacts()
	}
	// memscope's own leftovers, wherever it writes: in the folder, and
	// beside the files its restores wrote (the home's journals).
	found := leftover.Find(leftover.Input{Root: r.Root, HomeDir: r.HomeDir, MemoryDirs: []string{r.MemoryDir}, Now: r.Now, Walk: r.Walk, Listed: r.Listed})
	in.Leftovers = leftover.LintCopies(found.Items, r.MemoryDir)
	in.Interrupted = leftover.LintInterrupted(r.HomeDir, found.Interrupted)
	return Inputs{Lint: in, Leftovers: found}
}

// Prune completes a prune plan's options with the request's facts: the
// loads (a memory the sessions loaded lately is not stale), lint's
// near-duplicate index when a memo keeps one, and whether the folder is
// stamped.
func Prune(po store.PruneOptions, r Request) store.PruneOptions {
	if r.Loads != nil {
		if ml := r.Loads.MemoryLoads(); ml != nil {
			po.LoadsSince, po.LastLoaded = ml.Since, ml.Last
		}
	}
	if r.Memo != nil {
		po.Dupes = r.Memo.Dupes()
	}
	po.Unstamped = po.Unstamped || r.Unstamped
	return po
}
