package preview

import (
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// WritePreviewReport prints a preview for people: where memory lives, each
// layer with its size and reason, the index caps, recall, missing imports,
// conditional rules, notes, and then the assembled text.
func WritePreviewReport(w io.Writer, p Preview) {
	fmt.Fprintf(w, "project     %s\n", model.SanitizeLine(p.Project))
	m := p.Memory
	state := "on"
	if !m.Enabled {
		state = "off"
	}
	fmt.Fprintf(w, "memory      %s (%s: %s)\n", p.MemoryDir, m.Rule, m.Reason)
	fmt.Fprintf(w, "            auto memory %s (%s)\n", state, m.SwitchReason)
	for _, ig := range m.Ignored {
		fmt.Fprintf(w, "            ignored: %s\n", ig)
	}
	writeRecallMode(w, p.RecallMode, m.Enabled)
	fmt.Fprintf(w, "window      %s\n", p.WindowLine())
	if p.At != nil {
		fmt.Fprintf(w, "session at  %s\n", p.At.UTC().Format("2006-01-02T15:04:05Z"))
	}
	fmt.Fprintf(w, "\nlayers (%d chars, ~%d tokens loaded)\n", p.Totals.Chars, p.Totals.Tokens)
	for _, l := range p.Layers {
		mark := string(l.Status)
		if l.Truncated {
			mark += ", truncated"
		}
		indent := strings.Repeat("  ", l.Depth)
		fmt.Fprintf(w, "  %-26s %-15s %7d %6d  %s%s\n", mark, l.Kind, l.Chars, l.Tokens, indent, l.Path)
		if l.Reason != "" {
			fmt.Fprintf(w, "  %-26s %-15s %7s %6s  %s  %s\n", "", "", "", "", indent, l.Reason)
		}
	}
	writeIndexReport(w, p.MemoryIndex)
	if p.Recall != nil {
		when := "sent: recall is on"
		if !p.RecallMode.On {
			when = "not sent: recall is off; what it would pick when on"
		}
		fmt.Fprintf(w, "\nrecall picks (%s for the client's model call; %s; %d of %d bytes of the session budget used)\n", p.Recall.Selector, when, p.Recall.BudgetUsed, RecallSessionBudget)
		fmt.Fprintf(w, "  manifest: %d of %d topic files offered\n", len(p.Recall.Manifest.Entries), p.Recall.Manifest.Considered)
		for _, q := range p.Recall.Queries {
			fmt.Fprintf(w, "  prompt %q\n", q.Query)
			if q.Skipped != "" {
				fmt.Fprintf(w, "    no recall: %s\n", q.Skipped)
			}
			for _, f := range q.Files {
				age := fmt.Sprintf("%d days", f.AgeDays)
				if f.AgeDays == 1 {
					age = "1 day"
				}
				fmt.Fprintf(w, "    %-28s score %.3f  %s old (%s, %s)\n", f.File, f.Score, age, f.Clock, f.Staleness)
				fmt.Fprintf(w, "      %s\n", f.Why)
				if f.Skipped != "" {
					fmt.Fprintf(w, "      not loaded: %s\n", f.Skipped)
				}
			}
		}
	}
	if len(p.NotInSession) > 0 {
		fmt.Fprintf(w, "\nnot in this session's prompt (written after it started)\n")
		for _, f := range p.NotInSession {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if len(p.MissingImports) > 0 {
		fmt.Fprintf(w, "\nmissing imports (the client skips these silently)\n")
		for _, mi := range p.MissingImports {
			fmt.Fprintf(w, "  @%s in %s:%d -> %s\n", mi.Raw, mi.From, mi.Line, mi.Path)
		}
	}
	if len(p.ConditionalRules) > 0 {
		fmt.Fprintf(w, "\nconditional rules\n")
		for _, c := range p.ConditionalRules {
			fmt.Fprintf(w, "  %s: %s\n", c.Path, c.Note)
		}
	}
	if len(p.NestedClaudeMd) > 0 {
		fmt.Fprintf(w, "\nnested CLAUDE.md\n")
		for _, c := range p.NestedClaudeMd {
			fmt.Fprintf(w, "  %s: %s\n", c.Path, c.Note)
		}
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(w, "problem: %s\n", pr.Error())
	}
	if len(p.Notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range p.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
	}
	fmt.Fprintf(w, "\n----- assembled text -----\n%s\n----- end -----\n", p.Text)
}

// writeRecallMode says whether recall is on and what each state loads;
// the state the layers show is marked.
func writeRecallMode(w io.Writer, r RecallMode, memoryOn bool) {
	if !memoryOn {
		fmt.Fprintf(w, "recall      none: auto memory is off\n")
		return
	}
	state, offMark, onMark := "off", "  ← shown", ""
	if r.On {
		state, offMark, onMark = "on", "", "  ← shown"
	}
	fmt.Fprintf(w, "recall      %s for this user (%s)\n", state, r.Reason)
	fmt.Fprintf(w, "            off: %s%s\n", r.Off.Summary, offMark)
	fmt.Fprintf(w, "            on:  %s%s\n", r.OnState.Summary, onMark)
}

func writeIndexReport(w io.Writer, ix IndexReport) {
	switch {
	case ix.Backfill != nil:
		fmt.Fprintf(w, "\nMEMORY.md   missing; the client would write %d lines (files left out: %d)\n", ix.Backfill.Lines, len(ix.Backfill.Skipped))
	case !ix.Exists:
		fmt.Fprintf(w, "\nMEMORY.md   none\n")
		return
	default:
		fmt.Fprintf(w, "\nMEMORY.md   %d lines, %d chars; %d lines, %d chars load; room left %d lines, %d chars\n",
			ix.Lines, ix.Chars, ix.LoadedLines, ix.LoadedChars, ix.RoomLines, ix.RoomChars)
	}
	if ix.Truncated {
		fmt.Fprintf(w, "  cut at line %d (file line %d); %d entries dropped\n", ix.CutLine, ix.CutFileLine, len(ix.DroppedEntries))
		for _, d := range ix.DroppedEntries {
			part := ""
			if d.Partial {
				part = " (partly)"
			}
			fmt.Fprintf(w, "    line %d: [%s](%s)%s\n", d.Line, d.Title, d.Target, part)
		}
	}
}

// WindowLine is the window the next session gets and its autocompact
// level, each with where it came from ("200k · the model's window;
// autocompact at 167k · default"): the prompt report's and the Prompt
// pane's line.
func (p Preview) WindowLine() string {
	return window.Short(p.Window.Window.Tokens) + " · " + p.Window.Window.Source + "; " + p.Window.Line()
}
