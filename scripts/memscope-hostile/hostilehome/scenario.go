package hostilehome

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Scenario names one kind of hostile home.
type Scenario string

// The scenarios Write knows.
const (
	// Escapes puts terminal control sequences in every text field.
	Escapes Scenario = "escapes"
	// Bidi puts bidirectional controls in every text field.
	Bidi Scenario = "bidi"
	// BigLine adds one Options.Size-byte line to a transcript, history,
	// a cached paste and a memory file body.
	BigLine Scenario = "bigline"
	// DeepJSON adds Options.Depth-deep JSON lines to a transcript and history.
	DeepJSON Scenario = "deepjson"
	// ManyFiles puts Options.N tiny memory files in one memory folder.
	ManyFiles Scenario = "manyfiles"
	// NewlineNames gives memory files, project folders, session ids and
	// paste files names with newlines, tabs and escapes.
	NewlineNames Scenario = "newlinenames"
	// SymlinksOut links a memory file, a memory folder, a cached paste and a
	// rule to targets outside the home.
	SymlinksOut Scenario = "symlinks-out"
	// Special replaces a file memscope reads as data (Options.Place; all
	// of them when empty) with a named pipe or a link to /dev/zero or
	// /dev/urandom (Options.Kind).
	Special Scenario = "special"
	// LinkLoops adds symbolic links out of the home (to a folder that
	// looks like a project, twice, and to the outside root), link loops
	// and links that stay inside, where the inventory, the forecast and
	// the archive walk.
	LinkLoops Scenario = "linkloops"
	// Huge puts a sparse run of Options.Size NUL bytes (default 1 GiB) in
	// a transcript line, a history line, MEMORY.md, a memory file, a
	// paste, CLAUDE.md and a tool result, and nests a memory's
	// frontmatter Options.Depth levels deep (default 3 000).
	Huge Scenario = "huge"
	// Leftovers is a home as killed or failed memscope writes leave it:
	// copies, probes and empty folders of gone writers in memory
	// folders, a journal lock with no journal, and a pending restore
	// whose copy lies in a project tree outside the home (Options.Outside).
	Leftovers Scenario = "leftovers"
	// TarBomb writes the content home and, beside it, the home as a
	// .tar.gz with one more entry of Options.Size NUL bytes (default
	// 2 GiB): a decompression bomb for --home.
	TarBomb Scenario = "tarbomb"
)

// Scenarios lists every scenario whose home a plain reader can read
// (no file of it blocks or never ends), in a fixed order.
var Scenarios = []Scenario{Escapes, Bidi, BigLine, DeepJSON, ManyFiles, NewlineNames, SymlinksOut, Leftovers}

// Traps lists the scenarios whose homes hang or exhaust a reader that
// does not guard against them.
var Traps = []Scenario{Special, LinkLoops, Huge, TarBomb}

// Defaults for Options fields left zero.
const (
	DefaultSize  = 100 << 20
	DefaultN     = 1_000_000
	DefaultDepth = 100_000
)

// Options tune the scenarios; zero fields take the defaults.
type Options struct {
	// Size is the length in bytes of BigLine's line.
	Size int64
	// N is the number of ManyFiles' memory files.
	N int
	// Depth is DeepJSON's nesting depth.
	Depth int
	// Outside is where SymlinksOut and LinkLoops put their targets
	// (default: the home's path + "-outside"); it must be outside the
	// home.
	Outside string
	// Kind is what Special puts in place of a file (SpecialKinds; default
	// KindFIFO); Place is which file (SpecialPlaces; "" for all).
	Kind, Place string
}

