package preview

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// LayerKind says whose text a prompt layer is.
type LayerKind string

// The layer kinds, in load order.
const (
	KindManaged    LayerKind = "managed"
	KindUser       LayerKind = "user"
	KindProject    LayerKind = "project"
	KindLocal      LayerKind = "local"
	KindAutoMemory LayerKind = "auto-memory"
	KindRecalled   LayerKind = "recalled-memory"
)

// layerLabels are the words in each file's "Contents of <path> (<label>):"
// header. Managed files share the user's label: the client has no label
// of their own for them.
var layerLabels = map[LayerKind]string{
	KindManaged:    "user's private global instructions for all projects",
	KindUser:       "user's private global instructions for all projects",
	KindProject:    "project instructions, checked into the codebase",
	KindLocal:      "user's private project instructions, not checked in",
	KindAutoMemory: "user's auto-memory, persists across conversations",
}

// InstructionsPreamble opens the block of CLAUDE.md and memory text.
const InstructionsPreamble = "Codebase and user instructions are shown below. Be sure to adhere to these instructions. " +
	"IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written."

// LayerStatus says whether a layer is in the prompt.
type LayerStatus string

// The statuses.
const (
	// StatusLoaded: in the prompt.
	StatusLoaded LayerStatus = "loaded"
	// StatusSkipped: found but not sent; Reason says why.
	StatusSkipped LayerStatus = "skipped"
	// StatusConditional: a rule with paths: that loads later, when a
	// matching file is touched.
	StatusConditional LayerStatus = "conditional"
	// StatusMissing: an import whose file does not exist.
	StatusMissing LayerStatus = "missing"
	// StatusNotInSession: written after the session started (--at).
	StatusNotInSession LayerStatus = "not-in-session"
)

// Layer is one file's part of the prompt, in load order.
type Layer struct {
	Kind   LayerKind   `json:"kind"`
	Path   string      `json:"path"`
	Status LayerStatus `json:"status"`
	// Chars is the UTF-16 length of the block sent (header and text);
	// Tokens estimates it at 4 characters per token.
	Chars  int `json:"chars"`
	Tokens int `json:"tokens"`
	// Truncated is set when only part of the file loads.
	Truncated bool   `json:"truncated"`
	Reason    string `json:"reason"`
	// ImportedFrom is the importing file; Depth is 0 for a file loaded in
	// its own right, 1 for its imports, and so on.
	ImportedFrom string `json:"importedFrom,omitempty"`
	Depth        int    `json:"depth,omitempty"`
	// External is set for an import from outside the startup directory.
	External bool `json:"external,omitempty"`
	// Mtime is the file's modification time.
	Mtime time.Time `json:"mtime,omitzero"`
	// Text is the block as sent: "Contents of <path> (<label>):", a blank
	// line and the text. Empty for layers that do not load.
	Text string `json:"-"`
}

// MissingImport is an @import whose file does not exist (the client skips
// it without a word).
type MissingImport struct {
	Path string `json:"path"`
	// From is the importing file and Line the line of the @import.
	From string `json:"from"`
	Line int    `json:"line"`
	Raw  string `json:"raw"`
}

// ConditionalRule is a rules file with paths: frontmatter.
type ConditionalRule struct {
	Path  string    `json:"path"`
	Kind  LayerKind `json:"kind"`
	Paths []string  `json:"paths"`
	// Note says when it loads.
	Note string `json:"note"`
	// Text is the rule as it joins mid-session (a nested_memory
	// attachment, sent inside the tool result: NestedMemoryText), and
	// Chars and Tokens its size then.
	Text   string `json:"-"`
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"`
	// Truncated is set when the file is over NestedMaxChars: only its
	// start joins.
	Truncated bool `json:"truncated,omitempty"`
}

