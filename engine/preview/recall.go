package preview

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// The recall constants (FORMATS.md, "Recall").
const (
	// RecallScanLines and RecallScanBytes: how much of each file the scan reads.
	RecallScanLines = 30
	RecallScanBytes = 64 << 10
	// RecallManifestMax: the newest files listed to the selector.
	RecallManifestMax = 200
	// RecallPickMax: how many files one prompt can recall.
	RecallPickMax = 5
	// RecallFileMaxLines and RecallFileMaxBytes cut each recalled file.
	RecallFileMaxLines = 200
	RecallFileMaxBytes = 4096
	// RecallSessionBudget is the bytes of recalled memory one session may load.
	RecallSessionBudget = 61440
)

// RecallNote says plainly how memscope's recall differs from the client's.
const RecallNote = "The real client picks recalled memories with a model call (a small model reads the manifest and the prompt); " +
	"memscope cannot make that call, so a local selector stands in and says why it picked each file."

// ManifestEntry is one line of the recall manifest.
type ManifestEntry struct {
	// File is the path relative to the memory folder.
	File        string           `json:"file"`
	Type        model.MemoryType `json:"type"`
	Name        string           `json:"name,omitempty"`
	Description string           `json:"description,omitempty"`
	Mtime       time.Time        `json:"mtime"`
	// Line is the manifest line as the selector sees it.
	Line string `json:"line"`
	// Head is the body text within the scanned head, for local selectors.
	Head string `json:"-"`
}

// Manifest is the list of memories offered to the selector.
type Manifest struct {
	Entries []ManifestEntry `json:"entries"`
	// Considered counts the topic files scanned; Left those past the 200
	// newest, which recall can never pick.
	Considered int      `json:"considered"`
	Left       []string `json:"left,omitempty"`
}

// BuildManifest scans topic files as the client does: the first 30 lines
// (within 64 KiB) of each, newest mtime first, keeping 200. Each entry is
// listed as "- [type] file (ISO mtime): description"; the type tag and the
// description are left out when the head has none.
func BuildManifest(files []*model.MemoryFile) Manifest {
	sorted := memindex.NewestFirst(files)
	var topics []*model.MemoryFile
	for _, f := range sorted {
		if path.Base(f.Path) != model.MemoryIndexName {
			topics = append(topics, f)
		}
	}
	m := Manifest{Considered: len(topics)}
	for i, f := range topics {
		if i >= RecallManifestMax {
			m.Left = append(m.Left, f.Path)
			continue
		}
		m.Entries = append(m.Entries, manifestEntry(f))
	}
	return m
}

func manifestEntry(f *model.MemoryFile) ManifestEntry {
	head := scanHead(f.Raw())
	// The frontmatter is usually inside the scanned head: reuse the parse
	// already done. Otherwise the scan sees only what the head holds.
	hf := f
	if f.HeaderEnd() > len(head) || f.Invalid {
		hf, _ = model.ParseMemoryFile(f.Path, head)
	}
	e := ManifestEntry{File: f.Path, Type: hf.Type, Name: hf.Name, Description: hf.Description, Mtime: f.ModTime, Head: jsstr.DecodeLikeNode(head[min(hf.HeaderEnd(), len(head)):])}
	var b strings.Builder
	b.WriteString("- ")
	if hf.Type != model.TypeUntyped {
		b.WriteString("[" + string(hf.Type) + "] ")
	}
	b.WriteString(f.Path + " (" + f.ModTime.UTC().Format(model.ISOMillis) + ")")
	if d := strings.TrimSpace(hf.Description); d != "" {
		b.WriteString(": " + d)
	}
	e.Line = b.String()
	return e
}

// scanHead is the part of a file the recall scan reads.
func scanHead(raw []byte) []byte {
	if len(raw) > RecallScanBytes {
		raw = raw[:RecallScanBytes]
	}
	off := 0
	for n := 0; n < RecallScanLines; n++ {
		i := bytes.IndexByte(raw[off:], '\n')
		if i < 0 {
			return raw
		}
		off += i + 1
	}
	return raw[:off]
}

// Pick is one file a Selector chose, with its score and the reason.
type Pick struct {
	File  string  `json:"file"`
	Score float64 `json:"score"`
	Why   string  `json:"why"`
}

// Selector chooses up to limit manifest entries relevant to a prompt. The
// client's selector is a model call; memscope's default is BM25.
type Selector interface {
	// Name says which selector this is, for output.
	Name() string
	Select(query string, entries []ManifestEntry, limit int) []Pick
}

// RecalledFile is a memory recalled for a prompt, as it would load.
type RecalledFile struct {
	File  string  `json:"file"`
	Path  string  `json:"path"`
	Query string  `json:"query"`
	Score float64 `json:"score"`
	Why   string  `json:"why"`
	// AgeDays and Clock: the memory's age and which time it came from.
	AgeDays          int                  `json:"ageDays"`
	Clock            memindex.MemoryClock `json:"clock"`
	FreshnessWarning string               `json:"freshnessWarning"`
	Staleness        memindex.Staleness   `json:"staleness"`
	// Truncated is set when the file was cut at 200 lines or 4096 bytes.
	Truncated bool `json:"truncated"`
	// Bytes is the size of Text, counted against the session budget.
	Bytes int `json:"bytes"`
	// Skipped says why a picked file did not load (the budget ran out).
	Skipped string `json:"skipped,omitempty"`
	// Text is the file as it loads: freshness warning, header, content.
	Text string `json:"-"`
}

// QueryRecall is the recall for one prompt of the session.
type QueryRecall struct {
	Query string `json:"query"`
	// Skipped says why no recall ran (a one-word prompt).
	Skipped string         `json:"skipped,omitempty"`
	Files   []RecalledFile `json:"files"`
}

