package store

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

// planner builds the actions of a plan.
type planner struct {
	md      *model.MemoryDir
	o       PruneOptions
	facts   lint.IndexFacts
	actions []PruneAction
	// merged are files a merge removes; isStale are files past their age.
	merged  map[string]bool
	isStale map[string]bool
}

// shortenIndexLine cuts an entry's hook with "…" so the line fits
// IndexLineMaxChars, as the client's backfill cuts descriptions.
func shortenIndexLine(text string) (string, bool) {
	e := model.ParseIndexEntry(text)
	if e == nil || e.Hook == "" || !strings.HasSuffix(text, e.Hook) {
		return "", false
	}
	prefix := text[:len(text)-len(e.Hook)]
	room := memindex.LineMaxChars - jsstr.UTF16Len(prefix)
	u := jsstr.Units(e.Hook)
	if room < 2 || len(u) <= room {
		return "", false
	}
	cut := room - 1
	if u[cut-1] >= 0xD800 && u[cut-1] < 0xDC00 {
		cut--
	}
	return prefix + strings.TrimRightFunc(jsstr.FromUnits(u[:cut]), jsstr.IsSpace) + "…", true
}

// indexSections splits the index at its headings: [first, last] line
// numbers of each section; the first section is what comes before the
// second heading.
func indexSections(ix *model.MemoryIndex) [][2]int {
	var secs [][2]int
	start := 1
	for _, l := range ix.Lines {
		if l.Number > 1 && isHeading(l.Text) {
			secs = append(secs, [2]int{start, l.Number - 1})
			start = l.Number
		}
	}
	return append(secs, [2]int{start, len(ix.Lines)})
}

func isHeading(s string) bool {
	t := strings.TrimLeft(s, "#")
	return len(t) < len(s) && len(s)-len(t) <= 6 && (t == "" || t[0] == ' ' || t[0] == '\t')
}

func (pl *planner) add(a PruneAction) { pl.actions = append(pl.actions, a) }

func (pl *planner) rebuild() {
	if len(pl.md.Files) == 0 {
		return
	}
	b := memindex.BackfillIndex(pl.md.Files)
	text := []byte(b.Text)
	pl.add(PruneAction{ID: "rebuild", Kind: PruneRebuild, Paths: []string{model.MemoryIndexName},
		Summary: fmt.Sprintf("write the missing MEMORY.md as the client's backfill would (%d of %d topic files)", b.Lines, len(pl.md.Files)),
		run:     func(st *pruneState) error { st.rebuilt = text; return nil }})
}

// merges proposes one merge per near-duplicate pair. The memory kept is
// the one in the index, else the newer one; a memory merged away in one
// pair is not used again.
func (pl *planner) merges() {
	for _, pair := range pl.o.Dupes.Find(lint.DupeDocs(pl.md), pl.o.DuplicateThreshold) {
		a, b := pl.md.File(pair.A), pl.md.File(pair.B)
		if pl.merged[a.Path] || pl.merged[b.Path] {
			continue
		}
		keep, drop := a, b
		_, aIn := pl.facts.Linked[a.Path]
		_, bIn := pl.facts.Linked[b.Path]
		ta, _ := memindex.MemoryTime(a)
		tb, _ := memindex.MemoryTime(b)
		if bIn && !aIn || aIn == bIn && tb.After(ta) {
			keep, drop = b, a
		}
		pl.merged[drop.Path] = true
		why := "newer"
		if aIn != bIn {
			why = "in the index"
		}
		summary := fmt.Sprintf("merge %s into %s (similarity %.2f): keep %s (%s), move %s to the trash", drop.Path, keep.Path, pair.Similarity, keep.Path, why, drop.Path)
		if drop.Name != "" && keep.Name != "" && drop.Name != keep.Name {
			summary += fmt.Sprintf(", [[%s]] links become [[%s]]", drop.Name, keep.Name)
		}
		if _, in := pl.facts.Linked[drop.Path]; in {
			summary += ", its index line links the one kept"
		}
		pl.add(PruneAction{ID: "merge:" + drop.Path, Kind: PruneMerge, Paths: []string{keep.Path, drop.Path},
			Summary: summary, run: pl.mergeRun(keep, drop)})
	}
}