// NestedMemoryText is a rule or nested CLAUDE.md as the client sends it
// when it joins mid-session: "Contents of <path>:" without the (label)
// the session-start files carry (2.1.331), cut as CutNested says.
func NestedMemoryText(path, text string) string {
	out, _ := nestedMemoryText(path, text)
	return out
}

// nestedMemoryText is NestedMemoryText, and whether the text was cut.
func nestedMemoryText(path, text string) (string, bool) {
	text, cut := CutNested(path, text)
	return "Contents of " + path + ":\n\n" + text, cut
}

// JoinedText is a nested CLAUDE.md's text as the client sends it when the
// file joins mid-session: decoded as Node decodes it, HTML comments
// removed, and not trimmed (2.1.332 keeps a final newline and leading
// blank lines; e2e TestCommentsAsTheClientSends).
func JoinedText(raw []byte) string { return StripHTMLComments(jsstr.DecodeLikeNode(raw)) }

// StartText is a file's text as the client sends it at session start:
// JoinedText trimmed as JavaScript trims (a byte-order mark included).
func StartText(raw []byte) string { return jsstr.Trim(JoinedText(raw)) }

// NestedMaxChars is the size (UTF-16 units) over which a file joining
// mid-session loads only its start (2.1.309). Measured with 2.1.332 (a
// nested CLAUDE.md read through a Read of a file beside it, fake API):
// files of 60 000 characters arrived whole; of 200 000, 400 000 and
// 1 000 000 characters, in lines of 52 or 205 characters, ASCII or
// two-byte UTF-8, the text arrived cut at the last line end at or before
// 150 000 characters, then the note NestedCutNote says.
const NestedMaxChars = 150000

// NestedCutNote is what the client appends to a cut file: where the model
// can read the rest (line is the first line left out, 1-based).
func NestedCutNote(path string, line int) string {
	return fmt.Sprintf("\n\n> Only the start of this file is shown. For the rest, call Read on %s with offset=%d and a limit.", path, line)
}

// CutNested is text as a file joining mid-session sends it: whole up to
// NestedMaxChars, else its start and NestedCutNote; cut says which.
func CutNested(path, text string) (out string, cut bool) {
	if jsstr.UTF16Len(text) <= NestedMaxChars {
		return text, false
	}
	kept, _ := jsstr.CutTextAtLine(text, NestedMaxChars)
	return kept + NestedCutNote(path, strings.Count(kept, "\n")+2), true
}

// ClaudeMdOptions says where to look for instructions.
type ClaudeMdOptions struct {
	// Root is an fs.FS rooted at "/" (model.DirFS("/") in production).
	Root fs.FS
	// HomeDir is $H; UserHome is the user's home folder (for "~/").
	HomeDir  string
	UserHome string
	// Project is the absolute startup directory.
	Project string
	// AddDirs are --add-dir folders; their files load only with
	// AddDirsClaudeMd (the client reads them only when
	// CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD is true), else they are
	// listed as skipped.
	AddDirs         []string
	AddDirsClaudeMd bool
	// ManagedDir defaults to model.ManagedDir.
	ManagedDir string
	// Excludes are the claudeMdExcludes globs.
	Excludes []string
	// ExternalApproved: the user approved imports from outside the project.
	ExternalApproved bool
	// At, when set, is the session start: files changed later are marked.
	At *time.Time
	// Nested lists the CLAUDE.md files in the folders below the project
	// (Result.Nested): a walk of up to NestedScanMaxDirs folders, which
	// only the prompt preview asks for.
	Nested bool
}

// ClaudeMdResult is the assembled instruction files.
type ClaudeMdResult struct {
	Layers           []Layer           `json:"layers"`
	MissingImports   []MissingImport   `json:"missingImports"`
	ConditionalRules []ConditionalRule `json:"conditionalRules"`
	// Nested are the CLAUDE.md files in folders below the project: each
	// joins mid-session when a file under its folder is read.
	Nested   []ConditionalRule `json:"nested"`
	Problems []model.Problem   `json:"problems,omitempty"`
}

