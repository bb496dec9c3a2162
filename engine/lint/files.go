package lint

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/engine/memindex"
	secscan "github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// RecallMaxBytes and RecallMaxLines are how much of a recalled file the
// client shows; the guidance is to keep each memory under them.
const (
	RecallMaxBytes = 4096
	RecallMaxLines = 200
)

// bodyLine is the file line the body of f starts on.
func bodyLine(f *model.MemoryFile) int {
	raw := f.Raw()
	if len(f.Body) > len(raw) {
		return 1
	}
	return strings.Count(string(raw[:len(raw)-len(f.Body)]), "\n") + 1
}

func safeOr(name string) string {
	if s, err := memindex.SafeMemoryName(name); err == nil {
		return s
	}
	return name
}

// DupeDocs are the readable memories as texts to compare.
func DupeDocs(md *model.MemoryDir) []DupeDoc {
	var docs []DupeDoc
	for _, f := range md.Files {
		if f.Invalid {
			continue
		}
		if text := strings.TrimSpace(f.Description + "\n" + f.Body); text != "" {
			docs = append(docs, DupeDoc{Path: f.Path, Text: dupeText(text)})
		}
	}
	return docs
}

// lintFiles checks each topic file on its own.
func (l *linter) lintFiles() {
	names := map[string]bool{}
	for _, f := range l.md.Files {
		if f.Name != "" {
			names[f.Name] = true
		}
	}
	for _, f := range l.md.Files {
		l.lintFrontmatter(f)
		if lines := strings.Count(string(f.Raw()), "\n"); f.Size > RecallMaxBytes || lines > RecallMaxLines {
			sev, why := SevWarning, "split it or move detail out"
			if memindex.IsOverflowFile(f) {
				// prune wrote it to hold what never loaded; a warning
				// would ask to undo that.
				sev, why = SevInfo, "it holds the index lines prune moved out of MEMORY.md, which never loaded anyway"
			}
			l.add(Finding{Kind: TooLong, Severity: sev, Path: f.Path,
				Message: fmt.Sprintf("%d bytes, %d lines: when recalled, the client shows only the first %d bytes / %d lines; %s", f.Size, lines, RecallMaxBytes, RecallMaxLines, why)})
		}
		start := bodyLine(f)
		for _, link := range memindex.FindWikiLinks(f.Body) {
			if !names[link.Name] {
				l.add(Finding{Kind: BrokenLink, Severity: SevInfo, Path: f.Path, Line: start + link.Line - 1,
					Message: fmt.Sprintf("[[%s]] names no memory (the client allows it, but the link leads nowhere)", link.Name), Related: []string{link.Name}})
			}
		}
		if f.Invalid {
			continue
		}
		if a := l.in.Staleness.Age(f, l.in.Now); a.Staleness == memindex.StalenessStale {
			lim, ok := l.in.Staleness[f.Type]
			if !ok {
				lim = l.in.Staleness[model.TypeUntyped]
			}
			l.add(Finding{Kind: Stale, Severity: SevWarning, Path: f.Path,
				Message: fmt.Sprintf("%s memory is %d days old by %s (stale from %d days): check it still holds, or archive it", f.Type, a.Days, a.Clock, lim.StaleDays)})
		}
	}
}

func (l *linter) lintFrontmatter(f *model.MemoryFile) {
	switch {
	case f.Invalid:
		p := f.Problem
		l.add(Finding{Kind: InvalidFrontmatter, Severity: SevError, Path: f.Path, Line: p.Line,
			Message: p.Reason + ": the client cannot read its name, description or type"})
		return
	case f.Form == model.FormNone:
		l.add(Finding{Kind: MissingFrontmatter, Severity: SevWarning, Path: f.Path, Line: 1,
			Message: "no frontmatter: no name, description or type, so recall lists it without a description"})
		return
	}
	var missing []string
	if f.Name == "" {
		missing = append(missing, "name")
	}
	if f.Description == "" {
		missing = append(missing, "description")
	}
	if len(missing) > 0 {
		l.add(Finding{Kind: MissingFrontmatter, Severity: SevWarning, Path: f.Path, Line: 1,
			Message: "frontmatter has no " + strings.Join(missing, " and ") + " (the client expects both, non-empty)"})
	}
	switch {
	case f.RawType == "":
		l.add(Finding{Kind: UnknownType, Severity: SevWarning, Path: f.Path, Line: 1,
			Message: "no type: the client reads it as untyped; set one of user, feedback, project, reference"})
	case f.Type == model.TypeUntyped:
		l.add(Finding{Kind: UnknownType, Severity: SevWarning, Path: f.Path, Line: 1,
			Message: fmt.Sprintf("unknown type %q: the client reads it as untyped; use one of user, feedback, project, reference", f.RawType)})
	}
	// The client does not name files after name (it picks the file name
	// itself and never compares them), so a difference costs nothing: on a
	// file the client stamped (originSessionId, node_type), or in a folder
	// it never stamps (agent memory), it is its own convention and not
	// reported; elsewhere it is info, memscope's naming
	// (n and r write <type>_<name>.md) offered for consistency.
	if f.Name != "" && !l.in.Unstamped && !clientStamped(f) && !memindex.NameMatchesFile(f.Path, f.Name, f.Type) {
		l.add(Finding{Kind: NameMismatch, Severity: SevInfo, Path: f.Path, Line: 1,
			Message: fmt.Sprintf("name %q differs from the file name (memscope would name it %s); the client does not mind, rename only for tidiness", f.Name, memindex.MemoryFileName(f.Type, safeOr(f.Name)))})
	}
}

