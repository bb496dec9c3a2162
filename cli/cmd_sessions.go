package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var sessionsCommand = &command{
	name:  "sessions",
	usage: "memscope sessions [--home DIR] [--demo] [--project PATH] [--pricing FILE] [--json]",
	summary: "one row per session: records, compactions, token usage, cost in USD, first and last time\n\n" +
		"A session is its transcript plus its subagents' transcripts. Usage is counted once per\n" +
		"message.id+requestId across the home, as ccusage 18.0.11 counts it, so the totals equal\n" +
		"`ccusage session --json --offline` on the same home. Cost is computed offline from\n" +
		"memscope's dated price table (input, output, 5-minute and 1-hour cache writes, cache\n" +
		"reads, long-context rates; a costUSD the client recorded wins), per model; a model the\n" +
		"table does not know is listed as unpriced, never counted as $0. The client's own running\n" +
		"cost (its cost-state records) is shown beside it when the transcripts have one: it also\n" +
		"counts calls whose usage the transcript does not keep, such as compaction summaries.\n" +
		"--project takes a project folder (or its projects/ slug); without it every session is listed.",
	run: steps(parseSessions, runSessions, showSessions),
}

// sessionsOptions are sessions' flags.
type sessionsOptions struct {
	home homeFlags
	// project is a project folder or projects/ slug; "" for every session.
	project string
	pricing string
	json    bool
	cache   cacheFlags
}

func parseSessions(e *env, args []string) (sessionsOptions, error) {
	var opts sessionsOptions
	fs := newFlags("sessions", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "only the sessions of this project folder (or projects/ slug)")
	fs.StringVar(&opts.pricing, "pricing", "", pricingUsage)
	opts.cache.add(fs)
	return opts, parseFlagsOnly(e, fs, args)
}

// runSessions summarizes the home's sessions, or one project's.
func runSessions(e *env, opts sessionsOptions) (sessions.Report, error) {
	prices, err := loadPrices(e, opts.pricing)
	if err != nil {
		return sessions.Report{}, err
	}
	o, err := e.openHome(&opts.home)
	if err != nil {
		return sessions.Report{}, err
	}
	defer o.close()
	so := sessions.Options{Home: o.home, Prices: prices, Cache: e.cache(opts.cache, o)}
	if opts.project != "" {
		slug, err := projectSlug(e, o.home, opts.project)
		if err != nil {
			return sessions.Report{}, err
		}
		so.ProjectSlug = slug
	}
	return sessions.Summarize(so), nil
}

// showSessions prints what runSessions returned, as text or --json.
func showSessions(e *env, opts sessionsOptions, rep sessions.Report) error {
	return e.output(opts.json, rep, func(w io.Writer) { printSessions(w, rep) })
}

