package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/cleanup"
)

func init() {
	register(command{
		name:  "archive",
		usage: "memscope archive [--home DIR] [--older-than N] --to DIR|FILE.tar.gz [--json]",
		summary: "copy (never move) what the next cleanup sweep would delete, or every swept kind older than N days, into a folder\n" +
			"laid out as a Claude home or a new .tar.gz; both open with --home. Every copy is read back and its SHA-256 checked.",
		run: runArchive,
	})
}

func runArchive(e *env, args []string) int {
	fs := flag.NewFlagSet("archive", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	olderThan := fs.Int("older-than", -1, "archive every swept kind older than N days (default: what the next sweep deletes)")
	to := fs.String("to", "", "destination: a folder (created if missing) or a new FILE.tar.gz")
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlags(e, fs, args) {
		return 2
	}
	if *to == "" || fs.NArg() > 0 {
		fmt.Fprintln(e.stderr, "memscope archive: --to DIR|FILE.tar.gz is required (and nothing else)")
		return 2
	}
	o, err := e.openHome(hf)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope archive: %v\n", err)
		return 1
	}
	defer o.close()
	dest, err := absFrom(e, *to)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope archive: %v\n", err)
		return 1
	}
	f := forecastFor(o, -1, cleanup.DefaultHorizonDays, e.now())
	items, err := f.ArchiveSelection(*olderThan)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope archive: %v\n", err)
		return 1
	}
	rep, err := cleanup.Archive(cleanup.ArchiveOptions{Home: o.home, Items: items, To: dest})
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope archive: %v\n", err)
		var conflict *cleanup.ArchiveConflictError
		if errors.As(err, &conflict) {
			return 3
		}
		return 1
	}
	if *asJSON {
		if err := writeJSON(e.stdout, rep); err != nil {
			fmt.Fprintf(e.stderr, "memscope archive: %v\n", err)
			return 1
		}
		return 0
	}
	printArchive(humanOutput(e.stdout), rep, len(items))
	return 0
}

func printArchive(w io.Writer, r cleanup.ArchiveReport, items int) {
	fmt.Fprintf(w, "archive     %s (%s)\n", r.To, r.Format)
	fmt.Fprintf(w, "selected    %d item(s)\n", items)
	fmt.Fprintf(w, "files       %d copied, %d already there and identical, %s\n", r.Copied, r.Identical, humanBytes(r.Bytes))
	fmt.Fprintf(w, "verified    %d of %d files read back from the archive, SHA-256 equal to the source\n", r.Verified, len(r.Files))
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