func (l *linter) lintDuplicates(facts IndexFacts) []DuplicatePair {
	var pairs []DuplicatePair
	if l.in.Only != "" {
		pairs = findDuplicatesOf(DupeDocs(l.md), l.in.Only, l.in.DuplicateThreshold)
	} else {
		pairs = l.in.Memo.findDupes(DupeDocs(l.md), l.in.DuplicateThreshold)
	}
	for _, p := range pairs {
		l.add(Finding{Kind: Duplicate, Severity: SevWarning, Path: p.A, Related: []string{p.B},
			Message: fmt.Sprintf("near-duplicate of %s (similarity %.2f), both say “%s”; merge them (prune can)", p.B, p.Similarity, strings.Join(strings.Fields(strings.ReplaceAll(p.Shared, "**", "")), " "))})
		l.lintCorrectionBelowCut(facts, p)
	}
	if pairs == nil {
		pairs = []DuplicatePair{}
	}
	return pairs
}

// lintCorrectionBelowCut reports a near-duplicate pair where the newer
// memory is linked only past MEMORY.md's cut and the older one loads: the
// newest correction is the one the model never sees.
func (l *linter) lintCorrectionBelowCut(facts IndexFacts, p DuplicatePair) {
	if !facts.Cap.Truncated {
		return
	}
	for _, pair := range [2][2]string{{p.A, p.B}, {p.B, p.A}} {
		cut, kept := pair[0], pair[1]
		cutLine, cutLinked := facts.Linked[cut]
		keptLine, keptLinked := facts.Linked[kept]
		if !cutLinked || !keptLinked || facts.Cap.Loads(cutLine) || !facts.Cap.Loads(keptLine) {
			continue
		}
		cf, kf := l.md.File(cut), l.md.File(kept)
		if cf == nil || kf == nil {
			continue
		}
		ct, _ := memindex.MemoryTime(cf)
		kt, _ := memindex.MemoryTime(kf)
		if !ct.After(kt) {
			continue
		}
		l.add(Finding{Kind: CorrectionBelowCut, Severity: SevError, Path: cut, Related: []string{kept, fmt.Sprintf("%s:%d", model.MemoryIndexName, cutLine)},
			Message: fmt.Sprintf("newer than its near-duplicate %s (similarity %.2f, written %s vs %s), but its index line %d is past the cut (line %d): "+
				"the model reads the older %s and never this correction; move the line above the cut or merge the two (prune can)",
				kept, p.Similarity, ct.UTC().Format("2006-01-02"), kt.UTC().Format("2006-01-02"), cutLine, facts.Cap.CutFileLine, kept)})
	}
}

func (l *linter) lintDrift() DriftResult {
	var docs []DupeDoc
	if l.md.Index != nil {
		docs = append(docs, DupeDoc{Path: model.MemoryIndexName, Text: string(l.md.Index.Bytes())})
	}
	for _, f := range l.md.Files {
		docs = append(docs, DupeDoc{Path: f.Path, Text: string(f.Raw())})
	}
	res := CheckDrift(l.in.Project, docs, l.in.Drift)
	for _, m := range res.Missing {
		f := Finding{Kind: Drift, Severity: SevWarning, Path: m.Doc, Line: m.Ref.Line, Related: []string{m.Ref.Text}}
		switch m.Ref.Kind {
		case RefPath:
			f.Message = fmt.Sprintf("names %s, which is not in the project any more: the memory may be outdated", m.Ref.Text)
		default:
			f.Severity = SevInfo
			f.Message = fmt.Sprintf("names `%s`, found nowhere in the project: renamed or removed?", m.Ref.Text)
		}
		l.add(f)
	}
	if res.Truncated {
		l.add(Finding{Kind: Drift, Severity: SevInfo,
			Message: fmt.Sprintf("drift search stopped after %d files (%d bytes); %d identifiers were not checked", res.Files, res.Bytes, res.Unchecked)})
	}
	return res
}

// lintScan runs the security scan over everything the client reads.
func (l *linter) lintScan() {
	var files []scanFile
	only := func(p string) bool { return l.in.Only == "" || l.in.Only == p }
	if l.md.Index != nil && only(model.MemoryIndexName) {
		files = append(files, scanFile{model.MemoryIndexName, l.md.Index.Bytes()})
	}
	for _, f := range l.md.Files {
		if only(f.Path) {
			files = append(files, scanFile{f.Path, f.Raw()})
		}
	}
	for i, found := range l.in.Memo.scanFiles(files) {
		for _, fd := range found {
			l.add(SecurityFinding(files[i].path, fd))
		}
	}
}

// SecurityFinding is the lint finding of a security scan finding in the
// file at path (its message holds the scan's redacted excerpt, never a
// secret in full). The gate reports a CLAUDE.md's scan findings with it.
func SecurityFinding(path string, fd secscan.Finding) Finding {
	sev := SevInfo
	switch fd.Severity {
	case secscan.SeverityHigh:
		sev = SevError
	case secscan.SeverityMedium:
		sev = SevWarning
	}
	return Finding{Kind: Security, Severity: sev, Path: path, Line: fd.Line, Rule: fd.Rule, Category: fd.Category,
		Message: fmt.Sprintf("%s (%s): %s", fd.Message, fd.Rule, fd.Excerpt)}
}

// lintProblems reports what could not be read (bad frontmatter is already
// reported per file).
func (l *linter) lintProblems() {
	for _, p := range l.in.Problems {
		if p.Kind == model.ProblemInvalidFrontmatter {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.File, l.md.Dir), "/")
		l.add(Finding{Kind: Unreadable, Severity: SevWarning, Path: rel, Line: p.Line, Message: p.Reason})
	}
}

// clientStamped reports whether the client wrote f: it stamps the
// frontmatter's metadata with node_type: memory and originSessionId.
func clientStamped(f *model.MemoryFile) bool {
	return f.OriginSessionID != "" || f.Metadata["node_type"] == "memory"
}
