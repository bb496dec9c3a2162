package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// lostOptions are replay's loss-ledger flags.
type lostOptions struct {
	on, all bool
	keep    stringList
	to      string
	cache   cacheFlags
}

// stringList is a flag given several times (--keep 1:r1 --keep 2:r3), or
// once with a comma-separated list.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

func (o *lostOptions) add(fs *flag.FlagSet) {
	fs.BoolVar(&o.on, "lost", false, "list what each compaction lost: rules, files, commands, todos, instruction files")
	fs.BoolVar(&o.all, "all", false, "with --lost: every session of the home")
	fs.Var(&o.keep, "keep", "with --lost: keep `ITEM` (BOUNDARY:ID as listed, e.g. 1:r2) where the client re-reads it; repeatable")
	o.cache.add(fs)
	fs.StringVar(&o.to, "to", "memory", "with --keep: `WHERE` to keep it: memory (a feedback memory in MEMORY.md), rules:FILE (.claude/rules/FILE.md) or claudemd")
}

// check refuses flag combinations that mean nothing.
func (o *lostOptions) check(positional int) error {
	switch {
	case (o.all || len(o.keep) > 0) && !o.on:
		return usageError("--all and --keep go with --lost")
	case o.all && positional != 0:
		return usageError("--lost --all takes no SESSION")
	case o.all && len(o.keep) > 0:
		return usageError("--keep needs one SESSION, not --all")
	}
	return nil
}

// runReplayCommand is replay: the timeline, or with --lost the ledger.
func runReplayCommand(e *env, args []string) error {
	opts, err := parseReplay(e, args)
	if err != nil {
		return err
	}
	if !opts.lost.on {
		out, err := runReplay(e, opts)
		if err != nil {
			return err
		}
		return showReplay(e, opts, out)
	}
	if opts.lost.all {
		out, err := runLostAll(e, opts)
		if err != nil {
			return err
		}
		if opts.json {
			return writeJSONPart(e.stdout, lostAllJSON(out))
		}
		return e.output(false, out, func(w io.Writer) { printLostAll(w, out) })
	}
	out, err := runLost(e, opts)
	if err != nil {
		return err
	}
	return e.output(opts.json, out, func(w io.Writer) { printLedger(w, out) })
}

// lostOut is `replay SESSION --lost --json`.
type lostOut struct {
	Session    string            `json:"session"`
	Path       string            `json:"path"`
	Boundaries []ledger.Boundary `json:"boundaries"`
	Problems   []model.Problem   `json:"problems"`
	Kept       []keptOut         `json:"kept,omitempty"`
}

// keptOut is one item --keep wrote.
type keptOut struct {
	Ref  string `json:"ref"`
	Path string `json:"path"`
	Note string `json:"note,omitempty"`
}

// runLost computes the ledger of one session, and keeps the items asked for.
func runLost(e *env, opts replayOptions) (lostOut, error) {
	sf, err := openSession(e, &opts.home, opts.session)
	if err != nil {
		return lostOut{}, err
	}
	defer sf.close()
	tr, err := model.ReadTranscriptWith(sf.fsys, sf.name, ledger.ScanOptions)
	if err != nil {
		return lostOut{}, err
	}
	l := ledger.Build(tr)
	out := lostOut{Session: tr.Summary.SessionID, Path: sf.disk, Boundaries: l.Boundaries, Problems: tr.Summary.Problems}
	if out.Problems == nil {
		out.Problems = []model.Problem{}
	}
	if len(opts.lost.keep) > 0 {
		out.Kept, err = keepLost(e, opts, sf, tr, l)
	}
	return out, err
}

// lostAllOut is `replay --lost --all --json`.
type lostAllOut struct {
	Sessions []ledger.Session `json:"sessions"`
	Problems []model.Problem  `json:"problems"`
}

func runLostAll(e *env, opts replayOptions) (lostAllOut, error) {
	o, err := e.openHome(&opts.home)
	if err != nil {
		return lostAllOut{}, err
	}
	defer o.close()
	// A run holds one transcript per worker at a time, whose records
	// are garbage once its ledger is made: a collection at every
	// doubling of that small heap is a tenth of a cold run's CPU (W: 6.1
	// -> 5.3 CPU-s at 400, peak RSS 57 -> 131 MB).
	defer e.raiseGC(400)()
	ss, probs := ledger.Home(o.home.FS, o.home.Dir, e.cache(opts.lost.cache, o))
	if probs == nil {
		probs = []model.Problem{}
	}
	return lostAllOut{Sessions: ss, Problems: probs}, nil
}

// lostTextMax is how much of an item's text a line shows.
const lostTextMax = 100

func printLedger(w io.Writer, out lostOut) {
	fmt.Fprintf(w, "session   %s\nfile      %s\n", out.Session, out.Path)
	if len(out.Boundaries) == 0 {
		fmt.Fprintln(w, "\nno compaction: nothing was lost")
	}
	printBoundaries(w, out.Boundaries)
	for _, k := range out.Kept {
		fmt.Fprintf(w, "kept      %s → %s", k.Ref, k.Path)
		if k.Note != "" {
			fmt.Fprintf(w, " (%s)", k.Note)
		}
		fmt.Fprintln(w)
	}
	for _, p := range out.Problems {
		fmt.Fprintf(w, "problem   %s\n", p.Error())
	}
}

func printLostAll(w io.Writer, out lostAllOut) {
	rules := 0
	for _, s := range out.Sessions {
		kind := ""
		if s.File.AgentID != "" {
			kind = " (subagent " + s.File.AgentID + ")"
		}
		fmt.Fprintf(w, "session   %s%s\nfile      %s\n", s.File.SessionID, kind, s.File.Path)
		printBoundaries(w, s.Boundaries)
		fmt.Fprintln(w)
		for _, b := range s.Boundaries {
			rules += b.Count(ledger.KindRule)
		}
	}
	fmt.Fprintf(w, "%s with compactions; rules you gave that compactions dropped: %d\n",
		format.Count(len(out.Sessions), "transcript", "transcripts"), rules)
	for _, p := range out.Problems {
		fmt.Fprintf(w, "problem   %s\n", p.Error())
	}
}

func printBoundaries(w io.Writer, bs []ledger.Boundary) {
	for _, b := range bs {
		side := ""
		if b.Sidechain {
			side = " (sidechain)"
		}
		kind := string(b.Compaction)
		if kind == "" {
			kind = "compaction"
		}
		fmt.Fprintf(w, "\n⟲ %d  line %d%s  %s %s → %s tokens · %s\n", b.Index, b.Line, side, kind, optInt(b.PreTokens), optInt(b.PostTokens), b.CountsText())
		var had []string
		for _, k := range ledger.Kinds {
			had = append(had, ledger.Words(k, b.Had[k]))
		}
		fmt.Fprintf(w, "  had before: %s\n", strings.Join(had, ", "))
		for _, it := range b.Lost {
			fmt.Fprintf(w, "  %-7s  %-6s  line %-6d %s", it.Kind, b.Ref(it), it.Line, it.Short(lostTextMax))
			if it.Detail != "" {
				fmt.Fprintf(w, "  (%s)", it.Detail)
			}
			fmt.Fprintln(w)
		}
		for _, m := range b.Memory {
			if m.After && !m.Before {
				fmt.Fprintf(w, "  attached after only: %s (%s)\n", m.Path, m.Type)
			}
		}
	}
}