// Result says what Write wrote, so tests and scripts can check against it.
type Result struct {
	Scenario   Scenario `json:"scenario"`
	Home       string   `json:"home"`
	Project    string   `json:"project"`
	Slug       string   `json:"slug"`
	SessionID  string   `json:"sessionId"`
	Transcript string   `json:"transcript"`
	MemoryDir  string   `json:"memoryDir"`
	// Files are the home-relative paths written (ManyFiles' notes are
	// counted in MemoryFiles instead of listed).
	Files []string `json:"files"`
	// MemoryFiles is the number of topic files in MemoryDir.
	MemoryFiles int `json:"memoryFiles"`
	// HistoryLines and BadHistoryLines count history.jsonl's lines that
	// parse and that must be reported as problems.
	HistoryLines    int `json:"historyLines"`
	BadHistoryLines int `json:"badHistoryLines"`
	// BadTranscriptLines counts the main transcript's lines that must be
	// reported as problems.
	BadTranscriptLines int `json:"badTranscriptLines"`
	// Outside is SymlinksOut's target folder; Targets maps each target's
	// path to its sha256, which must never change; Links maps each
	// home-relative link to its target.
	Outside string            `json:"outside,omitempty"`
	Targets map[string]string `json:"targets,omitempty"`
	Links   map[string]string `json:"links,omitempty"`
	// Names are the odd names NewlineNames wrote, home-relative.
	Names []string `json:"names,omitempty"`
	// Paste is the content home's cached paste, home-relative.
	Paste string `json:"paste,omitempty"`
	// Special maps each place Special spoiled to its home-relative path.
	Special map[string]string `json:"special,omitempty"`
	// Leftovers are Leftovers' copies, probes, empty folders and lock
	// (absolute paths).
	Leftovers []string `json:"leftovers,omitempty"`
	// Archive is TarBomb's .tar.gz (beside the home), Bomb its huge
	// entry.
	Archive string `json:"archive,omitempty"`
	Bomb    string `json:"bomb,omitempty"`
}

// Write writes scenario sc as a complete home in dir, which must be empty
// or absent.
func Write(dir string, sc Scenario, o Options) (*Result, error) {
	if o.Size <= 0 && sc == Huge {
		o.Size = DefaultHugeSize
	}
	if o.Size <= 0 && sc == TarBomb {
		o.Size = DefaultBombSize
	}
	if o.Depth <= 0 && sc == Huge {
		o.Depth = 3_000
	}
	if o.Size <= 0 {
		o.Size = DefaultSize
	}
	if o.N <= 0 {
		o.N = DefaultN
	}
	if o.Depth <= 0 {
		o.Depth = DefaultDepth
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("home %s: %w", dir, err)
	}
	if err := ensureEmpty(abs); err != nil {
		return nil, err
	}
	w := &homeWriter{dir: abs, res: &Result{Scenario: sc, Home: abs}}
	switch sc {
	case Escapes:
		contentHome(w, Joined(EscapePayloads))
	case Bidi:
		contentHome(w, Joined(BidiPayloads))
	case BigLine:
		writeBigLine(w, o.Size)
	case DeepJSON:
		writeDeepJSON(w, o.Depth)
	case ManyFiles:
		writeManyFiles(w, o.N)
	case NewlineNames:
		writeOddNames(w)
	case SymlinksOut:
		out := o.Outside
		if out == "" {
			out = abs + "-outside"
		}
		writeSymlinksOut(w, out)
	case Special:
		writeSpecial(w, o.Kind, o.Place)
	case Huge:
		writeHuge(w, o.Size, o.Depth)
	case TarBomb:
		writeTarBomb(w, o.Size)
	case Leftovers:
		out := o.Outside
		if out == "" {
			out = abs + "-outside"
		}
		writeLeftovers(w, out)
	case LinkLoops:
		out := o.Outside
		if out == "" {
			out = abs + "-outside"
		}
		writeLinkLoops(w, out)
	default:
		return nil, fmt.Errorf("unknown scenario %q (known: %v and %v)", sc, Scenarios, Traps)
	}
	if w.err != nil {
		return nil, w.err
	}
	if w.res.MemoryFiles == 0 {
		w.res.MemoryFiles = countTopicFiles(w.res.Files, w.res.MemoryDir)
	}
	sort.Strings(w.res.Files)
	return w.res, nil
}

// ensureEmpty creates dir or checks that it is empty, so a run never mixes
// with an older home.
func ensureEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	return nil
}

// countTopicFiles counts the *.md files directly or deeper in memDir except
// MEMORY.md and team/.
func countTopicFiles(files []string, memDir string) int {
	n := 0
	for _, f := range files {
		rel, err := filepath.Rel(memDir, f)
		if err != nil || rel == "MEMORY.md" || filepath.Ext(rel) != ".md" || len(rel) > 1 && rel[0] == '.' || filepath.Dir(rel) == "team" {
			continue
		}
		n++
	}
	return n
}
