package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/projectmem"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// memoryTarget is a project's memory folder opened for reading and
// writing, and the project tree drift is checked against.
type memoryTarget struct {
	// loc is where the memory folder is and why: the project's auto
	// memory, or (with --agent) an agent's folder, Dir and Reason set
	// from the store.
	loc model.MemoryLocation
	// kind is the store: auto memory, or an agent's.
	kind    model.MemoryStore
	store   *memstore.Store
	project string
	// tree is the project's root for drift: the git root, else the folder.
	tree string
	// root is the file system the project tree is read from (opened.root).
	root fs.FS
	// close lets go of a home opened with the target (a materialized demo
	// is removed).
	close func()
	// home is the Claude home the memory was resolved in; opened is it as
	// opened (nil for a target opened from one another command holds).
	home   *model.Home
	opened *opened
	// env is the world the target was opened in, for the engine's
	// assembly of its inputs (projectmem).
	env projectmem.Env
}

// engine is the target as engine/projectmem holds it: lint's, loads'
// and provenance's inputs are assembled there, for the commands and the
// Overview alike.
func (t *memoryTarget) engine() *projectmem.Target {
	return &projectmem.Target{Env: t.env, Project: t.project, Tree: t.tree, Loc: t.loc, Kind: t.kind, Store: t.store}
}

// agentFlagUsage says what --agent selects, for every memory command.
const agentFlagUsage = "an agent's memory instead of the project's: `NAME`, or NAME@user|project|local when it has several (memscope stat lists them)"

// addAgentFlag adds --agent to a memory command's flags.
func addAgentFlag(fs *flag.FlagSet, agent *string) {
	fs.StringVar(agent, "agent", "", agentFlagUsage)
}

// documents are the stores of the folders of the files the project's
// prompt reads (CLAUDE.md, rules) and of its settings files that have a journal: a save from the
// app's Prompt pane is journaled there (memstore.OpenDocument), and undo
// takes it back in turn with the memory's changes.
func (t *memoryTarget) documents(e *env) []*memstore.Store {
	p := t.env.Preview(t.project, nil)
	// The folders of the settings files hooks install changes.
	folders := map[string]bool{t.home.Dir: true, filepath.Join(t.project, ".claude"): true}
	for _, l := range p.Layers {
		if l.Path != "" {
			folders[filepath.Dir(l.Path)] = true
		}
	}
	return memstore.OpenDocuments(t.home.Dir, e.writer(), func(f string) bool { return folders[f] })
}

// openProjectMemory opens the home named by hf and the memory of project
// in it (see openMemory): its auto memory, or with agent ("" for none)
// that agent's. Call close on the target when done.
func openProjectMemory(e *env, hf *homeFlags, project, agent string) (*memoryTarget, error) {
	o, err := e.openHome(hf)
	if err != nil {
		return nil, err
	}
	t, err := openMemory(e, o, project)
	if err == nil && agent != "" {
		err = t.selectAgent(e, agent)
	}
	if err != nil {
		o.close()
		return nil, err
	}
	t.close = o.close
	t.opened = o
	return t, nil
}

// selectAgent points the target at the agent memory store sel names
// (model.MemoryStore.Matches), found the client's way for the project
// (model.FindAgentStores). No match, or a name with stores in several
// scopes, is a usage error that lists what there is.
func (t *memoryTarget) selectAgent(e *env, sel string) error {
	stores := t.agentStores()
	var match []model.MemoryStore
	var all []string
	for _, s := range stores {
		all = append(all, s.ID())
		if s.Matches(sel) {
			match = append(match, s)
		}
	}
	switch {
	case len(match) == 1:
	case len(match) == 0 && len(all) == 0:
		return badUsagef("--agent %s: no agent memory for %s (no agent definition with memory: user|project|local, and no agent-memory folder)", sel, t.project)
	case len(match) == 0:
		return badUsagef("--agent %s: no such agent memory for %s; there is %s", sel, t.project, strings.Join(all, ", "))
	default:
		ids := make([]string, len(match))
		for i, s := range match {
			ids[i] = s.ID()
		}
		return badUsagef("--agent %s has memory in several scopes: %s; name one", sel, strings.Join(ids, ", "))
	}
	s := match[0]
	t.kind = s
	why := "memory of agent " + s.Agent + ", " + model.AgentScopeLabel(s.Scope) + "; "
	if s.Definition != "" {
		why += "declared in " + s.Definition
	} else {
		why += "no agent definition declares it"
	}
	t.loc = model.MemoryLocation{Dir: s.Dir, Rule: model.MemoryRuleAgent, Reason: why, Git: t.loc.Git, Enabled: true,
		Switch: model.SwitchDefault, SwitchReason: "agent memory loads whenever the agent runs"}
	t.store, _ = memstore.Open(s.Dir, memstore.DirFSIn(t.home.Dir, s.Dir, e.writes))
	t.store.Unstamped()
	return nil
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
	pe := projectEnv(e, o.root, o.home)
	pt := pe.Open(abs)
	t := &memoryTarget{loc: pt.Loc, kind: pt.Kind, store: pt.Store, project: abs, tree: pt.Tree, root: o.root, close: func() {}, home: o.home, env: pe}
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

// agentStores are the project's agent memory stores, found the client's
// way (model.FindAgentStores).
func (t *memoryTarget) agentStores() []model.MemoryStore {
	return t.engine().AgentStores()
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
