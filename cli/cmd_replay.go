package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

const replayUsage = "memscope replay SESSION [--home DIR] [--window N] [--json] [--lost [--keep ITEM... [--to memory|rules:FILE|claudemd]]] | replay --lost --all"

var replayCommand = &command{
	name:  "replay",
	usage: replayUsage,
	summary: "every compaction of a session, the turns between them with their context size, and what a resume loads\n\n" +
		"SESSION is a session id (or a unique prefix) under the home, or a path to a .jsonl transcript.\n" +
		"--lost lists what each compaction lost (rules, files, commands, todos, instruction files); --all does it for every session.",
	run: runReplayCommand,
}

// replayOptions are replay's flags and SESSION.
type replayOptions struct {
	home    homeFlags
	window  window.Config
	given   bool
	json    bool
	session string
	lost    lostOptions
}

// replayOut is `replay --json`.
type replayOut struct {
	Session string `json:"session"`
	Path    string `json:"path"`
	// Earlier is set for an older copy a local GC kept
	// (<session>/before-cleanup/*.jsonl.replaced): the session's history
	// before a boundary, which the rewritten transcript no longer holds.
	Earlier    bool                     `json:"earlierHistory,omitempty"`
	Records    int                      `json:"records"`
	Problems   []model.Problem          `json:"problems"`
	Window     window.Config            `json:"window"`
	Thresholds timeline.Thresholds      `json:"thresholds"`
	Limits     *window.Resolved         `json:"limits,omitempty"`
	Boundaries []timeline.BoundaryInfo  `json:"boundaries"`
	Resume     resumeOut                `json:"resume"`
	Branches   []timeline.BranchInfo    `json:"branches"`
	Sidechains []timeline.SidechainInfo `json:"sidechains"`
	Turns      []timeline.Turn          `json:"turns"`
	Steps      []timeline.Step          `json:"steps"`
}

// resumeOut adds the message count and uuids to the resume's fields.
type resumeOut struct {
	timeline.Resume
	Messages     int      `json:"messages"`
	MessageUUIDs []string `json:"messageUuids"`
	Preserved    []string `json:"preserved"`
}

func uuidsOf(rs []*model.Record) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.UUID)
	}
	return out
}

func parseReplay(e *env, args []string) (replayOptions, error) {
	var opts replayOptions
	var wf windowFlags
	fs := newFlags("replay", &opts.home, &opts.json)
	wf.add(fs)
	opts.lost.add(fs)
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	if err := opts.lost.check(len(pos)); err != nil {
		return opts, err
	}
	if len(pos) != 1 && !opts.lost.all {
		return opts, usageError("usage: " + replayUsage)
	}
	if len(pos) == 1 {
		opts.session = pos[0]
	}
	opts.window, err = wf.config(e)
	wf.noteGiven(fs)
	opts.given = wf.given
	return opts, err
}

// runReplay builds the session's timeline: its compactions, turns, and
// what a resume loads.
func runReplay(e *env, opts replayOptions) (replayOut, error) {
	sf, err := openSession(e, &opts.home, opts.session)
	if err != nil {
		return replayOut{}, err
	}
	defer sf.close()
	tr, err := model.ReadTranscript(sf.fsys, sf.name)
	if err != nil {
		return replayOut{}, err
	}
	var tl timeline.Timeline
	if opts.given {
		tl = timeline.Build(tr, opts.window, sf.size)
	} else {
		root, homeDir := e.root, ""
		if sf.home != nil {
			root, homeDir = sf.home.root, sf.home.home.Dir
		}
		tl = timeline.BuildResolved(tr, sessionLimits(e, root, homeDir, tr), sf.size)
	}
	out := replayOut{Session: tl.Session, Path: sf.disk, Earlier: strings.HasSuffix(sf.disk, model.ReplacedSuffix), Records: tl.Records, Problems: tr.Summary.Problems,
		Window: tl.Window, Thresholds: tl.Thresholds, Limits: tl.Limits, Boundaries: tl.Boundaries, Branches: tl.Branches,
		Sidechains: tl.Sidechains, Turns: tl.Turns, Steps: tl.Steps,
		Resume: resumeOut{Resume: tl.Resume, Messages: len(tl.Resume.Messages), MessageUUIDs: uuidsOf(tl.Resume.Messages),
			Preserved: uuidsOf(tl.Resume.Preserved)}}
	if out.Problems == nil {
		out.Problems = []model.Problem{}
	}
	return out, nil
}

// showReplay prints what runReplay returned, as text or --json.
func showReplay(e *env, opts replayOptions, out replayOut) error {
	return e.output(opts.json, out, func(w io.Writer) { printReplay(w, out) })
}