// RecallOptions configure a recall run.
type RecallOptions struct {
	// Queries are the session's prompts, in order.
	Queries []string
	// Selector picks files; nil uses BM25.
	Selector Selector
	// Now is when the prompts are made (the session time).
	Now time.Time
	// Staleness classifies ages; nil uses DefaultStaleness.
	Staleness memindex.StalenessThresholds
	// MemoryDir is the absolute memory folder, for paths in the text.
	MemoryDir string
}

// RecallResult is the recall of a whole session.
type RecallResult struct {
	Selector string        `json:"selector"`
	Note     string        `json:"note"`
	Manifest Manifest      `json:"manifest"`
	Queries  []QueryRecall `json:"queries"`
	// BudgetUsed is the bytes of recalled memory loaded, of RecallSessionBudget.
	BudgetUsed int `json:"budgetUsed"`
}

// Recall runs the session's prompts against the memory files: per prompt
// of more than one word the selector picks up to 5 from the manifest (a
// file recalled once in the session is not offered again); each pick is
// cut to 200 lines / 4096 bytes and loads while the 61440-byte session
// budget lasts.
func Recall(files []*model.MemoryFile, o RecallOptions) RecallResult {
	sel := o.Selector
	if sel == nil {
		sel = BM25Selector{}
	}
	th := o.Staleness
	if th == nil {
		th = memindex.DefaultStaleness()
	}
	byPath := map[string]*model.MemoryFile{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	res := RecallResult{Selector: sel.Name(), Note: RecallNote, Manifest: BuildManifest(files), Queries: []QueryRecall{}}
	surfaced := map[string]bool{}
	for _, q := range o.Queries {
		qr := QueryRecall{Query: q, Files: []RecalledFile{}}
		if len(strings.Fields(q)) <= 1 {
			qr.Skipped = "prompts of one word do not trigger recall"
			res.Queries = append(res.Queries, qr)
			continue
		}
		var offer []ManifestEntry
		for _, e := range res.Manifest.Entries {
			if !surfaced[e.File] {
				offer = append(offer, e)
			}
		}
		for _, p := range sel.Select(q, offer, RecallPickMax) {
			f := byPath[p.File]
			if f == nil || surfaced[p.File] {
				continue
			}
			surfaced[p.File] = true
			rf := recallFile(f, p, q, o, th)
			if res.BudgetUsed+rf.Bytes > RecallSessionBudget {
				rf.Skipped = fmt.Sprintf("the session's %d-byte budget for recalled memory is used up (%d used)", RecallSessionBudget, res.BudgetUsed)
				rf.Text = ""
			} else {
				res.BudgetUsed += rf.Bytes
			}
			qr.Files = append(qr.Files, rf)
		}
		res.Queries = append(res.Queries, qr)
	}
	return res
}

func recallFile(f *model.MemoryFile, p Pick, q string, o RecallOptions, th memindex.StalenessThresholds) RecalledFile {
	abs := path.Join(o.MemoryDir, f.Path)
	age := th.Age(f, o.Now)
	content, truncated := CutRecalled(jsstr.DecodeLikeNode(f.Raw()), abs)
	rf := RecalledFile{File: f.Path, Path: abs, Query: q, Score: p.Score, Why: p.Why, AgeDays: age.Days, Clock: age.Clock,
		FreshnessWarning: memindex.FreshnessWarning(age.Days), Staleness: age.Staleness, Truncated: truncated}
	var b strings.Builder
	if rf.FreshnessWarning != "" {
		b.WriteString(rf.FreshnessWarning + "\n\n")
	}
	b.WriteString("Contents of " + abs + " (recalled memory, picked for this prompt):\n\n")
	b.WriteString(strings.TrimRightFunc(content, jsstr.IsSpace))
	rf.Text = b.String()
	rf.Bytes = len(rf.Text)
	return rf
}

// CutRecalled cuts a recalled file to its first 200 lines, then to 4096
// bytes (at the last line break that fits, else at a character boundary),
// and appends a note saying it was cut and where the whole file is. The
// note's wording is memscope's; the client's says the same.
func CutRecalled(text, abs string) (string, bool) {
	why := ""
	if end := nthLineEnd(text, RecallFileMaxLines); end >= 0 && end+1 < len(text) {
		text, why = text[:end], fmt.Sprintf("%d lines", RecallFileMaxLines)
	}
	if len(text) > RecallFileMaxBytes {
		cut := strings.LastIndexByte(text[:RecallFileMaxBytes+1], '\n')
		if cut <= 0 {
			// Back off to a character start, at most the 3 bytes a UTF-8
			// character reaches back (bytes that are not UTF-8 stay).
			cut = RecallFileMaxBytes
			for k := 0; k < utf8.UTFMax-1 && !isRuneStart(text[cut]); k++ {
				cut--
			}
		}
		text, why = text[:cut], fmt.Sprintf("%d bytes", RecallFileMaxBytes)
	}
	if why == "" {
		return text, false
	}
	return text + "\n\n> This memory file was truncated (over " + why + "). Read the complete file at " + abs + ".", true
}

// nthLineEnd is the offset of the n-th "\n" of text, or -1.
func nthLineEnd(text string, n int) int {
	off := -1
	for ; n > 0; n-- {
		i := strings.IndexByte(text[off+1:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Text is the manifest as one block, one line per entry.
func (m Manifest) Text() string {
	lines := make([]string, len(m.Entries))
	for i, e := range m.Entries {
		lines[i] = e.Line
	}
	return strings.Join(lines, "\n")
}

// Recalled returns every recalled file of the session in order.
func (r RecallResult) Recalled() []RecalledFile {
	var out []RecalledFile
	for _, q := range r.Queries {
		out = append(out, q.Files...)
	}
	return out
}