// printSessions writes the report as a table, times in UTC.
func printSessions(w io.Writer, r sessions.Report) {
	fmt.Fprintf(w, "home %s (%s)\n", model.SanitizeForTerminal(r.Home), r.Source)
	if r.Demo {
		fmt.Fprintln(w, "     the embedded demo home: no Claude home was found")
	}
	if len(r.Sessions) == 0 {
		fmt.Fprintln(w, "no sessions")
	} else {
		fmt.Fprintf(w, "%-8s  %-32s %6s %8s %7s %7s %7s %7s %7s %10s  %-16s  %s\n",
			"SESSION", "PROJECT", "AGENTS", "RECORDS", "COMPACT", "INPUT", "OUTPUT", "CACHE W", "CACHE R", "COST", "FIRST (UTC)", "LAST (UTC)")
		for _, s := range r.Sessions {
			fmt.Fprintf(w, "%-8s  %-32s %6s %8d %7d %7s %7s %7s %7s %10s  %-16s  %s\n",
				format.ShortID(model.SanitizeLine(s.SessionID)), leftCut(model.SanitizeLine(s.Project), 32), agents(s.Subagents), s.Records, s.CompactBoundaries,
				shortCount(s.Usage.InputTokens), shortCount(s.Usage.OutputTokens),
				shortCount(s.Usage.CacheCreationInputTokens), shortCount(s.Usage.CacheReadInputTokens),
				sessionCost(s), stamp(s.First), stamp(s.Last))
			for _, a := range s.Agents {
				fmt.Fprintf(w, "  └ agent-%s  %s\n", model.SanitizeLine(a.ID), agentLabel(a))
			}
		}
	}
	t := r.Totals
	fmt.Fprintf(w, "\n%s (%s, %d of them subagents), %s, %s, compact boundaries %d, microcompact %d\n",
		format.Count(t.Sessions, "session", "sessions"), format.Count(t.Transcripts, "transcript", "transcripts"), t.SubagentTranscripts, format.Bytes(t.Bytes),
		format.Count(t.Records, "record", "records"), t.CompactBoundaries, t.MicrocompactBoundaries)
	fmt.Fprintf(w, "usage: input %d, output %d, cache write %d, cache read %d (%d responses; subagents: input %d, output %d)\n",
		t.Usage.InputTokens, t.Usage.OutputTokens, t.Usage.CacheCreationInputTokens, t.Usage.CacheReadInputTokens, t.Responses,
		t.SubagentUsage.InputTokens, t.SubagentUsage.OutputTokens)
	fmt.Fprintf(w, "cost: %s (%s)\n", format.USD(t.CostUSD), pricingNote(r.Pricing))
	if by := costByModel(t.Models); by != "" {
		fmt.Fprintf(w, "  by model: %s\n", by)
	}
	if len(t.UnpricedModels) > 0 {
		fmt.Fprintf(w, "  unpriced: %s tokens of %s are not in the cost (no price for them; --pricing FILE adds one)\n",
			shortCount(t.UnpricedUsage.ContextTokens()+t.UnpricedUsage.OutputTokens), model.SanitizeLine(strings.Join(t.UnpricedModels, ", ")))
	}
	if t.ClientCostUSD > 0 {
		fmt.Fprintf(w, "  the client's own count (its cost-state records): %s\n", format.USD(t.ClientCostUSD))
	}
	if len(r.Problems) == 0 {
		fmt.Fprintln(w, "problems: none")
		return
	}
	fmt.Fprintf(w, "problems: %d (skipped or kept as said; everything else was read)\n", len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s [%s]\n", model.SanitizeForTerminal(p.Error()), p.Kind)
	}
}

// sessionCost is a session's cost for the table: "?" when none of its
// usage could be priced, a "+" when part of it could not.
func sessionCost(s sessions.Row) string {
	priced := false
	for _, m := range s.Models {
		priced = priced || m.Priced
	}
	switch {
	case len(s.Models) == 0:
		return "-"
	case !priced && len(s.UnpricedModels) > 0:
		return "?"
	case len(s.UnpricedModels) > 0:
		return format.USD(s.CostUSD) + "+"
	}
	return format.USD(s.CostUSD)
}

// leftCut keeps the end of s within n runes: a path's last folders say
// most about it.
func leftCut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

func agents(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("+%d", n)
}

// shortCount writes a token count in at most 6 characters: 999, 12.3k,
// 4.5M, 1.2G.
func shortCount(n int64) string {
	f := float64(n)
	switch {
	case n < 1000 && n > -1000:
		return fmt.Sprintf("%d", n)
	case n < 999_950 && n > -999_950:
		return fmt.Sprintf("%.1fk", f/1e3)
	case n < 999_950_000 && n > -999_950_000:
		return fmt.Sprintf("%.1fM", f/1e6)
	}
	return fmt.Sprintf("%.1fG", f/1e9)
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// agentLabel says what a subagent was, from its meta file: type, task,
// model, spawn depth and whether it finished.
func agentLabel(a sessions.Agent) string {
	if a.Meta == nil {
		return format.Count(a.Records, "record", "records") + " (no meta file)"
	}
	m := a.Meta
	var parts []string
	if m.Model != "" {
		parts = append(parts, model.SanitizeLine(m.Model))
	}
	if m.SpawnDepth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", m.SpawnDepth))
	}
	if m.IsBuiltIn != nil && *m.IsBuiltIn {
		parts = append(parts, "built in")
	}
	if m.Finished != nil {
		parts = append(parts, map[bool]string{true: "finished", false: "did not finish"}[*m.Finished])
	}
	parts = append(parts, format.Count(a.Records, "record", "records"))
	label := m.Label()
	if label == "" {
		label = "(no type)"
	}
	return model.SanitizeLine(label) + " (" + strings.Join(parts, ", ") + ")"
}
