package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:  "sessions",
		usage: "memscope sessions [--home DIR] [--demo] [--project PATH] [--json]",
		summary: "one row per session: records, compactions, token usage, first and last time\n" +
			"A session is its transcript plus its subagents' transcripts. Usage is counted once per\n" +
			"message.id+requestId across the home, as ccusage 18.0.11 counts it, so the totals equal\n" +
			"`ccusage session --json --offline` on the same home. --project takes a project folder (or\n" +
			"its projects/ slug); without it every session is listed.",
		run: runSessions,
	})
}

func runSessions(e *env, args []string) int {
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "only the sessions of this project folder (or projects/ slug)")
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlagsOnly(e, fs, args) {
		return 2
	}
	o, err := e.openHome(hf)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope sessions: %v\n", err)
		return 1
	}
	defer o.close()
	opts := sessions.Options{Home: o.home}
	if *project != "" {
		slug, err := projectSlug(e, o.home, *project)
		if err != nil {
			fmt.Fprintf(e.stderr, "memscope sessions: %v\n", err)
			return 1
		}
		opts.ProjectSlug = slug
	}
	rep := sessions.Summarize(opts)
	if *asJSON {
		if err := writeJSON(e.stdout, rep); err != nil {
			fmt.Fprintf(e.stderr, "memscope sessions: %v\n", err)
			return 1
		}
		return 0
	}
	printSessions(humanOutput(e.stdout), rep)
	return 0
}

// projectSlug finds the projects/ folder of a project path (relative to
// the working folder). A slug works too: slugging a slug changes nothing.
func projectSlug(e *env, h *model.Home, p string) (string, error) {
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, "-") {
		if wd, err := e.getwd(); err == nil {
			p = filepath.Join(wd, p)
		}
	}
	if slug, ok := model.FindProjectDir(h.FS, p); ok {
		return slug, nil
	}
	return "", fmt.Errorf("no project folder for %s in %s", p, h.Dir)
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
		fmt.Fprintf(w, "%-8s  %-32s %6s %8s %7s %7s %7s %7s %7s  %-16s  %s\n",
			"SESSION", "PROJECT", "AGENTS", "RECORDS", "COMPACT", "INPUT", "OUTPUT", "CACHE W", "CACHE R", "FIRST (UTC)", "LAST (UTC)")
		for _, s := range r.Sessions {
			fmt.Fprintf(w, "%-8s  %-32s %6s %8d %7d %7s %7s %7s %7s  %-16s  %s\n",
				shortID(model.SanitizeLine(s.SessionID)), leftCut(model.SanitizeLine(s.Project), 32), agents(s.Subagents), s.Records, s.CompactBoundaries,
				shortCount(s.Usage.InputTokens), shortCount(s.Usage.OutputTokens),
				shortCount(s.Usage.CacheCreationInputTokens), shortCount(s.Usage.CacheReadInputTokens),
				stamp(s.First), stamp(s.Last))
		}
	}
	t := r.Totals
	fmt.Fprintf(w, "\n%d sessions (%d transcripts, %d of them subagents), %s, %d records, compact boundaries %d, microcompact %d\n",
		t.Sessions, t.Transcripts, t.SubagentTranscripts, humanBytes(t.Bytes), t.Records, t.CompactBoundaries, t.MicrocompactBoundaries)
	fmt.Fprintf(w, "usage: input %d, output %d, cache write %d, cache read %d (%d responses; subagents: input %d, output %d)\n",
		t.Usage.InputTokens, t.Usage.OutputTokens, t.Usage.CacheCreationInputTokens, t.Usage.CacheReadInputTokens, t.Responses,
		t.SubagentUsage.InputTokens, t.SubagentUsage.OutputTokens)
	if len(r.Problems) == 0 {
		fmt.Fprintln(w, "problems: none")
		return
	}
	fmt.Fprintf(w, "problems: %d (skipped or kept as said; everything else was read)\n", len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s [%s]\n", model.SanitizeForTerminal(p.Error()), p.Kind)
	}
}

// shortID is the first 8 characters of a session id, sanitized.
func shortID(id string) string {
	id = model.SanitizeForTerminal(id)
	if r := []rune(id); len(r) > 8 {
		return string(r[:8])
	}
	return id
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
