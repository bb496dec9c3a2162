package export

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// MemoryExportSchema names the JSON structure of a memory export.
const MemoryExportSchema = "memscope.memory-export/v1"

// MemoryExport is a project's auto memory as one document: the MEMORY.md
// index with what the client loads of it, and every topic file grouped by
// type with its age and staleness. It is what `memscope export --memory
// --format json` prints.
type MemoryExport struct {
	Schema     string            `json:"schema"`
	Project    string            `json:"project"`
	MemoryDir  string            `json:"memoryDir"`
	Exists     bool              `json:"exists"`
	ExportedAt time.Time         `json:"exportedAt"`
	Index      MemoryIndexExport `json:"index"`
	// Groups are the topic files by type: user, feedback, project,
	// reference, then untyped; empty groups are left out.
	Groups []MemoryTypeGroup `json:"groups"`
	// Other lists files of the folder that are not memory files.
	Other    []string        `json:"other,omitempty"`
	Problems []model.Problem `json:"problems"`
}

// MemoryIndexExport is MEMORY.md and what the client does with it.
type MemoryIndexExport struct {
	Present bool `json:"present"`
	// Text is the file as read (invalid UTF-8 replaced).
	Text string `json:"text"`
	// Cap is the client's truncation: what loads, the warning, what falls
	// off.
	Cap memindex.IndexCap `json:"cap"`
	// Entries are the index lines that link or name a memory.
	Entries []MemoryIndexEntry `json:"entries"`
	// Backfill is the index the client writes at the next session start
	// when MEMORY.md is missing and topic files exist; BackfillText its
	// text.
	Backfill     *memindex.Backfill `json:"backfill,omitempty"`
	BackfillText string             `json:"backfillText,omitempty"`
}

// MemoryIndexEntry is one index line that points at a memory.
type MemoryIndexEntry struct {
	Line   int    `json:"line"`
	Title  string `json:"title"`
	Target string `json:"target,omitempty"`
	// Loads is false for an entry cut off by the caps (or cut in part).
	Loads bool `json:"loads"`
	// Missing is set when the target names no topic file.
	Missing bool `json:"missing,omitempty"`
}

// MemoryTypeGroup is the topic files of one type.
type MemoryTypeGroup struct {
	Type  model.MemoryType   `json:"type"`
	Files []MemoryFileExport `json:"files"`
}

// MemoryFileExport is one topic file.
type MemoryFileExport struct {
	Path            string           `json:"path"`
	Name            string           `json:"name,omitempty"`
	Description     string           `json:"description,omitempty"`
	Type            model.MemoryType `json:"type"`
	RawType         string           `json:"rawType,omitempty"`
	OriginSessionID string           `json:"originSessionId,omitempty"`
	// Written is when the memory was last written, by Clock.
	Written   time.Time            `json:"written"`
	Clock     memindex.MemoryClock `json:"clock"`
	AgeDays   int                  `json:"ageDays"`
	Staleness memindex.Staleness   `json:"staleness"`
	// FreshnessWarning is what the client puts before the memory when it
	// recalls it (2 days old or more), empty otherwise.
	FreshnessWarning string `json:"freshnessWarning,omitempty"`
	// IndexLine is the MEMORY.md line linking the file, 0 when none does;
	// IndexLoads says whether that line loads.
	IndexLine  int            `json:"indexLine"`
	IndexLoads bool           `json:"indexLoads"`
	Size       int64          `json:"size"`
	Body       string         `json:"body"`
	Invalid    bool           `json:"invalid,omitempty"`
	Problem    *model.Problem `json:"problem,omitempty"`
}

// MemoryExportInput is what BuildMemoryExport works from.
type MemoryExportInput struct {
	Project   string
	MemoryDir string
	Memory    *model.MemoryDir
	Problems  []model.Problem
	Staleness memindex.StalenessThresholds
	Now       time.Time
}

