package gate

import (
	"path"
	"strings"

	"github.com/memscope/memscope/model"
)

// Kind is what a judged file is to the client.
type Kind string

// The kinds of file the gate judges.
const (
	// KindIndex is a memory folder's MEMORY.md.
	KindIndex Kind = "memory-index"
	// KindTopic is a memory topic file.
	KindTopic Kind = "memory-file"
	// KindInstructions is a CLAUDE.md, CLAUDE.local.md or a rule file.
	KindInstructions Kind = "instructions"
)

// Places are the folders memory lives in for the session that makes the
// call: what Classify compares a path with. Every path is absolute.
type Places struct {
	// Home is $H, the Claude home (user rules in $H/rules/).
	Home string
	// Base holds projects/<slug>/memory/ folders: $H, or
	// CLAUDE_CODE_REMOTE_MEMORY_DIR.
	Base string
	// AutoMemory is the session's auto memory folder, wherever the rules
	// put it (model.ResolveMemoryLocation: a moved autoMemoryDirectory,
	// the cowork override).
	AutoMemory string
}

// Target is a file the gate judges.
type Target struct {
	Kind Kind `json:"kind"`
	// Path is the absolute file.
	Path string `json:"path"`
	// Dir is the memory folder a memory file belongs to (auto, team or
	// agent memory); Rel its path in it. Empty for instructions.
	Dir string `json:"dir,omitempty"`
	Rel string `json:"rel,omitempty"`
	// Unstamped is set for agent memory (the client does not stamp it).
	Unstamped bool `json:"-"`
}

// MemoryName reports whether name (a file name) may be a file the gate
// judges at all: Markdown. Everything else passes at once, before any
// lookup, since the hook runs on every write.
func MemoryName(p string) bool {
	return strings.HasSuffix(p, ".md") && path.IsAbs(p)
}

// Classify says whether the absolute path p is a file the gate judges,
// and which. It reads nothing.
func Classify(p string, pl Places) (Target, bool) {
	p = path.Clean(p)
	if !MemoryName(p) {
		return Target{}, false
	}
	if t, ok := memoryTarget(p, pl.AutoMemory, false); ok {
		return t, true
	}
	if pl.Base != "" {
		if rel, ok := under(p, path.Join(pl.Base, "projects")); ok {
			if slug, rest, ok := strings.Cut(rel, "/"); ok && strings.HasPrefix(rest, "memory/") {
				if t, ok := memoryTarget(p, path.Join(pl.Base, "projects", slug, "memory"), false); ok {
					return t, true
				}
			}
		}
	}
	if dir, ok := agentMemoryDir(p); ok {
		if t, ok := memoryTarget(p, dir, true); ok {
			return t, true
		}
	}
	switch path.Base(p) {
	case "CLAUDE.md", "CLAUDE.local.md":
		return Target{Kind: KindInstructions, Path: p}, true
	}
	if strings.Contains(p, "/.claude/rules/") {
		return Target{Kind: KindInstructions, Path: p}, true
	}
	if pl.Home != "" {
		if _, ok := under(p, path.Join(pl.Home, "rules")); ok {
			return Target{Kind: KindInstructions, Path: p}, true
		}
	}
	return Target{}, false
}

// memoryTarget places p in the memory folder dir: its MEMORY.md, a topic
// file, or team/'s (a folder of its own).
func memoryTarget(p, dir string, unstamped bool) (Target, bool) {
	if dir == "" {
		return Target{}, false
	}
	rel, ok := under(p, dir)
	if !ok {
		return Target{}, false
	}
	if team, ok := strings.CutPrefix(rel, "team/"); ok {
		dir, rel = path.Join(dir, "team"), team
	}
	t := Target{Path: p, Dir: dir, Rel: rel, Unstamped: unstamped}
	switch {
	case rel == model.MemoryIndexName:
		t.Kind = KindIndex
	case model.IsMemoryTopicPath(rel):
		t.Kind = KindTopic
	default:
		return Target{}, false
	}
	return t, true
}

// agentMemoryDir finds .../agent-memory[-local]/<agent>/ in p.
func agentMemoryDir(p string) (string, bool) {
	segs := strings.Split(p, "/")
	for i := len(segs) - 3; i >= 1; i-- {
		if segs[i] == "agent-memory" || segs[i] == "agent-memory-local" {
			return strings.Join(segs[:i+2], "/"), true
		}
	}
	return "", false
}

// under returns p relative to dir when p is inside it.
func under(p, dir string) (string, bool) {
	dir = path.Clean(dir)
	rel, ok := strings.CutPrefix(p, dir+"/")
	return rel, ok && rel != ""
}