func (pl *planner) mergeRun(keep, drop *model.MemoryFile) func(*pruneState) error {
	dropLine, dropIn := pl.facts.Linked[drop.Path]
	_, keepIn := pl.facts.Linked[keep.Path]
	return func(st *pruneState) error {
		if _, ok, err := st.w.get(drop.Path); err != nil || !ok {
			return err
		}
		to, err := st.w.trashPath(drop.Path, st.now)
		if err != nil {
			return err
		}
		if err := st.w.move(drop.Path, to); err != nil {
			return err
		}
		if drop.Name != "" && keep.Name != "" && drop.Name != keep.Name {
			for _, f := range pl.md.Files {
				if f.Path == drop.Path || !strings.Contains(f.Body, "[["+drop.Name) {
					continue
				}
				data, ok, err := st.w.get(f.Path)
				if err != nil || !ok {
					return err
				}
				cur, _ := model.ParseMemoryFile(f.Path, data)
				if err := st.w.put(f.Path, rewriteBodyLinks(data, cur.Body, drop.Name, keep.Name)); err != nil {
					return err
				}
			}
		}
		if dropIn && !keepIn && st.ix != nil {
			st.replace[dropLine] = entryLineFor(keep)
		}
		return nil
	}
}

// stale proposes archiving (or deleting) every stale memory.
func (pl *planner) stale() {
	for _, f := range pl.md.Files {
		if pl.merged[f.Path] {
			continue
		}
		a := pl.o.Staleness.Age(f, pl.o.Now)
		if a.Staleness != memindex.StalenessStale {
			continue
		}
		age := a.Days
		pl.isStale[f.Path] = true
		rel := f.Path
		if pl.o.StaleAction == PruneDelete {
			pl.add(PruneAction{ID: "delete:" + rel, Kind: PruneDelete, Paths: []string{rel},
				Summary: fmt.Sprintf("delete %s (%s, %d days old%s) to the trash, with its index line", rel, f.Type, age, pl.o.loadedNote(rel)),
				run: func(st *pruneState) error {
					to, err := st.w.trashPath(rel, st.now)
					if err != nil {
						return err
					}
					if err := st.w.move(rel, to); err != nil || st.ix == nil {
						return err
					}
					// finish drops its index lines; the note lets a
					// restore from the trash put them back.
					return st.w.noteIndexLines(st.ix, rel, to)
				}})
			continue
		}
		pl.add(PruneAction{ID: "archive:" + rel, Kind: PruneArchive, Paths: []string{rel},
			Summary: fmt.Sprintf("archive %s (%s, %d days old%s) to %s/, where the client no longer reads it, with its index line", rel, f.Type, age, pl.o.loadedNote(rel), ArchiveDir),
			run: func(st *pruneState) error {
				to, err := st.w.freePath(path.Join(ArchiveDir, rel))
				if err != nil {
					return err
				}
				return st.w.move(rel, to)
			}})
	}
}

// freePath is p, or p with "-2", "-3"… before the extension when taken.
func (w *workset) freePath(p string) (string, error) {
	ext := path.Ext(p)
	for n := 1; n < 100; n++ {
		c := p
		if n > 1 {
			c = strings.TrimSuffix(p, ext) + "-" + strconv.Itoa(n) + ext
		}
		_, exists, err := w.get(c)
		if err != nil {
			return "", err
		}
		if !exists {
			return c, nil
		}
	}
	return "", fmt.Errorf("no free name for %s", p)
}

func (pl *planner) dangling() {
	for _, l := range pl.facts.Dangling {
		n := l.Number
		pl.add(PruneAction{ID: "drop:" + strconv.Itoa(n), Kind: PruneDropDangling, Paths: []string{model.MemoryIndexName},
			Summary: fmt.Sprintf("drop index line %d: it links %s, which does not exist", n, lint.DanglingTarget(l.Entry)),
			run:     func(st *pruneState) error { st.drop[n] = true; return nil }})
	}
}

// orphans proposes indexing the topic files no entry links, except those
// a merge removes or that are stale (archiving is proposed instead).
func (pl *planner) orphans() {
	// Files an overflow file links are parked there on purpose
	// (memindex.OverflowLinked): their lines would only overflow again.
	parked := memindex.OverflowLinked(pl.md)
	for _, f := range pl.facts.Orphans {
		if _, isParked := parked[f.Path]; pl.merged[f.Path] || pl.isStale[f.Path] || isParked || !memindex.LinkableName(f.Path) {
			// A name the client's backfill skips gets no index line here
			// either: it would split MEMORY.md's line or break the link.
			continue
		}
		line := entryLineFor(f)
		pl.add(PruneAction{ID: "index:" + f.Path, Kind: PruneIndexOrphan, Paths: []string{f.Path},
			Summary: fmt.Sprintf("add %s to the index: %s", f.Path, line),
			run:     func(st *pruneState) error { st.inserts = append(st.inserts, line); return nil }})
	}
}

