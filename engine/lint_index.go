package engine

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memscope/memscope/model"
)

// indexFacts is what lint and prune both need to know about the index.
type indexFacts struct {
	ix  *model.MemoryIndex
	cap IndexCap
	// linked maps a topic file to the first index line linking it.
	linked map[string]int
	// dangling are entry lines whose target does not exist.
	dangling []model.IndexLine
	// orphans are topic files no entry links (none when there is no
	// MEMORY.md: the client will backfill it).
	orphans []*model.MemoryFile
	// long are entry lines over IndexLineMaxChars.
	long []model.IndexLine
}

// analyzeIndex reads the index against the folder's files. memFS, when
// given, settles links to files ReadMemoryDir does not list.
func analyzeIndex(md *model.MemoryDir, memFS fs.FS) indexFacts {
	f := indexFacts{ix: md.Index, linked: map[string]int{}}
	if md.Index == nil {
		f.cap = CapIndex(nil)
		return f
	}
	f.cap = CapIndex(md.Index.Bytes())
	exists := map[string]bool{model.MemoryIndexName: true}
	byName := map[string]string{}
	for _, file := range md.Files {
		exists[file.Path] = true
		if file.Name != "" {
			byName[file.Name] = file.Path
		}
	}
	for _, o := range md.Other {
		exists[o] = true
	}
	found := func(rel string) bool {
		if exists[rel] {
			return true
		}
		if memFS == nil {
			return false
		}
		_, err := fs.Stat(memFS, rel)
		return !errors.Is(err, fs.ErrNotExist)
	}
	for _, l := range md.Index.Lines {
		e := l.Entry
		if e == nil {
			continue
		}
		target, ok := "", false
		switch e.Form {
		case model.EntryLink:
			if target, ok = entryTarget(e); !ok {
				continue
			}
		case model.EntryName:
			// The seed form names the memory: by file name or by name.
			target, ok = e.Title+".md", true
			if p, named := byName[e.Title]; named && !exists[target] {
				target = p
			}
		}
		if !found(target) {
			f.dangling = append(f.dangling, l)
			continue
		}
		if _, seen := f.linked[target]; !seen {
			f.linked[target] = l.Number
		}
		if utf16Len(l.Text) > IndexLineMaxChars {
			f.long = append(f.long, l)
		}
	}
	for _, file := range md.Files {
		if _, ok := f.linked[file.Path]; !ok {
			f.orphans = append(f.orphans, file)
		}
	}
	return f
}

func (l *linter) lintIndex(f indexFacts) {
	if f.ix == nil {
		if len(l.md.Files) > 0 {
			b := BackfillIndex(l.md.Files)
			l.add(LintFinding{Kind: LintOrphan, Severity: LintWarning, Path: model.MemoryIndexName,
				Message: fmt.Sprintf("MEMORY.md is missing: at the next session start the client writes one listing %d of the %d topic files (newest first); prune can rebuild it now", b.Lines, len(l.md.Files))})
		}
		return
	}
	if c := f.cap; c.Truncated {
		var related []string
		for _, d := range c.DroppedEntries {
			related = append(related, cmp.Or(d.Target, d.Title))
		}
		msg := fmt.Sprintf("MEMORY.md is %s: from line %d on nothing loads", capReason(c), c.CutFileLine)
		if n := len(c.DroppedEntries); n > 0 {
			msg += fmt.Sprintf("; %d index entries fall off: %s", n, strings.Join(firstN(related, 5), ", "))
			if n > 5 {
				msg += ", …"
			}
		}
		l.add(LintFinding{Kind: LintIndexOverCap, Severity: LintError, Path: model.MemoryIndexName, Line: c.CutFileLine, Message: msg, Related: related})
	}
	for _, d := range f.dangling {
		l.add(LintFinding{Kind: LintDanglingLink, Severity: LintError, Path: model.MemoryIndexName, Line: d.Number,
			Message: fmt.Sprintf("index entry %q links %s, which does not exist", d.Entry.Title, danglingTarget(d.Entry)), Related: []string{danglingTarget(d.Entry)}})
	}
	for _, ln := range f.long {
		l.add(LintFinding{Kind: LintIndexLineTooLong, Severity: LintInfo, Path: model.MemoryIndexName, Line: ln.Number,
			Message: fmt.Sprintf("index line is %d characters; keep entries under %d (prune can shorten it)", utf16Len(ln.Text), IndexLineMaxChars)})
	}
	for _, o := range f.orphans {
		l.add(LintFinding{Kind: LintOrphan, Severity: LintWarning, Path: o.Path,
			Message: "not in MEMORY.md: the index never mentions it, so the model only finds it if recall picks it"})
	}
}

func danglingTarget(e *model.IndexEntry) string {
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
