package lint

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// IndexFacts is what lint and prune both need to know about the index.
type IndexFacts struct {
	ix  *model.MemoryIndex
	Cap memindex.IndexCap
	// linked maps a topic file to the first index line linking it.
	Linked map[string]int
	// dangling are entry lines whose target does not exist.
	Dangling []model.IndexLine
	// orphans are topic files no entry links (none when there is no
	// MEMORY.md: the client will backfill it).
	Orphans []*model.MemoryFile
	// long are entry lines over IndexLineMaxChars.
	Long []model.IndexLine
}

// AnalyzeIndex reads the index against the folder's files, each entry
// resolved to the file it names by memindex.Resolver. memFS, when
// given, settles links to files ReadMemoryDir does not list.
func AnalyzeIndex(md *model.MemoryDir, memFS fs.FS) IndexFacts {
	f := IndexFacts{ix: md.Index, Linked: map[string]int{}}
	if md.Index == nil {
		f.Cap = memindex.CapIndex(nil)
		return f
	}
	f.Cap = memindex.CapIndex(md.Index.Bytes())
	res := memindex.NewResolver(md)
	found := func(rel string) bool {
		if res.Exists(rel) {
			return true
		}
		if memFS == nil {
			return false
		}
		_, err := fs.Stat(memFS, rel)
		return !errors.Is(err, fs.ErrNotExist)
	}
	for _, l := range md.Index.Lines {
		target, ok := res.File(l.Entry)
		if !ok {
			continue
		}
		if !found(target) {
			f.Dangling = append(f.Dangling, l)
			continue
		}
		if _, seen := f.Linked[target]; !seen {
			f.Linked[target] = l.Number
		}
		if jsstr.UTF16Len(l.Text) > memindex.LineMaxChars {
			f.Long = append(f.Long, l)
		}
	}
	for _, file := range md.Files {
		if md.IndexPartial {
			// The unread rest of MEMORY.md may link them.
			break
		}
		if _, ok := f.Linked[file.Path]; !ok {
			f.Orphans = append(f.Orphans, file)
		}
	}
	return f
}

// DanglingTarget is what a dangling entry names, as written.
func DanglingTarget(e *model.IndexEntry) string {
	if e.Form == model.EntryLink {
		return e.Target
	}
	return e.Title + ".md"
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (l *linter) lintIndex(f IndexFacts) {
	if f.ix == nil {
		if why := l.md.IndexUnread; why != "" {
			l.add(Finding{Kind: Unreadable, Severity: SevError, Path: model.MemoryIndexName,
				Message: fmt.Sprintf("MEMORY.md %s: memscope did not read it, and writes no MEMORY.md over it (replace it with a regular file yourself)", why)})
			return
		}
		if len(l.md.Files) > 0 {
			b := memindex.BackfillIndex(l.md.Files)
			l.add(Finding{Kind: Orphan, Severity: SevWarning, Path: model.MemoryIndexName,
				Message: fmt.Sprintf("MEMORY.md is missing: at the next session start the client writes one listing %d of the %d topic files (newest first); prune can rebuild it now", b.Lines, len(l.md.Files))})
		}
		return
	}
	if c := f.Cap; c.Truncated {
		var related []string
		for _, d := range c.DroppedEntries {
			related = append(related, cmp.Or(d.Target, d.Title))
		}
		msg := fmt.Sprintf("MEMORY.md is %s: from line %d on nothing loads", memindex.CapReason(c), c.CutFileLine)
		if n := len(c.DroppedEntries); n > 0 {
			msg += fmt.Sprintf("; %s off: %s", format.Count(n, "index entry falls", "index entries fall"), strings.Join(firstN(related, 5), ", "))
			if n > 5 {
				msg += ", …"
			}
		}
		l.add(Finding{Kind: IndexOverCap, Severity: SevError, Path: model.MemoryIndexName, Line: c.CutFileLine, Message: msg, Related: related})
	}
	for _, d := range f.Dangling {
		l.add(Finding{Kind: DanglingLink, Severity: SevError, Path: model.MemoryIndexName, Line: d.Number,
			Message: fmt.Sprintf("index entry %q links %s, which does not exist", d.Entry.Title, DanglingTarget(d.Entry)), Related: []string{DanglingTarget(d.Entry)}})
	}
	for _, ln := range f.Long {
		l.add(Finding{Kind: IndexLineTooLong, Severity: SevInfo, Path: model.MemoryIndexName, Line: ln.Number,
			Message: fmt.Sprintf("index line is %d characters; keep entries under %d (prune can shorten it)", jsstr.UTF16Len(ln.Text), memindex.LineMaxChars)})
	}
	parked := memindex.OverflowLinked(l.md)
	for _, o := range f.Orphans {
		if of, ok := parked[o.Path]; ok {
			// prune's move-overflow put its line there: not a problem the
			// client has, and nothing prune would change.
			l.add(Finding{Kind: Orphan, Severity: SevInfo, Path: o.Path, Related: []string{of},
				Message: fmt.Sprintf("linked from %s, where prune moved its index line because it was past the load cap: the index does not load it, recall can still find it", of)})
			continue
		}
		l.add(Finding{Kind: Orphan, Severity: SevWarning, Path: o.Path,
			Message: "not in MEMORY.md: the index never mentions it, so the model only finds it if recall picks it"})
	}
}
