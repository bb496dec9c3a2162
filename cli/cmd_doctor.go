package cli

import (
	"fmt"
	"io"

	"github.com/memscope/memscope/engine/doctor"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var doctorCommand = &command{
	name:  "doctor",
	usage: "memscope doctor [--home DIR] [--demo] [--json] [--no-cache]",
	summary: "whether the home is newer than memscope: the client versions that wrote its transcripts (newest first, sessions each) " +
		"against the versions memscope was checked with, and every record type, attachment type or field it does not know " +
		"(a count and one place, never the content); exit 1 when something unknown was seen",
	run: steps(parseDoctor, runDoctor, showDoctor),
}

// doctorOptions are doctor's flags.
type doctorOptions struct {
	home  homeFlags
	json  bool
	cache cacheFlags
}

func parseDoctor(e *env, args []string) (doctorOptions, error) {
	var opts doctorOptions
	fs := newFlags("doctor", &opts.home, &opts.json)
	opts.cache.add(fs)
	return opts, parseFlags(e, fs, args)
}

// runDoctor reads every transcript of the home, those unchanged since an
// earlier run from memscope's cache (doctor.ScanCached).
func runDoctor(e *env, opts doctorOptions) (doctor.Report, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return doctor.Report{}, err
	}
	defer o.close()
	return doctor.ScanCached(o.home.FS, e.cache(opts.cache, o), o.home.Dir), nil
}

// showDoctor prints the report; something unknown is a finding (exit 1).
func showDoctor(e *env, opts doctorOptions, r doctor.Report) error {
	if err := e.output(opts.json, r, func(w io.Writer) { printDoctor(w, r) }); err != nil {
		return err
	}
	if !r.Clean() {
		return exitStatus(exitRefused)
	}
	return nil
}

func printDoctor(w io.Writer, r doctor.Report) {
	fmt.Fprintln(w, r.Summary())
	fmt.Fprintf(w, "checked     %s–%s\n", r.CheckedOldest, r.CheckedNewest)
	fmt.Fprintf(w, "read        %d transcripts, %d lines (%d not JSON objects)\n", r.Transcripts, r.Lines, r.Malformed)
	if len(r.Versions) > 0 {
		fmt.Fprintln(w, "\nclient versions (newest first)")
		for _, v := range r.Versions {
			beyond := ""
			if doctor.Compare(v.Version, r.CheckedNewest) > 0 {
				beyond = "  beyond the checked range"
			}
			fmt.Fprintf(w, "  %-12s %s%s\n", v.Version, format.Count(v.Sessions, "session", "sessions"), beyond)
		}
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintln(w, "\nnot known to memscope")
		for _, u := range r.Unknown {
			fmt.Fprintf(w, "  %-15s %-28s %6d×  e.g. %s\n", u.Kind, u.Name, u.Count, u.Example)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem     %s\n", model.SanitizeForTerminal(p.Error()))
	}
}
