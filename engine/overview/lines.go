package overview

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/engine/live"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/memrows"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/engine/review"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// The labels of the parts the lines carry besides their breakdowns.
const (
	PartCorrections = "corrections"
	PartEntries     = "entries"
	PartErrors      = "errors"
	PartWarnings    = "warnings"
	PartCopies      = "scrub copies"
	PartCopySecrets = "secrets in scrub copies"
	PartNow         = "at the next start"
	PartWindow      = "window"
	PartRunning     = "running"
)

// rows are the project's memory files as the Memories pane and `memscope
// export --memory` list them.
func rows(s *Source) []memrows.Row {
	return memrows.Build(memrows.Input{Memory: s.open().Store.Memory(), Now: s.Env.Now, Staleness: s.staleness()})
}

// cutLine counts the memories MEMORY.md links only past its cut: the
// model never sees their index line, and corrections among them are
// rules it keeps breaking.
func cutLine(s *Source) Line {
	n, corr := 0, 0
	for _, r := range rows(s) {
		if r.Indexed && !r.Loaded {
			n++
			if r.File.Type == model.TypeFeedback {
				corr++
			}
		}
	}
	md := s.open().Store.Memory()
	var c memindex.IndexCap
	if md.Index != nil {
		c = memindex.CapIndex(md.Index.Bytes())
	}
	l := Line{Count: n, Needs: n > 0 || c.Truncated, Filter: "cut", Command: "memscope export --memory",
		Parts: []Part{{PartCorrections, corr}, {PartEntries, len(c.DroppedEntries)}}}
	switch {
	case c.Truncated:
		l.Text = fmt.Sprintf("%s past MEMORY.md's cut at line %d (%s): the model never sees their index line",
			format.Count(n, "memory", "memories"), c.CutFileLine, format.Count(corr, "correction", "corrections"))
	case md.Index == nil:
		l.Text = "no MEMORY.md: nothing is cut"
	default:
		l.Text = fmt.Sprintf("nothing past the cut: MEMORY.md is %d of %d lines, %d of %d characters", c.Lines, memindex.MaxLines, c.Chars, memindex.MaxChars)
	}
	return l
}

// staleLine counts the memories past their type's staleness limit, by
// type: lint's stale warnings (lint does not judge the age of a file whose
// frontmatter it cannot read, so neither does this line).
func staleLine(s *Source) Line {
	by := map[model.MemoryType]int{}
	n := 0
	for _, r := range rows(s) {
		if r.Staleness == memindex.StalenessStale && !r.File.Invalid {
			by[r.File.Type]++
			n++
		}
	}
	l := Line{Count: n, Needs: n > 0, Filter: "stale", Command: "memscope lint"}
	var parts []string
	for _, t := range append(append([]model.MemoryType{}, model.MemoryTypes...), model.TypeUntyped) {
		if by[t] > 0 {
			l.Parts = append(l.Parts, Part{string(t), by[t]})
			parts = append(parts, fmt.Sprintf("%d %s", by[t], t))
			delete(by, t)
		}
	}
	// Types the client does not know, after the known ones.
	var other []string
	for t := range by {
		other = append(other, string(t))
	}
	sort.Strings(other)
	for _, t := range other {
		l.Parts = append(l.Parts, Part{t, by[model.MemoryType(t)]})
		parts = append(parts, fmt.Sprintf("%d %s", by[model.MemoryType(t)], t))
	}
	if n == 0 {
		l.Text = "no stale memory"
	} else {
		l.Text = fmt.Sprintf("%s past their type's age limit (%s): check they still hold", format.Count(n, "stale memory", "stale memories"), strings.Join(parts, ", "))
	}
	return l
}

// lintLine is lint's verdict on the project's memory, with the inputs
// `memscope lint` gives it.
func lintLine(s *Source) Line {
	r := s.lint()
	l := Line{Count: r.Errors + r.Warnings, Needs: r.Errors+r.Warnings > 0, Command: "memscope lint",
		Parts: []Part{{PartErrors, r.Errors}, {PartWarnings, r.Warnings}}}
	if r.Errors > 0 {
		l.Filter = "errors"
	}
	switch {
	case l.Count == 0:
		l.Text = "lint finds nothing wrong with the project's memory"
	default:
		l.Text = fmt.Sprintf("lint: %s, %s in the project's memory", format.Count(r.Errors, "error", "errors"), format.Count(r.Warnings, "warning", "warnings"))
	}
	return l
}

