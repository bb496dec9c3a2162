package cli

import (
	"fmt"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/preview"
)

var promptCommand = &command{
	name:  "prompt",
	usage: "memscope prompt [--home DIR] [--project PATH] [--query TEXT]... [--at TIME] [--recall on|off|env] [--json]",
	summary: "what the next session's context gets from CLAUDE.md files and memory, layer by layer, and why\n\n" +
		"--query runs recall for a prompt (repeat it for later prompts of the session); the real\n" +
		"client picks recalled memories with a model call, memscope with a local BM25 selector.\n" +
		"Recall is off unless CLAUDE_MEMORY_STORES is set (or a server-side gate turns it on); when\n" +
		"it is on, the client leaves MEMORY.md out. The report shows both states; --recall on|off\n" +
		"shows the layers of the other one (env, the default, follows the environment).\n" +
		"--at TIME (RFC 3339, or YYYY-MM-DD[THH:MM]) rebuilds the start of a session at that time.",
	run: steps(parsePrompt, runPrompt, showPrompt),
}

// promptOptions are prompt's flags.
type promptOptions struct {
	home homeFlags
	// project is the project folder; "" for the current one.
	project string
	// queries are prompts to run recall for; addDirs extra folders.
	queries, addDirs stringsFlag
	// at rebuilds the session that started then; nil for now.
	at    *time.Time
	bare  bool
	stale memindex.StalenessThresholds
	// recall is --recall: the recall state to show.
	recall preview.RecallSwitch
	// json prints JSON; text only the assembled text.
	json, text bool
}

func parsePrompt(e *env, args []string) (promptOptions, error) {
	var opts promptOptions
	fs := newFlags("prompt", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	fs.Var(&opts.queries, "query", "a prompt to run recall for (repeatable)")
	fs.Var(&opts.addDirs, "add-dir", "an extra folder, as with claude --add-dir (repeatable); its CLAUDE.md files load only when CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD is true, as in the client")
	at := fs.String("at", "", "rebuild the session that started at this time")
	fs.BoolVar(&opts.bare, "bare", false, "as in claude --bare (auto memory off)")
	stale := fs.String("stale", "", "staleness thresholds, e.g. project=2:14,user=90:365")
	fs.BoolVar(&opts.text, "text", false, "print only the assembled text")
	recall := fs.String("recall", "env", "recall state to show: on, off, or env (CLAUDE_MEMORY_STORES decides)")
	if err := parseFlags(e, fs, args); err != nil {
		return opts, err
	}
	var rerr error
	if opts.recall, rerr = preview.ParseRecallSwitch(*recall); rerr != nil {
		return opts, badUsage(rerr)
	}
	// A bad --stale or --at is reported like a failure (exit 1), as it
	// always has been.
	var err error
	if opts.stale, err = memindex.ParseStalenessOver(e.settings().Staleness, *stale); err != nil {
		return opts, err
	}
	if *at != "" {
		t, err := parseAt(*at)
		if err != nil {
			return opts, err
		}
		opts.at = &t
	}
	return opts, nil
}

// runPrompt assembles what the next session's context gets from
// CLAUDE.md files and memory.
func runPrompt(e *env, opts promptOptions) (preview.Preview, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return preview.Preview{}, err
	}
	defer o.close()
	proj := opts.project
	if proj == "" {
		proj = o.defaultProject(e)
	}
	if proj, err = absFrom(e, proj); err != nil {
		return preview.Preview{}, err
	}
	var dirs []string
	for _, d := range opts.addDirs {
		ad, err := absFrom(e, d)
		if err != nil {
			return preview.Preview{}, err
		}
		dirs = append(dirs, ad)
	}
	return previewFor(e, o.root, o.home, proj, func(po *preview.Options) {
		po.AddDirs, po.Bare, po.Queries, po.Recall, po.Staleness, po.At = dirs, opts.bare, opts.queries, opts.recall, opts.stale, opts.at
	}), nil
}

// showPrompt prints what runPrompt returned, as text or --json.
func showPrompt(e *env, opts promptOptions, p preview.Preview) error {
	switch {
	case opts.json:
		return writeJSON(e.stdout, p)
	case opts.text:
		// Exact when piped (it is what the client sends); made safe to
		// show when printed on a terminal.
		fmt.Fprintln(exactOutput(e.stdout), p.Text)
		return nil
	}
	preview.WritePreviewReport(humanOutput(e.stdout), p)
	return nil
}

// atLayouts are the forms --at accepts; times without a zone are UTC.
var atLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"}

func parseAt(s string) (time.Time, error) {
	for _, l := range atLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--at %q: want RFC 3339 or YYYY-MM-DD[THH:MM[:SS]]", s)
}
