package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var cleanupCommand = &command{
	name:  "cleanup",
	usage: "memscope cleanup --forecast [--home DIR] [--days N] [--within N] [--limit N] [--list] [--json]",
	summary: "what Claude Code's cleanup (cleanupPeriodDays) will delete and when; memscope deletes nothing\n\n" +
		"Transcripts, session folders, pastes (and the history lines left pointing at them), file-history\n" +
		"and the other swept folders, each with when it goes; what is never swept; and what earlier\n" +
		"sweeps already lost: sessions history.jsonl still names whose transcripts are gone (dates,\n" +
		"prompts, the first one) and pastes it references whose text is gone (--json: lost).\n\n" +
		"Lists (the items, history lines, lost sessions and pastes) show their first --limit entries,\n" +
		"in the text report per group and in --json (where \"cut\" gives each list's length); --list\n" +
		"shows them all.",
	run: steps(parseCleanup, runCleanup, showCleanup),
}

// cleanupOptions are cleanup's flags.
type cleanupOptions struct {
	home homeFlags
	// days is a what-if cleanupPeriodDays; < 0 reads the settings.
	days int
	// within is how many days ahead to look; limit how many items the
	// text report lists per group (0: all).
	within, limit int
	json, list    bool
}

func parseCleanup(e *env, args []string) (cleanupOptions, error) {
	var opts cleanupOptions
	fs := newFlags("cleanup", &opts.home, &opts.json)
	fs.Bool("forecast", true, "print the forecast (the only mode: memscope never deletes)")
	fs.IntVar(&opts.days, "days", -1, "what-if: use this cleanupPeriodDays instead of the settings (0 disables)")
	fs.IntVar(&opts.within, "within", cleanup.DefaultHorizonDays, "how many days ahead the forecast looks")
	fs.IntVar(&opts.limit, "limit", 40, "entries listed per list (0: all)")
	fs.BoolVar(&opts.list, "list", false, "list every entry (as --limit 0)")
	if err := parseFlagsOnly(e, fs, args); err != nil {
		return opts, err
	}
	for _, name := range []string{"days", "within", "limit"} {
		if setNegative(fs, name) {
			return opts, badUsagef("--%s takes a number, 0 or more (not %s)", name, fs.Lookup(name).Value)
		}
	}
	if opts.list {
		opts.limit = 0
	}
	return opts, nil
}

// runCleanup forecasts what the client's cleanup will delete and when.
func runCleanup(e *env, opts cleanupOptions) (cleanup.Forecast, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return cleanup.Forecast{}, err
	}
	defer o.close()
	f := forecastFor(o, opts.days, opts.within, e.now())
	coverVault(e, o, &f)
	return f, nil
}

// showCleanup prints what runCleanup returned, as text or --json.
func showCleanup(e *env, opts cleanupOptions, f cleanup.Forecast) error {
	return e.output(opts.json, f.CutLists(opts.limit), func(w io.Writer) { printForecast(w, f, opts.limit) })
}

