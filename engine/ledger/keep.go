package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// TargetKind is where Keep writes an item.
type TargetKind string

// The places the client re-reads every turn.
const (
	// ToMemory is a feedback memory linked from MEMORY.md.
	ToMemory TargetKind = "memory"
	// ToRules is a line in the project's .claude/rules/<File>.md.
	ToRules TargetKind = "rules"
	// ToClaudeMD is a line in the project's CLAUDE.md.
	ToClaudeMD TargetKind = "claudemd"
)

// Target is where to keep an item.
type Target struct {
	Kind TargetKind `json:"kind"`
	// File is the rules file's name (ToRules), without a folder.
	File string `json:"file,omitempty"`
}

// ParseTarget reads "memory", "claudemd" or "rules:FILE".
func ParseTarget(s string) (Target, error) {
	switch {
	case s == string(ToMemory) || s == "":
		return Target{Kind: ToMemory}, nil
	case s == string(ToClaudeMD):
		return Target{Kind: ToClaudeMD}, nil
	case strings.HasPrefix(s, "rules:"):
		f := strings.TrimSpace(strings.TrimPrefix(s, "rules:"))
		if f == "" || strings.ContainsAny(f, `/\`) || strings.HasPrefix(f, ".") {
			return Target{}, fmt.Errorf("rules:%s: name a file of .claude/rules/, without a folder", f)
		}
		if !strings.HasSuffix(f, ".md") {
			f += ".md"
		}
		return Target{Kind: ToRules, File: f}, nil
	}
	return Target{}, fmt.Errorf("keep to %q: want memory, rules:FILE or claudemd", s)
}

// KeepInput is what Keep needs besides the item and the target.
type KeepInput struct {
	// Session is the session the item came from (the memory's origin).
	Session string
	// Project is the project folder (rules and CLAUDE.md live there).
	Project string
	// Memory is the project's memory store (ToMemory).
	Memory *store.Store
	// Root is the machine's file system (model.RootName paths), to read
	// the rules file or CLAUDE.md.
	Root fs.FS
	// HomeDir is the Claude home: the journal of edits outside memory
	// folders lives there (store.OpenDocument).
	HomeDir string
	// Writes is the writer's fault seam (nil: the OS).
	Writes  model.WriteFS
	Options store.WriteOptions
}

// Kept is what Keep wrote.
type Kept struct {
	Target Target       `json:"target"`
	Path   string       `json:"path"`
	Change store.Change `json:"change"`
}

// DuplicateError says the rule is already where it would go (lint's
// near-duplicate rule: shingle Jaccard at lint.DefaultDuplicateJaccard).
type DuplicateError struct {
	Path string
	Text string
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("already kept: %s says %q", e.Path, e.Text)
}

// IndexFullError says a new index line would not load: MEMORY.md is at its
// cap. The next places are a rules file or CLAUDE.md.
type IndexFullError struct {
	Cap memindex.IndexCap
}

func (e *IndexFullError) Error() string {
	return fmt.Sprintf("MEMORY.md is full (%d lines, %d characters; the client loads 200 lines and 25000 characters), so a new memory's line would not load: keep it in a rules file (rules:FILE) or in CLAUDE.md (claudemd) instead",
		e.Cap.Lines, e.Cap.Chars)
}

// ErrNotKeepable is returned for items that are not an instruction or a
// todo: a path or a command is no rule to re-read every turn.
var ErrNotKeepable = errors.New("only a rule or a todo can be kept")

// keepNameWords is how many words of the rule name its memory.
const keepNameWords = 6

// Keep writes the lost item where the client re-reads it every turn,
// through the store (scanned, journaled, undoable with `memscope undo`),
// unless a near-duplicate is already there.
func Keep(it Item, to Target, in KeepInput) (Kept, error) {
	if it.Kind != KindRule && it.Kind != KindTodo {
		return Kept{}, ErrNotKeepable
	}
	rule := strings.Join(strings.Fields(it.Text), " ")
	switch to.Kind {
	case ToMemory:
		return keepMemory(rule, it, in)
	case ToRules:
		return keepLine(rule, filepath.Join(in.Project, ".claude", "rules", to.File), to, in)
	case ToClaudeMD:
		return keepLine(rule, filepath.Join(in.Project, "CLAUDE.md"), to, in)
	}
	return Kept{}, fmt.Errorf("keep to %q: unknown target", to.Kind)
}

// duplicateOf returns the doc that repeats rule by lint's rule, or false.
func duplicateOf(rule string, docs []lint.DupeDoc) (lint.DupeDoc, bool) {
	const self = "\x00new"
	all := append(append([]lint.DupeDoc{}, docs...), lint.DupeDoc{Path: self, Text: rule})
	for _, p := range lint.FindDuplicates(all, 0) {
		switch self {
		case p.B:
			return docByPath(docs, p.A), true
		case p.A:
			return docByPath(docs, p.B), true
		}
	}
	return lint.DupeDoc{}, false
}

func docByPath(docs []lint.DupeDoc, p string) lint.DupeDoc {
	for _, d := range docs {
		if d.Path == p {
			return d
		}
	}
	return lint.DupeDoc{Path: p}
}

func keepMemory(rule string, it Item, in KeepInput) (Kept, error) {
	if in.Memory == nil {
		return Kept{}, errors.New("keep to memory: the project has no memory folder")
	}
	md := in.Memory.Memory()
	var docs []lint.DupeDoc
	for _, f := range md.Files {
		docs = append(docs, lint.DupeDoc{Path: f.Path, Text: f.Description})
	}
	if d, dup := duplicateOf(rule, docs); dup {
		return Kept{}, &DuplicateError{Path: filepath.Join(in.Memory.Dir(), d.Path), Text: d.Text}
	}
	words := strings.Fields(rule)
	name := strings.Join(words[:min(len(words), keepNameWords)], " ")
	safe, err := memindex.SafeMemoryName("feedback " + name)
	if err != nil {
		return Kept{}, err
	}
	rel := memindex.MemoryFileName(model.TypeFeedback, safe)
	var raw []byte
	if md.Index != nil {
		raw = md.Index.Bytes()
	}
	line := memindex.EntryLine(memindex.EntryTitle(name, safe), rel, rule)
	// The index with the line added as the store adds it: one more line,
	// no blank line before it (the cap counts the trimmed text).
	grown := append(bytes.TrimRight(raw, " \t\r\n"), []byte("\n"+line+"\n")...)
	if c := memindex.CapIndex(grown); c.Truncated {
		return Kept{}, &IndexFullError{Cap: memindex.CapIndex(raw)}
	}
	body := rule + "\n\n**Why:** the user said it in session " + in.Session + fmt.Sprintf(" (line %d), and a compaction's summary dropped it.\n", it.Line) +
		"**How to apply:** follow it in every session of this project.\n"
	ch, err := in.Memory.Create(store.NewMemory{Name: safe, Title: name, Type: model.TypeFeedback, Description: rule, Body: body}, in.Options)
	if err != nil {
		return Kept{}, err
	}
	return Kept{Target: Target{Kind: ToMemory}, Path: filepath.Join(in.Memory.Dir(), rel), Change: ch}, nil
}

// keepLine appends "- rule" to the file at path (created when missing).
func keepLine(rule, path string, to Target, in KeepInput) (Kept, error) {
	before, err := model.ReadFileBounded(in.Root, model.RootName(path), model.MaxDocumentBytes)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Kept{}, fmt.Errorf("read %s: %w", path, err)
	}
	var docs []lint.DupeDoc
	for i, l := range strings.Split(string(before), "\n") {
		if strings.TrimSpace(l) != "" {
			docs = append(docs, lint.DupeDoc{Path: fmt.Sprintf("%s:%d", path, i+1), Text: l})
		}
	}
	if d, dup := duplicateOf(rule, docs); dup {
		return Kept{}, &DuplicateError{Path: d.Path, Text: strings.TrimSpace(d.Text)}
	}
	after := append([]byte{}, before...)
	if len(after) > 0 && after[len(after)-1] != '\n' {
		after = append(after, '\n')
	}
	after = append(after, "- "+rule+"\n"...)
	// The file's folder's document store (its journal is in the Claude
	// home); the writer creates .claude/rules/ when missing.
	s := store.OpenDocument(path, in.HomeDir, in.Writes)
	ch, err := s.ReplaceAs(store.OpEdit, "keep a lost rule in "+path, path, before, existed, after, in.Options)
	if err != nil {
		return Kept{}, err
	}
	return Kept{Target: to, Path: path, Change: ch}, nil
}
