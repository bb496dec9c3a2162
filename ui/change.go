package ui

import (
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
)

// change is what a batch of file events invalidates: each store is
// reloaded only when a file it reads changed.
type change struct {
	// all reloads everything (ctrl+r, or an event about the home itself).
	all bool
	// projects: a project folder came or went; the project list is read
	// again.
	projects bool
	// history: history.jsonl changed; what was appended is read.
	history bool
	// pastes: a paste folder changed.
	pastes bool
	// prompt: settings or CLAUDE.md changed; the prompt preview is
	// built again.
	prompt bool
	// sessions holds the sessions whose transcripts changed.
	sessions map[sessionKey]bool
	// memory holds the projects whose memory folder changed.
	memory map[string]bool
	// lazy: a file only the lazily read panes (Retention, Files) read
	// changed.
	lazy bool
	// names are the changed files inside the home (slash-separated,
	// relative to it), which the lazily read panes look at again one by
	// one where they can (lazyChange).
	names map[string]bool
}

// sessionKey names one session of one project.
type sessionKey = feed.SessionKey

// empty reports a change that reloads nothing.
func (c change) empty() bool {
	return !c.all && !c.projects && !c.history && !c.pastes && !c.prompt && !c.lazy && len(c.sessions) == 0 && len(c.memory) == 0
}

// merge adds o to c.
func (c *change) merge(o change) {
	c.all = c.all || o.all
	c.projects = c.projects || o.projects
	c.history = c.history || o.history
	c.pastes = c.pastes || o.pastes
	c.prompt = c.prompt || o.prompt
	c.lazy = c.lazy || o.lazy
	for k := range o.sessions {
		c.addSession(k)
	}
	for s := range o.memory {
		c.addMemory(s)
	}
	for n := range o.names {
		c.addName(n)
	}
}

func (c *change) addName(n string) {
	if c.names == nil {
		c.names = map[string]bool{}
	}
	c.names[n] = true
}

func (c *change) addSession(k sessionKey) {
	if c.sessions == nil {
		c.sessions = map[sessionKey]bool{}
	}
	c.sessions[k] = true
}

func (c *change) addMemory(slug string) {
	if c.memory == nil {
		c.memory = map[string]bool{}
	}
	c.memory[slug] = true
}

// promptFiles are the files of the home root that the prompt preview
// reads.
var promptFiles = map[string]bool{"settings.json": true, "settings.local.json": true, "CLAUDE.md": true, "rules": true}

// classify says what an event about the file p (a path on disk) changes
// in the home at home.
func classify(home, p string) change {
	rel, err := filepath.Rel(home, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return change{lazy: true}
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	var c change
	if rel != "." {
		c.addName(filepath.ToSlash(rel))
	}
	switch {
	case rel == ".":
		c.all = true
	case parts[0] == model.HistoryPath && len(parts) == 1:
		c.history = true
	case parts[0] == model.PasteCacheDir || parts[0] == model.PasteStoreDir:
		c.pastes = true
	case len(parts) == 1 && promptFiles[parts[0]]:
		c.prompt, c.lazy = true, true
	case parts[0] == "sessions":
		// The running clients' process files: the Live pane's alone
		// (live.go), which every event reaches.
	case parts[0] != "projects":
		c.lazy = true
	case len(parts) <= 2:
		// projects/ itself, or a project folder: the list changes.
		c.projects = true
	case parts[2] == "memory":
		c.addMemory(parts[1])
	case len(parts) == 3 && strings.HasSuffix(parts[2], ".jsonl"):
		c.addSession(sessionKey{Slug: parts[1], ID: strings.TrimSuffix(parts[2], ".jsonl")})
	case len(parts) == 3 && !strings.Contains(parts[2], "."):
		// A session's folder (subagents, tool results) came or went.
		c.addSession(sessionKey{Slug: parts[1], ID: parts[2]})
	case len(parts) > 3:
		c.addSession(sessionKey{Slug: parts[1], ID: parts[2]})
	default:
		c.lazy = true
	}
	return c
}