func printForecast(w io.Writer, f cleanup.Forecast, limit int) {
	loc := f.Now.Location()
	fmt.Fprintf(w, "home        %s\n", f.Home)
	fmt.Fprintf(w, "now         %s\n", f.Now.Format("2006-01-02 15:04 MST"))
	switch f.State {
	case cleanup.StateActive:
		fmt.Fprintf(w, "cleanup     every start of Claude Code deletes what is older than %d days (cleanupPeriodDays from %s)\n", f.PeriodDays, f.PeriodFrom)
	case cleanup.StateDisabled:
		fmt.Fprintf(w, "cleanup     disabled: %s\n", f.Reason)
	case cleanup.StateSkipped:
		fmt.Fprintf(w, "cleanup     skipped: %s\n", f.Reason)
	}
	o := f.Overall
	if f.State != cleanup.StateActive {
		fmt.Fprintf(w, "swept kinds %s, %s, %s (nothing will be deleted; --days N shows a what-if)\n", format.Count(o.All.Items, "item", "items"), format.Count(o.All.Files, "file", "files"), format.Bytes(o.All.Bytes))
	} else {
		fmt.Fprintf(w, "eligible    now: %s · next %d days: %s · later: %s\n", countText(o.Now), f.HorizonDays, countText(o.Soon), countText(o.Later))
		fmt.Fprintln(w, "\nby kind            now                    next "+fmt.Sprint(f.HorizonDays)+" days           later")
		for _, t := range f.Totals {
			if t.All.Items == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-16s %-22s %-22s %s\n", t.Kind, countText(t.Now), countText(t.Soon), countText(t.Later))
		}
		fmt.Fprintln(w, "\ntimeline")
		for _, g := range f.Timeline() {
			var kinds []string
			for _, k := range g.Kinds {
				kinds = append(kinds, fmt.Sprintf("%s %d", k.Kind, k.Count.Items))
			}
			fmt.Fprintf(w, "  %-14s %-11s %-22s %s\n", g.Label(f.HorizonDays), g.Date.In(loc).Format("2006-01-02"), countText(g.Total), strings.Join(kinds, ", "))
		}
		for _, g := range f.Timeline() {
			if g.Bucket == cleanup.BucketLater {
				continue
			}
			fmt.Fprintf(w, "\n%s: %s, %s\n", g.Label(f.HorizonDays), format.Count(g.Total.Items, "item", "items"), format.Bytes(g.Total.Bytes))
			fmt.Fprintf(w, "  %-16s  %-15s %10s  %s\n", "eligible from", "kind", "size", "path")
			for n, i := range g.Items {
				if limit > 0 && n == limit {
					fmt.Fprintf(w, "  … %d more (--list lists all)\n", len(g.Items)-n)
					break
				}
				it := f.Items[i]
				fmt.Fprintf(w, "  %s  %-15s %10s  %s%s\n", it.Eligible.In(loc).Format("2006-01-02 15:04"), it.Kind, format.Bytes(it.Size), it.Path, dirSuffix(it))
			}
		}
	}
	if len(f.Dangling) > 0 {
		fmt.Fprintf(w, "\nhistory lines that will point at a missing paste (%d)\n", len(f.Dangling))
		for n, d := range f.Dangling {
			if limit > 0 && n == limit {
				fmt.Fprintf(w, "  … %d more\n", len(f.Dangling)-n)
				break
			}
			fmt.Fprintf(w, "  %s:%d  paste #%d %s  (%s, %s)\n", d.File, d.Line, d.PasteID, d.Hash, d.PastePath, whenText(d.Bucket, d.Eligible, loc))
		}
	}
	printLost(w, f.Lost, loc, limit)
	printVaultCoverage(w, f.Vault, loc)
	fmt.Fprintln(w, "\nnever swept")
	if len(f.NeverSwept) == 0 {
		fmt.Fprintln(w, "  (no history.jsonl or memory folders)")
	}
	for _, n := range f.NeverSwept {
		fmt.Fprintf(w, "  %-8s %10s  %10s  %s\n", n.Kind, format.Bytes(n.Size), format.Count(n.Files, "file", "files"), n.Path)
		if n.Kind == cleanup.NeverSweptHistory {
			fmt.Fprintf(w, "  %-8s %10s  %s\n", "", "", cleanup.HistoryKeptNote)
		}
	}
	if len(f.Problems) > 0 {
		fmt.Fprintf(w, "\nproblems    %d (skipped and reported)\n", len(f.Problems))
		for _, p := range f.Problems {
			fmt.Fprintf(w, "  %s [%s]\n", p.Error(), p.Kind)
		}
	}
}

// printLost lists what earlier sweeps deleted that history still names.
func printLost(w io.Writer, l cleanup.Lost, loc *time.Location, limit int) {
	sum := l.Summary(loc)
	if sum == "" {
		return
	}
	fmt.Fprintf(w, "\n%s\n", sum)
	for n, s := range l.Sessions {
		if limit > 0 && n == limit {
			fmt.Fprintf(w, "  … %d more (--list lists all)\n", len(l.Sessions)-n)
			break
		}
		fmt.Fprintf(w, "  %s  %s  %11s  %s\n      %q\n", s.First.In(loc).Format("2006-01-02"), format.ShortID(string(s.SessionID)),
			format.Count(s.Prompts, "prompt", "prompts"), model.SanitizeLine(s.Project), model.SanitizeLine(s.FirstPrompt))
	}
	for n, p := range l.Pastes {
		if limit > 0 && n == limit {
			fmt.Fprintf(w, "  … %s\n", format.Count(len(l.Pastes)-n, "more paste", "more pastes"))
			break
		}
		fmt.Fprintf(w, "  %s:%d  paste #%d %s  %s\n", p.File, p.Line, p.PasteID, p.Hash, model.SanitizeLine(p.Project))
	}
	fmt.Fprintf(w, "  %s\n", cleanup.ArchiveAdvice)
}

func countText(c cleanup.Count) string {
	if c.Items == 0 {
		return "—"
	}
	return fmt.Sprintf("%d (%s)", c.Items, format.Bytes(c.Bytes))
}

func dirSuffix(it cleanup.Item) string {
	if it.Dir {
		return fmt.Sprintf("/ (%s)", format.Count(it.Files, "file", "files"))
	}
	return ""
}

func whenText(b cleanup.Bucket, t time.Time, loc *time.Location) string {
	if b == cleanup.BucketNow {
		return "swept at the next start"
	}
	return "swept from " + t.In(loc).Format("2006-01-02 15:04")
}