// reviewLine is the review inbox: memories Claude Code wrote or changed
// since they were last accepted.
func reviewLine(s *Source) Line {
	t := s.open()
	l := Line{Command: "memscope review"}
	st, err := review.Load(t.ReviewFS())
	if err != nil {
		l.Text = "review state unreadable: " + model.SanitizeLine(err.Error())
		l.Needs = true
		return l
	}
	s.sharedPass()
	prov := t.Provenance(s.reviewCache())
	in := review.BuildUndiffed(&prov, st)
	l.Count, l.Needs = len(in.Items), len(in.Items) > 0
	// The Review pane opens at the memory Claude Code changed last.
	var newest time.Time
	for i, it := range in.Items {
		if i == 0 || it.Time.After(newest) {
			l.Filter, newest = it.Path, it.Time
		}
	}
	if l.Count == 0 {
		l.Text = "nothing to review: no memory Claude Code wrote since you last looked"
	} else {
		l.Text = fmt.Sprintf("%s Claude Code wrote or changed since you last looked", format.Count(l.Count, "memory", "memories"))
	}
	return l
}

// promptLine is the next session's prompt (as `memscope prompt` builds
// it) against the 200k context window, and its biggest layer.
func promptLine(s *Source) Line {
	p := s.preview()
	w := int(window.Size200k().ContextWindow)
	l := Line{Count: p.Totals.Tokens, Command: "memscope prompt", Parts: []Part{{PartWindow, w}}}
	var big *preview.Layer
	for i := range p.Layers {
		if ly := &p.Layers[i]; ly.Status == preview.StatusLoaded && (big == nil || ly.Tokens > big.Tokens) {
			big = ly
		}
	}
	pct := 100 * float64(p.Totals.Tokens) / float64(w)
	l.Text = fmt.Sprintf("the next session starts with ~%d tokens of instructions and memory, %.1f%% of a %dk window", p.Totals.Tokens, pct, w/1000)
	if big != nil {
		l.Parts = append(l.Parts, Part{layerName(*big), big.Tokens})
		l.Filter = big.Path
		l.Text += fmt.Sprintf("; biggest: %s (~%d tokens)", layerName(*big), big.Tokens)
	}
	// A tenth of the window spent before the first prompt is worth a look.
	l.Needs = p.Totals.Tokens*10 >= w
	return l
}

// layerName names a layer for a line: its kind and file name.
func layerName(ly preview.Layer) string {
	name := ly.Path
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		return string(ly.Kind)
	}
	return model.SanitizeLine(name) + " (" + string(ly.Kind) + ")"
}

// What the Secrets line asks the Security pane to select: its first
// secret, or its first scrub copy.
const (
	ShowSecret = "secret"
	ShowCopy   = "copy"
)

// secretsLine is `memscope secrets`: the findings at rest by store, and
// the scrub copies that still hold secrets on disk.
func secretsLine(s *Source) Line {
	// Counts only (the findings themselves are never handed out), each
	// file's kept in memscope's cache: a warm start reads no unchanged
	// transcript.
	s.sharedPass()
	r := s.secretCounts()
	l := Line{Count: r.Count(), Command: "memscope secrets"}
	var parts []string
	for _, sc := range r.Stores {
		if sc.Findings > 0 {
			l.Parts = append(l.Parts, Part{string(sc.Store), sc.Findings})
			parts = append(parts, fmt.Sprintf("%s %d", sc.Store, sc.Findings))
		}
	}
	held := 0
	for _, c := range r.Copies {
		held += c.Secrets
	}
	l.Parts = append(l.Parts, Part{PartCopies, len(r.Copies)}, Part{PartCopySecrets, held})
	l.Needs = l.Count > 0 || len(r.Copies) > 0
	// The Security pane opens at the first secret, else the first copy.
	switch {
	case l.Count > 0:
		l.Filter = ShowSecret
	case len(r.Copies) > 0:
		l.Filter = ShowCopy
	}
	if l.Count == 0 {
		l.Text = "no secret at rest in the home"
	} else {
		l.Text = fmt.Sprintf("%s at rest (%s)", format.Count(l.Count, "secret", "secrets"), strings.Join(parts, ", "))
	}
	if len(r.Copies) > 0 {
		l.Text += fmt.Sprintf("; %s still %s %s on disk", format.Count(len(r.Copies), "scrub copy", "scrub copies"),
			map[bool]string{true: "holds", false: "hold"}[len(r.Copies) == 1], format.Count(held, "secret", "secrets"))
	}
	return l
}

