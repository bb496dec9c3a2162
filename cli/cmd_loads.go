package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var loadsCommand = &command{
	name:  "loads",
	usage: "memscope loads [--home DIR] [--demo] [--project PATH] [--days N] [--json]",
	summary: "what the project's sessions actually loaded, and when: CLAUDE.md files, imports, rules, MEMORY.md\n\n" +
		"Per file: the sessions that loaded it, how often and the last time; rules that joined\n" +
		"mid-session; per memory, the sessions whose MEMORY.md listed it, and since when the model\n" +
		"has not seen those past the cut. Read from the transcripts' \"instructions\" attachment\n" +
		"(written at each process start) and \"nested_memory\" attachments (a path-scoped rule or\n" +
		"nested CLAUDE.md joining mid-session).\n" +
		"Sessions from clients that did not record them are counted apart. The next session's rules\n" +
		"and imports are checked against the last --days days (default 30); lint reports the rules\n" +
		"that never loaded and the imports that never resolved.",
	run: steps(parseLoads, runLoads, showLoads),
}

// loadsOptions are loads' flags.
type loadsOptions struct {
	home homeFlags
	// project is the project folder; "" for the current one.
	project string
	days    int
	json    bool
}

// loadsOutput is what loads prints with --json.
type loadsOutput struct {
	Project string `json:"project"`
	loads.Report
}

func parseLoads(e *env, args []string) (loadsOptions, error) {
	var opts loadsOptions
	fs := newFlags("loads", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	fs.IntVar(&opts.days, "days", loads.DefaultDays, "the window rules and imports are judged over, in days")
	if err := parseFlagsOnly(e, fs, args); err != nil {
		return opts, err
	}
	if opts.days < 1 {
		return opts, badUsagef("--days %d: want 1 or more", opts.days)
	}
	return opts, nil
}

// runLoads reads the project's loads.
func runLoads(e *env, opts loadsOptions) (loadsOutput, error) {
	t, err := openProjectMemory(e, &opts.home, opts.project, "")
	if err != nil {
		return loadsOutput{}, err
	}
	defer t.close()
	return loadsOutput{Project: t.project, Report: projectLoads(t, opts.days)}, nil
}

// showLoads prints what runLoads returned, as text or --json.
func showLoads(e *env, opts loadsOptions, out loadsOutput) error {
	return e.output(opts.json, out, func(w io.Writer) { printLoads(w, out) })
}

func printLoads(w io.Writer, r loadsOutput) {
	fmt.Fprintf(w, "project   %s\nmemory    %s\n", model.SanitizeLine(r.Project), model.SanitizeLine(r.MemoryDir))
	fmt.Fprintf(w, "records   %s; %s recorded their loads (%d in the last %d days)", format.Count(r.Transcripts, "transcript", "transcripts"),
		format.Count(r.Sessions, "session", "sessions"), r.SessionsInWindow, r.Days)
	if r.Unrecorded > 0 {
		fmt.Fprintf(w, "; %s recorded none (older clients): not counted", format.Count(r.Unrecorded, "session", "sessions"))
	}
	fmt.Fprintln(w)
	if r.Sessions > 0 {
		fmt.Fprintf(w, "          from %s to %s\n", format.Timestamp(r.First), format.Timestamp(r.Last))
	}
	if len(r.Files) > 0 {
		fmt.Fprintf(w, "\nloaded\n  %-12s %-8s %8s %6s  %-19s  %s\n", "KIND", "LABEL", "SESSIONS", "LOADS", "LAST", "FILE")
		for _, f := range r.Files {
			fmt.Fprintf(w, "  %-12s %-8s %8d %6d  %-19s  %s\n", f.Kind, model.SanitizeLine(f.Label), f.Sessions, f.Loads, format.Timestamp(f.Last), model.SanitizeLine(f.Path))
			var notes []string
			if !f.OnDisk {
				notes = append(notes, "not on disk now")
			}
			if len(f.RecordedAs) > 0 {
				notes = append(notes, "recorded as "+strings.Join(f.RecordedAs, ", "))
			}
			if f.MidSession > 0 {
				j := f.Joins[0]
				n := fmt.Sprintf("joined mid-session %s, last in %s line %d", format.Count(f.MidSession, "time", "times"), format.ShortID(j.Session), j.Line)
				if len(f.Globs) > 0 {
					n += " (paths: " + strings.Join(f.Globs, ", ") + ")"
				}
				notes = append(notes, n)
			}
			for _, n := range notes {
				fmt.Fprintf(w, "  %58s  %s\n", "", model.SanitizeLine(n))
			}
		}
	}
	if len(r.Memories) > 0 {
		fmt.Fprintf(w, "\nmemories (loaded = the session's MEMORY.md listed it)\n")
		for _, m := range r.Memories {
			fmt.Fprintf(w, "  %-32s %s\n", model.SanitizeLine(m.File), m.Summary())
		}
	}
	if len(r.Expected) > 0 {
		fmt.Fprintf(w, "\nthe next session's rules and imports, over the last %d days\n", r.Days)
		for _, x := range r.Expected {
			fmt.Fprintf(w, "  %-6s %s\n         %s\n", x.Kind, model.SanitizeLine(x.Path), model.SanitizeLine(x.Summary(r.SessionsInWindow)))
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem   %s\n", model.SanitizeLine(p.Error()))
	}
}