// optInt shows a figure the client may leave out.
func optInt(p *int) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprint(*p)
}

func printReplay(w io.Writer, r replayOut) {
	fmt.Fprintf(w, "session   %s\nfile      %s, %s\n", r.Session, r.Path, format.Count(r.Records, "record", "records"))
	if r.Earlier {
		fmt.Fprintln(w, "          earlier history: the copy kept when a local cleanup rewrote the transcript (rows before a boundary exist only here)")
	}
	t := r.Thresholds
	fmt.Fprintf(w, "window    %d tokens: effective %d, warning at %d, autocompact at %d, blocked at %d\n",
		r.Window.ContextWindow, t.Effective, t.Warning, t.Autocompact, t.Blocked)
	if l := r.Limits; l != nil {
		fmt.Fprintf(w, "          window %s · %s; %s\n", window.Short(l.Window.Tokens), l.Window.Source, l.Line())
		if n := l.IdleNote(); n != "" && l.Autocompact.Source != "default" {
			fmt.Fprintf(w, "          %s\n", n)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, " line  time          event")
	for _, s := range r.Steps {
		ts := s.Timestamp.Format("15:04:05.000")
		if s.Kind == timeline.StepTurn {
			tu := r.Turns[s.Turn]
			fmt.Fprintf(w, "%5d  %s  turn          %7d tokens  %-11s  est. %s\n", tu.Line, ts, tu.ContextTokens, tu.Level, contextLine(s.Context))
			continue
		}
		b := r.Boundaries[s.Boundary]
		if b.Kind == timeline.BoundaryMicrocompact {
			fmt.Fprintf(w, "%5d  %s  %-12s  %s %s tokens, saved %s\n", b.Line, ts, b.Kind, b.Trigger, optInt(b.PreTokens), optInt(b.TokensSaved))
			continue
		}
		kind := string(b.Compaction)
		if kind == "" {
			kind = string(b.Trigger)
		}
		fmt.Fprintf(w, "%5d  %s  %-12s  %s %s → %s tokens", b.Line, ts, b.Kind, kind, optInt(b.PreTokens), optInt(b.PostTokens))
		if b.Compaction == timeline.CompactionPartial {
			fmt.Fprintf(w, ", %s summarized", optInt(b.MessagesSummarized))
			if b.Direction != "" {
				fmt.Fprintf(w, " (%s)", b.Direction)
			}
		}
		if b.SummaryUUID != "" {
			fmt.Fprintf(w, ", summary %s", format.Bytes(int64(b.SummaryBytes)))
		}
		if b.Preserved != nil {
			fmt.Fprintf(w, ", preserves %s..%s", format.ShortID(b.Preserved.HeadUUID), format.ShortID(b.Preserved.TailUUID))
			if b.PreservedMessages > 0 {
				fmt.Fprintf(w, " (%s)", format.Count(b.PreservedMessages, "message", "messages"))
			}
		}
		if b.PreservedBroken != "" {
			fmt.Fprintf(w, " (BROKEN: %s)", b.PreservedBroken)
		}
		fmt.Fprintln(w)
	}
	res := r.Resume
	fmt.Fprintf(w, "\nresume    leaf %s (%s), %s", format.ShortID(res.Leaf), res.LeafSource, format.Count(res.Messages, "message", "messages"))
	if res.FromBoundary != "" {
		fmt.Fprintf(w, " from boundary %s", format.ShortID(res.FromBoundary))
	}
	if len(res.Preserved) > 0 {
		fmt.Fprintf(w, ", %s relinked", format.Count(len(res.Preserved), "preserved message", "preserved messages"))
	}
	fmt.Fprintln(w)
	if res.Fallback {
		fmt.Fprintf(w, "          fell back to the full history: %s\n", res.FallbackReason)
	}
	if res.SkippedBeforeLine > 0 {
		fmt.Fprintf(w, "          file over 5 MiB: lines before %d are not read\n", res.SkippedBeforeLine)
	}
	fmt.Fprintf(w, "branches  %s", format.Count(len(r.Branches), "rewind point", "rewind points"))
	for _, b := range r.Branches {
		fmt.Fprintf(w, "; %s → %s", format.ShortID(b.Parent), format.Count(len(b.Children), "branch", "branches"))
	}
	fmt.Fprintf(w, "\nsubagents %s\n", format.Count(len(r.Sidechains), "sidechain", "sidechains"))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem   %s\n", p.Error())
	}
}

func contextLine(c timeline.Context) string {
	return fmt.Sprintf("system %d, instructions %d, memory %d, conversation %d, tool results %d",
		c.System, c.Instructions, c.Memory, c.Conversation, c.ToolResults)
}
