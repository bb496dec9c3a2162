package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var archiveCommand = &command{
	name:  "archive",
	usage: "memscope archive [--home DIR] [--older-than N] --to DIR|FILE.tar.gz [--json]",
	summary: "copy (never move) what the next cleanup sweep would delete, or every swept kind older than N days\n\n" +
		"The copy goes into a folder laid out as a Claude home, or into a new .tar.gz; both open with --home.\n" +
		"Every copy is read back and its SHA-256 checked.",
	run: steps(parseArchive, runArchive, showArchive),
}

// archiveOptions are archive's flags.
type archiveOptions struct {
	home homeFlags
	// olderThan archives every swept kind older than N days; < 0 what
	// the next sweep deletes.
	olderThan int
	// to is the destination folder or .tar.gz.
	to   string
	json bool
}

// archiveResult is what was copied, of how many selected items.
type archiveResult struct {
	report cleanup.ArchiveReport
	items  int
}

func parseArchive(e *env, args []string) (archiveOptions, error) {
	var opts archiveOptions
	fs := newFlags("archive", &opts.home, &opts.json)
	fs.IntVar(&opts.olderThan, "older-than", -1, "archive every swept kind older than N days (default: what the next sweep deletes)")
	fs.StringVar(&opts.to, "to", "", "destination: a folder (created if missing) or a new `DIR|FILE.tar.gz`")
	if err := parseFlags(e, fs, args); err != nil {
		return opts, err
	}
	if opts.to == "" || fs.NArg() > 0 {
		return opts, badUsagef("--to DIR|FILE.tar.gz is required (and nothing else)")
	}
	if setNegative(fs, "older-than") {
		return opts, badUsagef("--older-than takes a number of days, 0 or more (not %d)", opts.olderThan)
	}
	return opts, nil
}

// runArchive copies the selected items into the destination and checks
// every copy. A destination holding different files is a refusal (exit
// 1): nothing is overwritten.
func runArchive(e *env, opts archiveOptions) (archiveResult, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return archiveResult{}, err
	}
	defer o.close()
	dest, err := absFrom(e, opts.to)
	if err != nil {
		return archiveResult{}, err
	}
	f := forecastFor(o, -1, cleanup.DefaultHorizonDays, e.now())
	items, err := f.ArchiveSelection(opts.olderThan)
	if err != nil {
		return archiveResult{}, err
	}
	rep, err := cleanup.Archive(cleanup.ArchiveOptions{Home: o.home, Items: items, To: dest, Writes: e.writes})
	if err != nil {
		return archiveResult{}, err
	}
	// Links the forecast did not follow (out of the home, loops) are not
	// archived either: say which.
	for _, p := range f.Problems {
		if model.IsLinkProblem(p) {
			rep.Problems = append(rep.Problems, p)
		}
	}
	return archiveResult{report: rep, items: len(items)}, nil
}

// showArchive prints what runArchive returned, as text or --json.
func showArchive(e *env, opts archiveOptions, r archiveResult) error {
	return e.output(opts.json, r.report, func(w io.Writer) { printArchive(w, r.report, r.items) })
}

func printArchive(w io.Writer, r cleanup.ArchiveReport, items int) {
	fmt.Fprintf(w, "archive     %s (%s)\n", r.To, r.Format)
	fmt.Fprintf(w, "selected    %s\n", format.Count(items, "item", "items"))
	fmt.Fprintf(w, "files       %d copied, %d already there and identical, %s\n", r.Copied, r.Identical, format.Bytes(r.Bytes))
	fmt.Fprintf(w, "verified    %d of %s read back from the archive, SHA-256 equal to the source\n", r.Verified, format.Count(len(r.Files), "file", "files"))
	fmt.Fprintln(w, "source      only read (memscope copies; it never moves or deletes)")
	if len(r.Problems) > 0 {
		fmt.Fprintf(w, "problems    %d (not archived)\n", len(r.Problems))
		for _, p := range r.Problems {
			fmt.Fprintf(w, "  %s [%s]\n", p.Error(), p.Kind)
		}
	}
	open := r.To
	if strings.ContainsAny(open, " '\"") {
		open = "'" + strings.ReplaceAll(open, "'", `'\''`) + "'"
	}
	fmt.Fprintf(w, "open it     memscope --home %s stat\n", open)
}