// AssembleClaudeMd loads CLAUDE.md files in the client's order: managed,
// user, each folder from "/" down to the project (CLAUDE.md,
// .claude/CLAUDE.md, unconditional rules, CLAUDE.local.md), then --add-dir
// folders; each file's imports follow it.
func AssembleClaudeMd(o ClaudeMdOptions) ClaudeMdResult {
	if o.ManagedDir == "" {
		o.ManagedDir = model.ManagedDir
	}
	a := &assembler{o: o, root: o.Root, seen: map[string]bool{}}
	if a.root == nil {
		a.root = emptyRoot{}
	}
	a.res.Layers, a.res.MissingImports, a.res.ConditionalRules, a.res.Nested = []Layer{}, []MissingImport{}, []ConditionalRule{}, []ConditionalRule{}
	a.file(path.Join(o.ManagedDir, "CLAUDE.md"), KindManaged)
	a.rules(path.Join(o.ManagedDir, ".claude", "rules"), KindManaged)
	a.file(path.Join(o.HomeDir, "CLAUDE.md"), KindUser)
	a.rules(path.Join(o.HomeDir, "rules"), KindUser)
	for _, d := range dirsDownTo(o.Project) {
		a.folder(d)
	}
	if o.Nested && o.Project != "" {
		a.nested(path.Clean(o.Project))
	}
	layers, missing, cond := len(a.res.Layers), len(a.res.MissingImports), len(a.res.ConditionalRules)
	for _, d := range o.AddDirs {
		a.folder(path.Clean(d))
	}
	if !o.AddDirsClaudeMd {
		// Shown, so the user sees what setting the variable would add;
		// nothing of them loads, imports and path rules included.
		a.res.MissingImports, a.res.ConditionalRules = a.res.MissingImports[:missing], a.res.ConditionalRules[:cond]
		for i := layers; i < len(a.res.Layers); i++ {
			if l := &a.res.Layers[i]; l.Status == StatusLoaded {
				l.Status, l.Reason = StatusSkipped, joinReason(l.Reason, AddDirsOffReason)
			}
		}
	}
	return a.res
}

// EnvAddDirsClaudeMd makes the client load the CLAUDE.md files (and rules)
// of --add-dir folders; without a true value it loads none of them.
const EnvAddDirsClaudeMd = "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD"

// AddDirsOffReason is why an --add-dir folder's file does not load.
const AddDirsOffReason = "--add-dir folders' CLAUDE.md files load only when " + EnvAddDirsClaudeMd + " is set to a true value (it is not)"

