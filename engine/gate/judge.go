package gate

import (
	"cmp"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// Fired is one rule that fired on a call.
type Fired struct {
	Rule     Rule     `json:"rule"`
	Decision Decision `json:"decision"`
	// Line is the line of the file after the call (0: the whole file).
	Line int `json:"line,omitempty"`
	// Message is what the model (deny) or the user (ask) reads: what is
	// wrong and what to do instead. It never holds a secret in full.
	Message string `json:"message"`
	// Finding is the lint finding the rule read, when one did.
	Finding *lint.Finding `json:"-"`
}

// Verdict is the gate's answer for a call.
type Verdict struct {
	Decision Decision `json:"decision"`
	Fired    []Fired  `json:"fired"`
	// Findings are lint's findings on the file after the call that the
	// gate judged (the same checks `memscope lint` runs, on the same text).
	Findings []lint.Finding `json:"-"`
}

// Reason is what the client passes on: the messages of the rules that
// decided, one per line, headed by memscope's name.
func (v Verdict) Reason() string {
	var msgs []string
	for _, f := range v.Fired {
		if f.Decision == v.Decision {
			msgs = append(msgs, f.Message)
		}
	}
	return "memscope gate: " + strings.Join(msgs, "\n")
}

// decide sets the verdict's decision from its fired rules: the strongest.
func (v *Verdict) decide() {
	v.Decision = Allow
	for _, f := range v.Fired {
		if f.Decision.rank() > v.Decision.rank() {
			v.Decision = f.Decision
		}
	}
}

// MemoryInput is a call on a memory file to judge.
type MemoryInput struct {
	Target Target
	// Memory is the target's folder as it is on disk (model.ReadMemoryDir
	// of Target.Dir, names relative to it); MemoryFS reads that folder.
	Memory   *model.MemoryDir
	MemoryFS fs.FS
	// Before is the file on disk (Existed false when there is none);
	// After the file once the call ran (After).
	Before  []byte
	Existed bool
	After   []byte
	Now     time.Time
	Policy  Policy
}

// JudgeMemory judges a write to a memory folder: the folder with the
// target replaced by the call's result goes through lint.Run (the checks
// `memscope lint` makes), and the findings about the call's own text
// become rules.
func JudgeMemory(in MemoryInput) Verdict {
	if in.Policy == nil {
		in.Policy = DefaultPolicy()
	}
	md := withWrite(in.Memory, in.Target, in.After, in.Now)
	// Only the call's file: the findings the gate judges (Judges) are
	// about it, or near-duplicates it is part of.
	rep := lint.Run(lint.Input{Memory: md, MemoryFS: in.MemoryFS, Now: in.Now, Unstamped: in.Target.Unstamped, Only: in.Target.Rel})
	changed := changedLines(in.Before, in.After, in.Existed)
	v := Verdict{Fired: []Fired{}, Findings: []lint.Finding{}}
	fire := func(r Rule, line int, msg string, f *lint.Finding) {
		v.Fired = append(v.Fired, Fired{Rule: r, Decision: in.Policy.Of(r), Line: line, Message: msg, Finding: f})
	}
	name := in.Target.Rel
	for i := range rep.Findings {
		f := &rep.Findings[i]
		if !Judges(*f, name) {
			continue
		}
		v.Findings = append(v.Findings, *f)
		switch f.Kind {
		case lint.Security:
			if f.Line > 0 && !changed[f.Line] {
				continue
			}
			fire(scanRule(f.Category), f.Line, securityMessage(name, *f), f)
		case lint.Duplicate:
			other := f.Related[0]
			if f.Path != name {
				other = f.Path
			}
			// lint says "near-duplicate of B (similarity S), both say “…”;
			// merge them (prune can)": keep the similarity and the words.
			why := strings.TrimSuffix(strings.TrimPrefix(f.Message, "near-duplicate of "+f.Related[0]+" "), "; merge them (prune can)")
			fire(RuleNearDuplicate, 0, fmt.Sprintf("%s would nearly duplicate %s %s: merge into %s instead of writing a second memory",
				name, other, why, other), f)
		case lint.InvalidFrontmatter, lint.MissingFrontmatter, lint.UnknownType:
			fire(RuleFrontmatter, f.Line, fmt.Sprintf("%s: %s", name, f.Message), f)
		case lint.DanglingLink:
			if changed[f.Line] {
				fire(RuleDanglingLink, f.Line, fmt.Sprintf("MEMORY.md line %d: %s; write that file first, or link an existing one", f.Line, f.Message), f)
			}
		}
	}
	if in.Target.Kind == KindIndex {
		judgeCap(in, rep, changed, fire)
	}
	v.decide()
	return v
}

// Judges reports whether the gate judges lint finding f for a call on the
// file name (relative to its memory folder): the findings about that
// file's text, and the near-duplicates it is part of. The others (orphans,
// staleness, drift, other files' problems) are not the call's doing.
func Judges(f lint.Finding, name string) bool {
	switch f.Kind {
	case lint.Duplicate:
		return f.Path == name || slices.Contains(f.Related, name)
	case lint.Security, lint.InvalidFrontmatter, lint.MissingFrontmatter, lint.UnknownType, lint.DanglingLink, lint.IndexOverCap:
		return f.Path == name
	}
	return false
}

// withWrite is md with the target as the call leaves it.
func withWrite(md *model.MemoryDir, t Target, after []byte, now time.Time) *model.MemoryDir {
	if md == nil {
		md = &model.MemoryDir{}
	}
	out := *md
	out.Exists = true
	if t.Kind == KindIndex {
		out.Index, out.IndexSize, out.IndexModTime, out.IndexPartial = model.ParseMemoryIndex(after), int64(len(after)), now, false
		return &out
	}
	f, _ := model.ParseMemoryFile(t.Rel, after)
	f.ModTime = now
	out.Files = slices.Clone(md.Files)
	i, found := slices.BinarySearchFunc(out.Files, t.Rel, func(f *model.MemoryFile, rel string) int { return strings.Compare(f.Path, rel) })
	if found {
		out.Files[i] = f
	} else {
		out.Files = slices.Insert(out.Files, i, f)
	}
	return &out
}

// changedLines are the line numbers of after (1-based) whose text was not
// in before: the call's new or changed lines. Every line of a new file.
func changedLines(before, after []byte, existed bool) map[int]bool {
	old := map[string]int{}
	if existed {
		for _, l := range strings.Split(string(before), "\n") {
			old[strings.TrimRight(l, "\r")]++
		}
	}
	out := map[int]bool{}
	for i, l := range strings.Split(string(after), "\n") {
		l = strings.TrimRight(l, "\r")
		if old[l] > 0 {
			old[l]--
			continue
		}
		out[i+1] = true
	}
	return out
}

func scanRule(c scan.Category) Rule {
	switch c {
	case scan.CategoryInjection:
		return RuleInjection
	case scan.CategoryInvisibleUnicode:
		return RuleInvisibleUnicode
	}
	return RuleSecret
}

// securityMessage says what the scan found where, with the redacted
// excerpt lint prints (never the secret), and what to do.
func securityMessage(name string, f lint.Finding) string {
	where := name
	if f.Line > 0 {
		where = fmt.Sprintf("%s line %d", name, f.Line)
	}
	switch f.Category {
	case scan.CategoryInjection:
		return fmt.Sprintf("%s reads as instructions aimed at the model: %s; memory is re-read into every future session, so store what the user said as a fact, not as an order", where, f.Message)
	case scan.CategoryInvisibleUnicode:
		return fmt.Sprintf("%s holds characters a person cannot see: %s; write plain text", where, f.Message)
	}
	return fmt.Sprintf("%s would store a credential: %s; memory is re-read into every future session and may be shared: leave the secret out (say where it is kept instead)", where, f.Message)
}

// judgeCap fires the cap rules of a MEMORY.md write: the call's own lines
// past the cut, or other entries pushed past it.
func judgeCap(in MemoryInput, rep lint.Report, changed map[int]bool, fire func(Rule, int, string, *lint.Finding)) {
	c := rep.Cap
	if !c.Truncated {
		return
	}
	before := memindex.CapIndex(in.Before)
	size := capSize(c)
	var own []int
	for n := range changed {
		if n >= c.CutFileLine && strings.TrimSpace(lineOf(in.After, n)) != "" {
			own = append(own, n)
		}
	}
	slices.Sort(own)
	if len(own) > 0 {
		what := fmt.Sprintf("your new line %d", own[0])
		if len(own) > 1 {
			what = fmt.Sprintf("%d of your new lines (%d to %d)", len(own), own[0], own[len(own)-1])
		}
		if title := entryTitle(in.After, own[0]); title != "" && len(own) == 1 {
			what = fmt.Sprintf("your new entry %q on line %d", title, own[0])
		}
		fire(RuleCutOwnLines, own[0], fmt.Sprintf("MEMORY.md would be %s: %s would never load (the client loads only up to line %d); %s",
			size, what, c.CutFileLine-1, roomHint(rep)), nil)
		return
	}
	if len(c.DroppedEntries) > len(before.DroppedEntries) {
		var names []string
		for _, d := range c.DroppedEntries[:len(c.DroppedEntries)-len(before.DroppedEntries)] {
			names = append(names, cmp.Or(d.Target, d.Title))
		}
		fire(RuleCutOtherLines, c.CutFileLine, fmt.Sprintf("MEMORY.md would be %s: %s would no longer load; %s",
			size, strings.Join(firstN(names, 5), ", "), roomHint(rep)), nil)
	}
}

// capSize says how far over the caps MEMORY.md is: "212/200 lines".
func capSize(c memindex.IndexCap) string {
	var parts []string
	if c.LinesOver {
		parts = append(parts, fmt.Sprintf("%d/%d lines", c.Lines, memindex.MaxLines))
	}
	if c.CharsOver {
		parts = append(parts, fmt.Sprintf("%d/%d characters", c.Chars, memindex.MaxChars))
	}
	return strings.Join(parts, " and ")
}

// roomHint says how to make room: merge a near-duplicate pair that both
// load, else trim older entries.
func roomHint(rep lint.Report) string {
	for _, p := range rep.Duplicates {
		return fmt.Sprintf("merge %s and %s (near-duplicates) or move detail into a topic file, then add the entry above the cut", p.A, p.B)
	}
	return "merge or shorten older entries (one line each, under ~150 characters) or move detail into a topic file, then add the entry above the cut"
}

func lineOf(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

func entryTitle(data []byte, n int) string {
	if e := model.ParseIndexEntry(strings.TrimRight(lineOf(data, n), "\r")); e != nil {
		return cmp.Or(e.Title, e.Target)
	}
	return ""
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}

// InstructionMaxChars is the size of a CLAUDE.md or rule the client reads
// in full with a 200K-token window (the client's per-file limit is the
// larger of 40 000 characters and 5% of the window at 4 characters a
// token; over it, it warns "Large CLAUDE.md will impact performance" and
// a nested file loads only its start). Characters are UTF-16 units.
const InstructionMaxChars = 40000

// InstructionInput is a call on a CLAUDE.md, CLAUDE.local.md or rule.
type InstructionInput struct {
	Target  Target
	Before  []byte
	Existed bool
	After   []byte
	Policy  Policy
}

// JudgeInstructions judges a write to an instruction file: the security
// scan (the rules lint and secrets use) on its new lines, and its size.
func JudgeInstructions(in InstructionInput) Verdict {
	if in.Policy == nil {
		in.Policy = DefaultPolicy()
	}
	v := Verdict{Fired: []Fired{}, Findings: []lint.Finding{}}
	changed := changedLines(in.Before, in.After, in.Existed)
	name := in.Target.Path
	for _, fd := range scan.Scan(name, string(in.After)) {
		if fd.Line > 0 && !changed[fd.Line] {
			continue
		}
		f := lint.SecurityFinding(name, fd)
		v.Findings = append(v.Findings, f)
		v.Fired = append(v.Fired, Fired{Rule: scanRule(fd.Category), Decision: in.Policy.Of(scanRule(fd.Category)), Line: fd.Line, Message: securityMessage(name, f)})
	}
	after, before := jsstr.UTF16Len(string(in.After)), jsstr.UTF16Len(string(in.Before))
	if after > InstructionMaxChars && after > before {
		v.Fired = append(v.Fired, Fired{Rule: RuleInstructionSize, Decision: in.Policy.Of(RuleInstructionSize),
			Message: fmt.Sprintf("%s would be %d characters, over the %d the client reads in full: it warns that a large file slows every session, and a nested one loads only its start; move detail into rules with paths: or into files it imports", name, after, InstructionMaxChars)})
	}
	v.decide()
	return v
}
