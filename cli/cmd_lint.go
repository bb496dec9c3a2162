package cli

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:    "lint",
		usage:   "memscope lint [--home DIR] [--demo] [--project PATH] [--json]",
		summary: "check a project's memory: index cap, dangling links, orphans, frontmatter, types, size, [[links]], duplicates, staleness, drift, secrets and injections (exit 1 on errors)",
		run:     runLint,
	})
}

// memoryTarget is a project's memory folder opened for reading and
// writing, and the project tree drift is checked against.
type memoryTarget struct {
	loc     model.MemoryLocation
	store   *memstore.Store
	project string
	// tree is the project's root for drift: the git root, else the folder.
	tree string
	// root is the file system the project tree is read from (opened.root).
	root fs.FS
	// close lets go of a home opened with the target (a materialized demo
	// is removed).
	close func()
}

// openProjectMemory opens the home named by hf and the memory of project
// in it (see openMemory). Call close on the target when done.
func openProjectMemory(e *env, hf *homeFlags, project string) (*memoryTarget, error) {
	o, err := e.openHome(hf)
	if err != nil {
		return nil, err
	}
	t, err := openMemory(e, o, project)
	if err != nil {
		o.close()
		return nil, err
	}
	t.close = o.close
	return t, nil
}

// openMemory resolves the memory folder of project (default: the current
// folder, or the demo's main project) the way the client does and opens a
// store on it. The home stays o's to close.
func openMemory(e *env, o *opened, project string) (*memoryTarget, error) {
	if project == "" {
		project = o.defaultProject(e)
	}
	abs, err := absFrom(e, project)
	if err != nil {
		return nil, err
	}
	root := o.root
	userHome, _ := e.userHome()
	settings, _ := model.LoadSettings(root, o.home.Dir, abs, model.ManagedDir)
	loc := model.ResolveMemoryLocation(model.MemoryOptions{
		Root: root, HomeDir: o.home.Dir, UserHome: userHome, StartDir: abs, Getenv: e.getenv, Settings: settings,
	})
	store, _ := memstore.Open(loc.Dir, memstore.DirFSWith(loc.Dir, e.writes))
	t := &memoryTarget{loc: loc, store: store, project: abs, tree: abs, root: root, close: func() {}}
	if loc.Git.Root != "" {
		t.tree = loc.Git.Root
	}
	return t, nil
}

// lintInput is the lint input for the target's memory as the store read it.
func (t *memoryTarget) lintInput(e *env, th memindex.StalenessThresholds) lint.Input {
	in := lint.Input{
		Memory:   t.store.Memory(),
		Problems: t.store.Problems(),
		// The memory folder is read where the store reads and writes it.
		MemoryFS:  os.DirFS(t.loc.Dir),
		Now:       e.now(),
		Staleness: th,
	}
	if tree, err := fs.Sub(t.root, model.RootName(filepath.ToSlash(t.tree))); err == nil {
		in.Project = tree
	}
	return in
}

// lintOutput is `memscope lint --json`.
type lintOutput struct {
	MemoryDir string `json:"memoryDir"`
	Project   string `json:"project"`
	lint.Report
}

func runLint(e *env, args []string) int {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "project folder (default: the current folder)")
	stale := fs.String("stale", "", "staleness thresholds, e.g. project=2:14,user=90:365")
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlags(e, fs, args) {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "memscope lint: %v\n", err)
		return 1
	}
	th, err := memindex.ParseStaleness(*stale)
	if err != nil {
		return fail(err)
	}
	t, err := openProjectMemory(e, hf, *project)
	if err != nil {
		return fail(err)
	}
	defer t.close()
	rep := lint.Run(t.lintInput(e, th))
	if *asJSON {
		if err := writeJSON(e.stdout, lintOutput{MemoryDir: t.loc.Dir, Project: t.project, Report: rep}); err != nil {
			return fail(err)
		}
	} else {
		printLint(humanOutput(e.stdout), t, rep)
	}
	if rep.HasErrors() {
		return 1
	}
	return 0
}

func printLint(w io.Writer, t *memoryTarget, r lint.Report) {
	fmt.Fprintf(w, "memory  %s (%s)\n", t.loc.Dir, t.loc.Reason)
	if !t.loc.Enabled {
		fmt.Fprintf(w, "        auto memory is off here (%s): the client neither reads nor writes this folder\n", t.loc.SwitchReason)
	}
	if !t.store.Memory().Exists {
		fmt.Fprintln(w, "        no memory folder yet: nothing to check")
	}
	for _, f := range r.Findings {
		where := f.Path
		if where == "" {
			where = "."
		}
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", where, f.Line)
		}
		fmt.Fprintf(w, "%s: %s %s: %s\n", model.SanitizeLine(where), f.Severity, f.Kind, model.SanitizeLine(f.Message))
	}
	fmt.Fprintf(w, "%d errors, %d warnings, %d notes\n", r.Errors, r.Warnings, r.Infos)
}