// forecast is what the lines take of `memscope cleanup --forecast
// --within N` (its transcripts, totals and lost sessions: the same
// counts): the cleanup forecast of the transcripts for s, listed once
// per Source (the lines computing it may run at once), from s.History
// when the caller holds history.jsonl. A caller that changes it gets its
// own Items.
func forecast(s *Source) cleanup.Forecast {
	s.fcOnce.Do(func() {
		// The lines take the transcripts and the lost sessions: the
		// home's other stores are not walked, nor history's pastes
		// looked up (cleanup.BuildSessionsForecast).
		s.fc = cleanup.ForecastSessionsWith(s.Env.Root, cleanup.Options{Home: s.Env.Home, HorizonDays: s.horizon(), Now: s.Env.Now, History: s.History})
	})
	return s.fc
}

// forecastLines are the lines computed from the cleanup forecast, which
// reads history.jsonl (Source.History).
var forecastLines = []ID{Cleanup, Vault, Lost}

// ReadsHistory says the line id reads history.jsonl (through the cleanup
// forecast, or stat's count for the Problems line): an app that holds
// the file's entries (Source.History) counts it once they are read.
func ReadsHistory(id ID) bool { return slices.Contains(forecastLines, id) || id == Problems }

// cleanupLine counts the sessions (transcripts) the client's cleanup
// deletes at its next start or within the horizon.
func cleanupLine(s *Source) Line {
	f := forecast(s)
	var now, soon int
	for _, t := range f.Totals {
		if t.Kind == cleanup.KindTranscript {
			now, soon = t.Now.Items, t.Soon.Items
		}
	}
	n := now + soon
	l := Line{Count: n, Needs: n > 0, Filter: "soon", Command: fmt.Sprintf("memscope cleanup --forecast --within %d", f.HorizonDays),
		Parts: []Part{{PartNow, now}}}
	switch {
	case f.State != cleanup.StateActive:
		l.Text = "the client's cleanup deletes nothing: " + f.Reason
	case n == 0:
		l.Text = fmt.Sprintf("the next cleanup deletes no session within %d days (cleanupPeriodDays %d)", f.HorizonDays, f.PeriodDays)
	default:
		l.Text = fmt.Sprintf("%s deleted by the client's cleanup within %d days (%d at its next start): archive what you want to keep",
			format.Count(n, "session", "sessions"), f.HorizonDays, now)
	}
	return l
}

// lostLine counts the sessions history names whose transcripts earlier
// sweeps deleted.
func lostLine(s *Source) Line {
	// The lost sessions do not depend on the horizon: the Cleanup line's
	// forecast has them (one walk of the home for both).
	f := forecast(s)
	n := len(f.Lost.Sessions)
	l := Line{Count: n, Filter: "lost", Command: "memscope cleanup --forecast"}
	if n == 0 {
		l.Text = "no session lost to an earlier cleanup"
	} else {
		l.Text = fmt.Sprintf("%s already lost: history names them, their transcripts are gone", format.Count(n, "session", "sessions"))
	}
	return l
}

// autocompactLine counts the running sessions whose context has reached
// the warning level or beyond, as the Live pane and `memscope watch`
// follow them: from the Live pane's snapshot when the app has one, by
// the Live pane's rule (live.NearAutocompact).
func autocompactLine(s *Source) Line {
	snap := s.Live
	if snap == nil {
		now := s.Env.Now
		t := live.NewTracker(live.Options{Home: s.Env.Home, Root: s.Env.Root, Now: func() time.Time { return now }, Alive: s.Alive,
			Session: live.SessionOptions{Getenv: s.Env.Getenv}})
		own := t.Refresh()
		snap = &own
	}
	near, running := live.NearAutocompact(*snap, s.Levels)
	l := Line{Count: near, Needs: near > 0, Filter: "near", Command: "memscope watch --once", Parts: []Part{{PartRunning, running}}}
	switch {
	case running == 0:
		l.Text = "no session running"
	default:
		l.Text = fmt.Sprintf("%d of %s near autocompact", near, format.Count(running, "running session", "running sessions"))
	}
	return l
}

// problemsLine counts what `memscope stat` skipped: malformed lines and
// unreadable files.
func problemsLine(s *Source) Line {
	s.sharedPass()
	// The pastes the secrets count read are not read again (pastes.go).
	r := inventory.Stat(inventory.Options{Home: s.Env.Home, Root: s.Env.Root, Cache: s.Cache, Getenv: s.Env.Getenv, History: s.History,
		Pastes: s.pasteVerdicts()})
	n := len(r.Malformed)
	l := Line{Count: n, Needs: n > 0, Command: "memscope stat"}
	if n == 0 {
		l.Text = "every line of the home reads"
	} else {
		l.Text = fmt.Sprintf("%s skipped (malformed or unreadable; counted, the rest was read)", format.Count(n, "problem", "problems"))
	}
	return l
}