// BuildMemoryExport builds the export of a memory folder as read.
func BuildMemoryExport(in MemoryExportInput) *MemoryExport {
	md := in.Memory
	if md == nil {
		md = &model.MemoryDir{}
	}
	x := &MemoryExport{Schema: MemoryExportSchema, Project: in.Project, MemoryDir: in.MemoryDir, Exists: md.Exists,
		ExportedAt: in.Now.UTC(), Groups: []MemoryTypeGroup{}, Other: md.Other,
		Problems: append([]model.Problem{}, in.Problems...)}
	x.Index.Entries = []MemoryIndexEntry{}
	if md.Index != nil {
		raw := md.Index.Bytes()
		x.Index.Present = true
		x.Index.Text = strings.ToValidUTF8(string(raw), "\uFFFD")
		x.Index.Cap = memindex.CapIndex(raw)
		res := memindex.NewResolver(md)
		files := make(map[string]bool, len(md.Files))
		for _, f := range md.Files {
			files[f.Path] = true
		}
		for _, l := range md.Index.Entries() {
			e := MemoryIndexEntry{Line: l.Number, Title: l.Entry.Title, Target: l.Entry.Target, Loads: x.Index.Cap.Loads(l.Number)}
			rel, ok := res.File(l.Entry)
			e.Missing = !ok || !files[rel]
			x.Index.Entries = append(x.Index.Entries, e)
		}
	} else {
		x.Index.Cap = memindex.CapIndex(nil)
		if len(md.Files) > 0 {
			bf := memindex.BackfillIndex(md.Files)
			x.Index.Backfill, x.Index.BackfillText = &bf, bf.Text
		}
	}
	groups := map[model.MemoryType][]MemoryFileExport{}
	// The per-file facts are the Memories pane's rows (memrows), so the
	// export and the pane agree.
	for _, r := range memrows.Build(memrows.Input{Memory: md, Now: in.Now, Staleness: in.Staleness}) {
		f := r.File
		fe := MemoryFileExport{Path: f.Path, Name: f.Name, Description: f.Description, Type: f.Type, RawType: f.RawType,
			OriginSessionID: f.OriginSessionID, Written: r.Written.UTC(), Clock: r.Clock, AgeDays: r.AgeDays,
			Staleness: r.Staleness, FreshnessWarning: memindex.FreshnessWarning(r.AgeDays),
			IndexLine: r.IndexLine, IndexLoads: r.Loaded,
			Size: f.Size, Body: strings.ToValidUTF8(f.Body, "\uFFFD"), Invalid: f.Invalid, Problem: f.Problem}
		groups[f.Type] = append(groups[f.Type], fe)
	}
	for _, t := range append(append([]model.MemoryType{}, model.MemoryTypes...), model.TypeUntyped) {
		if fs := groups[t]; len(fs) > 0 {
			sort.SliceStable(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
			x.Groups = append(x.Groups, MemoryTypeGroup{Type: t, Files: fs})
		}
	}
	return x
}

// MemoryStore exports the memory folder a store has read, for the
// project at project: the call behind the Memories pane's "export
// memory". th are the staleness thresholds the user set (nil: the
// defaults), so the export's badges are the pane's.
func MemoryStore(s *store.Store, project string, format Format, now time.Time, th memindex.StalenessThresholds) ([]byte, error) {
	if s == nil {
		return nil, fmt.Errorf("export memory of %s: no memory store", project)
	}
	x := BuildMemoryExport(MemoryExportInput{Project: project, MemoryDir: s.Dir(), Memory: s.Memory(), Problems: s.Problems(), Now: now, Staleness: th})
	return RenderMemoryExport(x, format)
}

// RenderMemoryExport renders x as Markdown or JSON.
func RenderMemoryExport(x *MemoryExport, format Format) ([]byte, error) {
	switch format {
	case Markdown:
		return RenderMemoryMarkdown(x), nil
	case JSON:
		return marshalExport(x)
	}
	return nil, fmt.Errorf("memory export: format %q is not supported (want md or json)", format)
}

// memoryTypeTitle is a group's heading.
func memoryTypeTitle(t model.MemoryType) string {
	switch t {
	case model.TypeUser:
		return "User memories"
	case model.TypeFeedback:
		return "Feedback memories"
	case model.TypeProject:
		return "Project memories"
	case model.TypeReference:
		return "Reference memories"
	}
	return "Untyped memories"
}

// RenderMemoryMarkdown renders x as one Markdown document.
func RenderMemoryMarkdown(x *MemoryExport) []byte {
	w := &mdWriter{}
	w.heading(1, "Claude Code memory of "+x.Project)
	counts := []string{}
	total := 0
	for _, g := range x.Groups {
		counts = append(counts, string(g.Type)+" "+strconv.Itoa(len(g.Files)))
		total += len(g.Files)
	}
	w.line("| | |")
	w.line("|---|---|")
	for _, f := range []fact{
		{"Project", x.Project},
		{"Memory folder", x.MemoryDir},
		{"Topic files", strconv.Itoa(total) + " (" + strings.Join(counts, " · ") + ")"},
		{"Exported", exportTime(x.ExportedAt) + " by memscope"},
	} {
		w.line("| ", mdEscape(f.key), " | ", mdEscape(f.value), " |")
	}
	w.blank()
	if !x.Exists {
		w.line("*The memory folder does not exist yet: this project has no auto memory.*")
		w.blank()
	}
	w.memoryIndex(&x.Index)
	for _, g := range x.Groups {
		w.heading(2, memoryTypeTitle(g.Type)+" ("+strconv.Itoa(len(g.Files))+")")
		for i := range g.Files {
			w.memoryFile(&g.Files[i])
		}
	}
	w.bullets("Other files in the folder", x.Other)
	w.problems("Problems reading the memory", x.Problems)
	return []byte(w.b.String())
}

func (w *mdWriter) memoryIndex(ix *MemoryIndexExport) {
	w.heading(2, "MEMORY.md (the index)")
	c := ix.Cap
	switch {
	case !ix.Present && ix.Backfill != nil:
		w.line("*There is no MEMORY.md. At the next session start the client writes this one from the topic files (newest first):*")
		w.blank()
		w.fenced("markdown", ix.BackfillText)
		return
	case !ix.Present:
		w.line("*There is no MEMORY.md and no topic file.*")
		w.blank()
		return
	case !c.Truncated:
		w.line("*", format.Count(c.Lines, "line", "lines"), ", ", groupDigits(int64(c.Chars)), " characters: all of it loads at session start (room for ",
			strconv.Itoa(c.RoomLines), " more lines and ", groupDigits(int64(c.RoomChars)), " more characters).*")
		w.blank()
		w.fenced("markdown", ix.Text)
		return
	}
	lines := strings.SplitAfter(ix.Text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the final newline ends a line, it starts none
	}
	cut := min(max(c.CutFileLine-1, 0), len(lines))
	w.line("*", strconv.Itoa(c.Lines), " lines, ", groupDigits(int64(c.Chars)), " characters: over the caps (",
		strconv.Itoa(memindex.MaxLines), " lines, ", groupDigits(memindex.MaxChars), " characters). The client loads up to line ",
		strconv.Itoa(cut), " and appends this warning:*")
	w.blank()
	w.fenced("text", c.Warning)
	if cut > 0 {
		w.heading(3, "Loaded: lines 1–"+strconv.Itoa(cut))
		w.fenced("markdown", strings.Join(lines[:cut], ""))
	} else {
		w.line("*Line 1 alone is over the character cap: only its start loads.*")
		w.blank()
	}
	w.heading(3, "Cut off: lines "+strconv.Itoa(cut+1)+"–"+strconv.Itoa(len(lines))+" (not loaded)")
	w.fenced("markdown", strings.Join(lines[cut:], ""))
	if len(c.DroppedEntries) > 0 {
		w.line("Entries that fall off:")
		w.blank()
		for _, d := range c.DroppedEntries {
			s := "line " + strconv.Itoa(d.Line) + ": " + d.Title
			if d.Target != "" {
				s += " (" + d.Target + ")"
			}
			if d.Partial {
				s += ", in part"
			}
			w.line("- ", mdEscape(s))
		}
		w.blank()
	}
}

func (w *mdWriter) memoryFile(f *MemoryFileExport) {
	title := f.Name
	if title == "" {
		title = strings.TrimSuffix(path.Base(f.Path), ".md")
	}
	w.heading(3, title+" — "+f.Path)
	item := func(k, v string) { w.line("- ", k, ": ", mdEscape(v)) }
	if f.Description != "" {
		item("description", f.Description)
	}
	typ := string(f.Type)
	if f.RawType != "" && f.RawType != typ {
		typ += " (written as " + f.RawType + ")"
	}
	item("type", typ)
	item("last written", exportTime(f.Written)+" ("+string(f.Clock)+")")
	item("age", format.Count(f.AgeDays, "day", "days")+", "+string(f.Staleness))
	switch {
	case f.IndexLine == 0:
		item("index", "not linked from MEMORY.md")
	case f.IndexLoads:
		item("index", "MEMORY.md line "+strconv.Itoa(f.IndexLine)+", loads")
	default:
		item("index", "MEMORY.md line "+strconv.Itoa(f.IndexLine)+", cut off by the caps (not loaded)")
	}
	if f.Invalid && f.Problem != nil {
		item("problem", f.Problem.Reason)
	}
	w.blank()
	if f.FreshnessWarning != "" {
		w.line("> ", mdEscape("Recalled with: "+f.FreshnessWarning))
		w.blank()
	}
	w.fenced("markdown", strings.Trim(f.Body, "\r\n"))
}
