package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/memscope/memscope/engine/preview"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

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
	// home is the Claude home the memory was resolved in.
	home *model.Home
}

// documents are the stores of the folders of the files the project's
// prompt reads (CLAUDE.md, rules) that have a journal: a save from the
// app's Prompt pane is journaled there (memstore.OpenDocument), and undo
// takes it back in turn with the memory's changes.
func (t *memoryTarget) documents(e *env) []*memstore.Store {
	p := preview.Build(previewOptions(e, t.root, t.home, t.project))
	folders := map[string]bool{}
	for _, l := range p.Layers {
		if l.Path != "" {
			folders[filepath.Dir(l.Path)] = true
		}
	}
	return memstore.OpenDocuments(t.home.Dir, e.writer(), func(f string) bool { return folders[f] })
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
	t := &memoryTarget{loc: loc, store: store, project: abs, tree: abs, root: root, close: func() {}, home: o.home}
	if loc.Git.Root != "" {
		t.tree = loc.Git.Root
	}
	return t, nil
}

// openSessionMemory opens the memory folder a session's memories belong
// to (extract, compact --flush): that of project when given, else of the
// session's startup folder (its first cwd), resolved the client's way
// (git root, worktrees, overrides). The home is the one the session was
// found in, else the usual one; the returned func releases a home opened
// here.
func openSessionMemory(e *env, hf *homeFlags, sf *sessionFile, tr *model.Transcript, project string) (*memoryTarget, func(), error) {
	o, done := sf.home, func() {}
	if o == nil {
		var err error
		if o, err = e.openHome(hf); err != nil {
			return nil, nil, err
		}
		done = o.close
	}
	if project == "" {
		project = tr.Summary.CWD
	}
	if project == "" {
		done()
		return nil, nil, fmt.Errorf("%s names no startup folder (cwd); pass --project", sf.disk)
	}
	t, err := openMemory(e, o, project)
	if err != nil {
		done()
		return nil, nil, err
	}
	return t, done, nil
}

// withForceHint adds to a write the security scan blocked how to make it
// anyway: the command's --force.
func withForceHint(err error) error {
	var blocked *memstore.ScanBlockedError
	if errors.As(err, &blocked) {
		return fmt.Errorf("%w (--force writes it anyway)", err)
	}
	return err
}
