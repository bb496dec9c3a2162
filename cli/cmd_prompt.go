package cli

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:  "prompt",
		usage: "memscope prompt [--home DIR] [--project PATH] [--query TEXT]... [--at TIME] [--json]",
		summary: "what the next session's context gets from CLAUDE.md files and memory, layer by layer, and why\n\n" +
			"--query runs recall for a prompt (repeat it for later prompts of the session); the real\n" +
			"client picks recalled memories with a model call, memscope with a local BM25 selector.\n" +
			"--at TIME (RFC 3339, or YYYY-MM-DD[THH:MM]) rebuilds the start of a session at that time.",
		run: runPrompt,
	})
}

// stringsFlag collects a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ", ") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

func runPrompt(e *env, args []string) int {
	fs := flag.NewFlagSet("prompt", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	project := fs.String("project", "", "project folder (default: the current folder)")
	var queries, addDirs stringsFlag
	fs.Var(&queries, "query", "a prompt to run recall for (repeatable)")
	fs.Var(&addDirs, "add-dir", "an extra folder, as with claude --add-dir (repeatable)")
	at := fs.String("at", "", "rebuild the session that started at this time")
	bare := fs.Bool("bare", false, "as in claude --bare (auto memory off)")
	stale := fs.String("stale", "", "staleness thresholds, e.g. project=2:14,user=90:365")
	asJSON := fs.Bool("json", false, "print JSON")
	textOnly := fs.Bool("text", false, "print only the assembled text")
	if !parseFlags(e, fs, args) {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "memscope prompt: %v\n", err)
		return 1
	}
	th, err := memindex.ParseStaleness(*stale)
	if err != nil {
		return fail(err)
	}
	var atTime *time.Time
	if *at != "" {
		t, err := parseAt(*at)
		if err != nil {
			return fail(err)
		}
		atTime = &t
	}
	o, err := e.openHome(hf)
	if err != nil {
		return fail(err)
	}
	defer o.close()
	proj := *project
	if proj == "" {
		proj = o.defaultProject(e)
	}
	if proj, err = absFrom(e, proj); err != nil {
		return fail(err)
	}
	userHome, _ := e.userHome()
	configDir := ""
	if o.home.Source != model.HomeFromDefault {
		configDir = o.home.Dir
	}
	var dirs []string
	for _, d := range addDirs {
		ad, err := absFrom(e, d)
		if err != nil {
			return fail(err)
		}
		dirs = append(dirs, ad)
	}
	p := preview.Build(preview.Options{
		Root:            o.root,
		HomeDir:         o.home.Dir,
		UserHome:        userHome,
		Project:         proj,
		AddDirs:         dirs,
		Getenv:          e.getenv,
		Bare:            *bare,
		ClaudeJSONPaths: model.ClaudeJSONPaths(configDir, userHome),
		Queries:         queries,
		Staleness:       th,
		Now:             e.now(),
		At:              atTime,
	})
	switch {
	case *asJSON:
		if err := writeJSON(e.stdout, p); err != nil {
			return fail(err)
		}
	case *textOnly:
		// Exact when piped (it is what the client sends); made safe to
		// show when printed on a terminal.
		w := e.stdout
		if isTerminal(w) {
			w = humanOutput(w)
		}
		fmt.Fprintln(w, p.Text)
	default:
		preview.WritePreviewReport(humanOutput(e.stdout), p)
	}
	return 0
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

// absFrom makes p absolute against the current folder.
func absFrom(e *env, p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := e.getwd()
	if err != nil {
		return "", fmt.Errorf("current folder: %w", err)
	}
	return filepath.Join(wd, p), nil
}