func (pl *planner) shorten() {
	for _, l := range pl.facts.Long {
		short, ok := shortenIndexLine(l.Text)
		if !ok {
			continue
		}
		n := l.Number
		pl.add(PruneAction{ID: "shorten:" + strconv.Itoa(n), Kind: PruneShorten, Paths: []string{model.MemoryIndexName},
			Summary: fmt.Sprintf("shorten index line %d from %d to %d characters", n, jsstr.UTF16Len(l.Text), jsstr.UTF16Len(short)),
			run:     func(st *pruneState) error { st.replace[n] = short; return nil }})
	}
}

// overflow proposes moving what does not load out of MEMORY.md: first
// every section (a heading and what follows it, up to the next heading)
// that holds no index entry, apart from the opening one; then, if the
// rest is still over the cap, everything from where it stops loading
// whole with the link to the new file after it. The lines go verbatim
// into a new topic file, linked from the index, so one pass converges: the
// index then loads whole, and orphans() leaves the files the moved lines
// link where they are.
func (pl *planner) overflow() {
	ix := pl.md.Index
	if !pl.facts.Cap.Truncated {
		return
	}
	moved := map[int]bool{}
	for _, sec := range indexSections(ix)[1:] {
		entries, text := false, false
		for n := sec[0]; n <= sec[1]; n++ {
			l := ix.Lines[n-1]
			entries = entries || l.Entry != nil && l.Entry.Form == model.EntryLink
			text = text || n > sec[0] && strings.TrimSpace(l.Text) != ""
		}
		if !entries && text {
			for n := sec[0]; n <= sec[1]; n++ {
				moved[n] = true
			}
		}
	}
	var rest strings.Builder
	var restLines []int
	for _, l := range ix.Lines {
		if !moved[l.Number] {
			rest.WriteString(l.Text + "\n")
			restLines = append(restLines, l.Number)
		}
	}
	// The rest gets one more line, the link to the overflow file; it
	// must load too, or the next plan would move it again. So the cut is
	// taken with that line in place (a generous stand-in: the real one
	// names the file freePath picks).
	linkRoom := "- [" + strings.Repeat("x", 40) + "](" + strings.Repeat("x", 40) + ".md) — " + memindex.OverflowDescription
	if memindex.CapIndex([]byte(rest.String())).Truncated || len(moved) > 0 {
		// Keep the longest head of the rest that loads whole with the
		// link after it.
		keep := len(restLines)
		if c := memindex.CapIndex([]byte(rest.String() + linkRoom + "\n")); c.Truncated {
			keep = min(keep, max(c.CutFileLine-1, 0)) // nothing from the cut on loads
		}
		for keep > 0 {
			var b strings.Builder
			for _, n := range restLines[:keep] {
				b.WriteString(ix.Lines[n-1].Text + "\n")
			}
			if !memindex.CapIndex([]byte(b.String() + linkRoom + "\n")).Truncated {
				break
			}
			keep--
		}
		for _, n := range restLines[keep:] {
			moved[n] = true
		}
	}
	var lines []string
	var nums []int
	for _, l := range ix.Lines {
		if moved[l.Number] {
			lines = append(lines, l.Text)
			nums = append(nums, l.Number)
		}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return
	}
	first := shortText(strings.TrimLeft(lines[0], "# "))
	if utf8.RuneCountInString(first) > 40 {
		first = string([]rune(first)[:39]) + "…"
	}
	pl.add(PruneAction{ID: "overflow", Kind: PruneOverflow, Paths: []string{model.MemoryIndexName},
		Summary: fmt.Sprintf("move %d lines past the cap (from line %d, %q) out of MEMORY.md into a topic file linked from the index", len(lines), nums[0], first),
		run: func(st *pruneState) error {
			rel, err := st.w.freePath(memindex.MemoryFileName(model.TypeProject, "index-overflow"))
			if err != nil {
				return err
			}
			name := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(rel, "project_"), ".md"), "_", "-")
			body := fmt.Sprintf("Moved out of MEMORY.md by memscope on %s: these lines were past the client's load cap (%d lines / %d characters), so they never reached the model.\n\n%s\n",
				st.now.UTC().Format("2006-01-02"), memindex.MaxLines, memindex.MaxChars, strings.Join(lines, "\n"))
			data, err := memoryFileText(st.unstamped, name, memindex.OverflowDescription, model.TypeProject, "", st.now, body)
			if err != nil {
				return err
			}
			if err := st.w.create(rel, data); err != nil {
				return err
			}
			for _, n := range nums {
				st.drop[n] = true
			}
			f, _ := model.ParseMemoryFile(rel, data)
			st.inserts = append(st.inserts, entryLineFor(f))
			return nil
		}})
}
