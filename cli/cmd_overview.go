package cli

import (
	"fmt"
	"io"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
)

var overviewCommand = &command{
	name:  "overview",
	usage: "memscope overview [--home DIR] [--demo] [--project PATH] [--json] [--no-cache]",
	summary: "what needs you, for the open project and the whole home: each line a count, why, and the command and pane that show the same count\n\n" +
		"The lines: memories past MEMORY.md's cut (and how many are corrections), stale memories by type, lint's\n" +
		"errors and warnings, the review inbox, the next session's prompt against the window and its biggest layer,\n" +
		"secrets at rest by store and the scrub copies still on disk, sessions the next cleanup deletes within 7\n" +
		"days and which of them the rescue vault lacks, sessions already lost, sessions only in a .replaced copy,\n" +
		"running sessions near autocompact, memory writes the gate held today, doctor's summary, and what stat\n" +
		"skipped. Each line is computed by the engine function its command calls, so the counts are the\n" +
		"commands' counts.",
	run: steps(parseOverview, runOverview, showOverview),
}

// overviewOptions are overview's flags.
type overviewOptions struct {
	home homeFlags
	// project is the project folder; "" for the current one.
	project string
	stale   memindex.StalenessThresholds
	json    bool
	cache   cacheFlags
}

// overviewResult is every line, in the Overview's order.
type overviewResult struct {
	Home    string          `json:"home"`
	Project string          `json:"project"`
	Lines   []overview.Line `json:"lines"`
}

func parseOverview(e *env, args []string) (overviewOptions, error) {
	var opts overviewOptions
	fs := newFlags("overview", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	opts.cache.add(fs)
	if err := parseFlagsOnly(e, fs, args); err != nil {
		return opts, err
	}
	var err error
	opts.stale, err = memindex.ParseStalenessOver(e.settings().Staleness, "")
	return opts, err
}

// runOverview computes every line (engine/overview), each from the engine
// function its command calls.
func runOverview(e *env, opts overviewOptions) (overviewResult, error) {
	src, o, err := overviewSource(e, opts)
	if err != nil {
		return overviewResult{}, err
	}
	defer o.close()
	return overviewResult{Home: o.home.Dir, Project: src.Project, Lines: overview.All(src)}, nil
}

// overviewSource opens the home and says what the lines are computed
// from: the home, the machine, and the project (--project, else the
// current folder's). The caller closes o.
func overviewSource(e *env, opts overviewOptions) (*overview.Source, *opened, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return nil, nil, err
	}
	proj := opts.project
	if proj == "" {
		proj = o.defaultProject(e)
	}
	if proj != "" {
		if proj, err = absFrom(e, proj); err != nil {
			o.close()
			return nil, nil, err
		}
	}
	src := &overview.Source{Env: projectEnv(e, o.root, o.home), Project: proj, Staleness: opts.stale, Alive: e.alive, Cache: e.cache(opts.cache, o),
		Places: overview.FindPlaces(e.getenv, e.userHome, o.home, o.demo != nil)}
	return src, o, nil
}

// showOverview prints what runOverview returned, as text or --json.
func showOverview(e *env, opts overviewOptions, r overviewResult) error {
	return e.output(opts.json, r, func(w io.Writer) { printOverview(w, r) })
}

func printOverview(w io.Writer, r overviewResult) {
	fmt.Fprintf(w, "home     %s\nproject  %s\n", model.SanitizeLine(r.Home), model.SanitizeLine(r.Project))
	scope := overview.Scope("")
	for _, l := range r.Lines {
		if l.Scope != scope {
			scope = l.Scope
			fmt.Fprintf(w, "\n%s\n", scope)
		}
		mark := " "
		if l.Needs {
			mark = "●"
		}
		fmt.Fprintf(w, "%s %-11s %s\n", mark, l.ID, model.SanitizeLine(l.Text))
		if l.Pane == "" {
			fmt.Fprintf(w, "  %-11s → %s\n", "", l.Command)
		} else {
			fmt.Fprintf(w, "  %-11s → %s pane · %s\n", "", l.Pane, l.Command)
		}
	}
}