// dirsDownTo lists "/" and every folder down to dir.
func dirsDownTo(dir string) []string {
	var out []string
	for d := path.Clean("/" + dir); ; d = path.Dir(d) {
		out = append(out, d)
		if d == "/" {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

type assembler struct {
	o    ClaudeMdOptions
	root fs.FS
	seen map[string]bool
	res  ClaudeMdResult
}

func joinReason(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	dir = path.Clean(dir)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// emptyRoot stands in for a missing file system.
type emptyRoot struct{}

func (a *assembler) folder(d string) {
	a.file(path.Join(d, "CLAUDE.md"), KindProject)
	a.file(path.Join(d, ".claude", "CLAUDE.md"), KindProject)
	a.rules(path.Join(d, ".claude", "rules"), KindProject)
	a.file(path.Join(d, "CLAUDE.local.md"), KindLocal)
}

// NestedScanMaxDirs bounds the folders below the project searched for
// nested CLAUDE.md files (hidden folders, node_modules and vendor are not
// searched).
const NestedScanMaxDirs = 2000

// nested lists the CLAUDE.md files in the folders below project, each
// with its text as it joins (cut over NestedMaxChars).
func (a *assembler) nested(project string) {
	dirs := 0
	_ = fs.WalkDir(a.root, model.RootName(project), func(name string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		p := "/" + name
		if p == project {
			return nil
		}
		if b := d.Name(); strings.HasPrefix(b, ".") || b == "node_modules" || b == "vendor" {
			return fs.SkipDir
		}
		if dirs++; dirs > NestedScanMaxDirs {
			return fs.SkipAll
		}
		f := path.Join(p, "CLAUDE.md")
		data, err := model.ReadFileBounded(a.root, model.RootName(f), model.MaxDocumentBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			// A FIFO, a device or a folder named CLAUDE.md is named,
			// not read.
			a.res.Problems = append(a.res.Problems, model.Problem{File: f, Kind: model.ProblemUnreadable, Reason: fmt.Sprintf("read %s: %v", f, err)})
			return nil
		}
		cf, _ := model.ParseClaudeMd(f, data)
		text := JoinedText([]byte(cf.Content))
		if jsstr.Trim(text) == "" {
			return nil
		}
		n := ConditionalRule{Path: f, Kind: KindProject}
		n.Text, n.Truncated = nestedMemoryText(f, text)
		n.Chars = jsstr.UTF16Len(n.Text)
		n.Tokens = int(window.EstimateTokens(n.Chars))
		n.Note = fmt.Sprintf("loads when a file under %s is read (then about %d tokens, sent in the tool result)", p, n.Tokens)
		if n.Truncated {
			n.Note += fmt.Sprintf("; over %d characters: only its start loads", NestedMaxChars)
		}
		a.res.Nested = append(a.res.Nested, n)
		return nil
	})
}

// rules loads every *.md under dir (in name order), unconditional ones now
// and conditional ones listed for later.
func (a *assembler) rules(dir string, kind LayerKind) {
	var files []string
	_ = fs.WalkDir(a.root, model.RootName(dir), func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				a.res.Problems = append(a.res.Problems, model.Problem{File: "/" + name, Kind: model.ProblemUnreadable, Reason: fmt.Sprintf("read rules: %v", err)})
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(name, ".md") {
			files = append(files, "/"+name)
		}
		return nil
	})
	sort.Strings(files)
	for _, f := range files {
		a.load(f, kind, nil, nil, true)
	}
}

// file loads a top-level instruction file if it exists.
func (a *assembler) file(p string, kind LayerKind) {
	a.load(p, kind, nil, nil, false)
}

// load processes one file and then its imports, in the client's order of
// checks: external, already loaded or too deep, excluded, missing, too
// big or not text. chain lists the importing files, outermost first.
func (a *assembler) load(p string, kind LayerKind, chain []string, ref *ImportRef, isRule bool) {
	depth := len(chain)
	l := Layer{Kind: kind, Path: p, Depth: depth}
	if depth > 0 {
		l.ImportedFrom = chain[depth-1]
	}
	skip := func(status LayerStatus, reason string) {
		l.Status, l.Reason = status, reason
		a.res.Layers = append(a.res.Layers, l)
	}
	if ref == nil {
		if _, err := fs.Stat(a.root, model.RootName(p)); errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
	if ref != nil && a.external(p, kind) {
		l.External = true
		if !a.o.ExternalApproved {
			skip(StatusSkipped, "import from outside the project needs approval (hasClaudeMdExternalIncludesApproved in .claude.json)")
			return
		}
		l.Reason = "import from outside the project (approved)"
	}
	switch {
	case a.seen[p] && hasWord(chain, p):
		skip(StatusSkipped, "import cycle: "+p+" is already being loaded")
		return
	case a.seen[p]:
		skip(StatusSkipped, "already loaded earlier in the prompt")
		return
	case depth >= ImportMaxDepth:
		skip(StatusSkipped, fmt.Sprintf("import depth limit: a file and %d levels of imports load", ImportMaxDepth-1))
		return
	}
	if kind != KindManaged {
		for _, pat := range a.o.Excludes {
			if GlobMatch(pat, p) {
				skip(StatusSkipped, "excluded by claudeMdExcludes pattern "+pat)
				return
			}
		}
	}
	st, err := fs.Stat(a.root, model.RootName(p))
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && st.IsDir():
		if ref != nil {
			a.res.MissingImports = append(a.res.MissingImports, MissingImport{Path: p, From: l.ImportedFrom, Line: ref.Line, Raw: ref.Raw})
			skip(StatusMissing, "imported file does not exist (the client skips it silently)")
		}
		return
	case err != nil:
		a.res.Problems = append(a.res.Problems, model.Problem{File: p, Kind: model.ProblemUnreadable, Reason: err.Error()})
		skip(StatusSkipped, "cannot read: "+err.Error())
		return
	}
	l.Mtime = st.ModTime()
	if ref != nil && st.Size() > ImportMaxBytes {
		skip(StatusSkipped, "imported file is over 4 MiB")
		return
	}
	if ref != nil && !isTextImport(p) {
		skip(StatusSkipped, "not a text file extension")
		return
	}
	cf, prob := model.ReadClaudeMd(a.root, model.RootName(p), p)
	if cf == nil {
		a.res.Problems = append(a.res.Problems, *prob)
		skip(StatusSkipped, prob.Reason)
		return
	}
	if prob != nil {
		a.res.Problems = append(a.res.Problems, *prob)
	}
	content := jsstr.DecodeLikeNode([]byte(cf.Content))
	text := jsstr.Trim(StripHTMLComments(content)) // StartText, the content kept for FindImports
	if isRule && cf.Conditional() {
		note := "loads when a file matching " + strings.Join(cf.Paths, ", ") + " is touched"
		cr := ConditionalRule{Path: p, Kind: kind, Paths: cf.Paths, Note: note}
		if text != "" {
			// Joining mid-session, a rule is sent as a nested file is,
			// untrimmed, but the white space right after its frontmatter
			// goes with the frontmatter (e2e TestPathRuleJoinsAsComputed).
			joined := strings.TrimLeftFunc(StripHTMLComments(content), jsstr.IsSpace)
			cr.Text, cr.Truncated = nestedMemoryText(p, joined)
			cr.Chars = jsstr.UTF16Len(cr.Text)
			cr.Tokens = int(window.EstimateTokens(cr.Chars))
			note += fmt.Sprintf(" (then about %d tokens, sent in the tool result)", cr.Tokens)
			cr.Note = note
		}
		a.res.ConditionalRules = append(a.res.ConditionalRules, cr)
		skip(StatusConditional, note)
		return
	}
	a.seen[p] = true
	if text == "" {
		l.Status, l.Reason = StatusSkipped, joinReason(l.Reason, "empty after comments are removed")
	} else {
		l.Status = StatusLoaded
		l.Text = "Contents of " + p + " (" + layerLabels[kind] + "):\n\n" + text
		l.Chars = jsstr.UTF16Len(l.Text)
		l.Tokens = int(window.EstimateTokens(l.Chars))
		if a.o.At != nil && l.Mtime.After(*a.o.At) {
			l.Reason = joinReason(l.Reason, "changed after the session started: the session saw an earlier version")
		}
	}
	a.res.Layers = append(a.res.Layers, l)
	next := append(append([]string{}, chain...), p)
	for _, imp := range FindImports(content) {
		imp := imp
		a.load(ResolveImport(imp.Path, p, a.o.UserHome), kind, next, &imp, false)
	}
}

// external reports whether an import target counts as outside the
// project: not under the startup directory (even when the importing file
// sits higher up in the same repository) and not in the Claude home.
// Imports made by managed and user files are never restricted.
func (a *assembler) external(p string, kind LayerKind) bool {
	if kind == KindManaged || kind == KindUser {
		return false
	}
	return !under(p, a.o.Project) && !(a.o.HomeDir != "" && under(p, a.o.HomeDir))
}

func (emptyRoot) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}
