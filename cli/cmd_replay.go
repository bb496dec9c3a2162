package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"path"
	"strings"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

const replayUsage = "memscope replay SESSION [--home DIR] [--vault DIR] [--window N] [--json] [--lost [--keep ITEM... [--to memory|rules:FILE|claudemd]]] | replay --lost --all"

var replayCommand = &command{
	name:  "replay",
	usage: replayUsage,
	summary: "every compaction of a session, the turns between them with their context size, and what a resume loads\n\n" +
		"SESSION is a session id (or a unique prefix) under the home, or a path to a .jsonl transcript. A session\n" +
		"the home no longer has (the sweep deleted it) is replayed from the rescue vault's copy, saying so.\n" +
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
	vault   string
}

// replayOut is `replay --json`.
type replayOut struct {
	Session string `json:"session"`
	Path    string `json:"path"`
	// Earlier is set for an older copy a local GC kept
	// (<session>/before-cleanup/*.jsonl.replaced): the session's history
	// before a boundary, which the rewritten transcript no longer holds.
	Earlier bool `json:"earlierHistory,omitempty"`
	// EarlierCopies are the session's older transcript copies (absolute
	// paths) a local GC kept, each replayed with replay PATH.
	EarlierCopies []string `json:"earlierCopies,omitempty"`
	// Vault is set when the home no longer has the session and its copy
	// in the rescue vault was read.
	Vault      *vaultCopy               `json:"vault,omitempty"`
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

// vaultCopy says a session was read from the vault, and how to put it
// back.
type vaultCopy struct {
	Dir     string `json:"dir"`
	Restore string `json:"restore"`
}

// resumeOut adds the message count and uuids to the resume's fields.
type resumeOut struct {
	timeline.Resume
	Messages     int      `json:"messages"`
	MessageUUIDs []string `json:"messageUuids"`
	Preserved    []string `json:"preserved"`
}

func parseReplay(e *env, args []string) (replayOptions, error) {
	var opts replayOptions
	var wf windowFlags
	fs := newFlags("replay", &opts.home, &opts.json)
	wf.add(fs)
	opts.lost.add(fs)
	fs.StringVar(&opts.vault, "vault", "", "the rescue vault `DIR` read for a session the home no longer has (default $MEMSCOPE_VAULT, else $XDG_DATA_HOME/memscope/vault)")
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

// replayRun is a replay ready to print: out has every field but Turns
// and Steps, which come from rp one at a time as they are written, so
// memory is the index's, not the output's.
type replayRun struct {
	out   replayOut
	rp    *timeline.Replay
	close func()
}

// runReplay builds the session's timeline: its compactions, turns, and
// what a resume loads. The transcript is indexed in one pass
// (timeline.Index) and what a turn or step prints that the index does
// not hold is read again by offset when it is printed; call close after.
func runReplay(e *env, opts replayOptions) (run replayRun, err error) {
	sf, err := openSessionOrVault(e, &opts.home, opts.session, opts.vault)
	if err != nil {
		return replayRun{}, err
	}
	ix, err := timeline.ReadIndex(sf.fsys, sf.name)
	if err != nil {
		sf.close()
		return replayRun{}, err
	}
	rr, err := model.OpenRereader(sf.fsys, sf.name, model.ScanOptions{Content: true})
	if err != nil {
		sf.close()
		return replayRun{}, err
	}
	run.close = func() { rr.Close(); sf.close() }
	defer func() {
		if err != nil {
			run.close()
		}
	}()
	w, limits := opts.window, (*window.Resolved)(nil)
	if !opts.given {
		root, homeDir := e.root, ""
		if sf.home != nil {
			root, homeDir = sf.home.root, sf.home.home.Dir
		}
		l := sessionLimits(e, root, homeDir, ix.Summary.CWD, ix.Limits)
		w, limits = l.Config, &l
	}
	rp, err := timeline.BuildReplay(ix, func(i int32) (*model.Record, error) { return ix.Reread(rr, i) }, w, sf.size)
	if err != nil {
		return replayRun{}, err
	}
	rp.Limits = limits
	tl := rp.Timeline
	out := replayOut{Session: tl.Session, Path: sf.disk, Earlier: strings.HasSuffix(sf.disk, model.ReplacedSuffix), Records: tl.Records, Problems: ix.Summary.Problems,
		Window: tl.Window, Thresholds: tl.Thresholds, Limits: tl.Limits, Boundaries: tl.Boundaries, Branches: tl.Branches,
		Sidechains: tl.Sidechains, Turns: []timeline.Turn{}, Steps: []timeline.Step{},
		Resume: resumeOut{Resume: tl.Resume, Messages: len(rp.Messages), MessageUUIDs: rp.UUIDs(rp.Messages),
			Preserved: rp.UUIDs(rp.Preserved)}}
	if out.Problems == nil {
		out.Problems = []model.Problem{}
	}
	if sf.vault != "" {
		out.Vault = &vaultCopy{Dir: sf.vault, Restore: restoreOffer(tl.Session)}
	}
	if sf.home != nil && !out.Earlier {
		for _, p := range earlierCopies(sf.fsys, sf.name) {
			out.EarlierCopies = append(out.EarlierCopies, sf.home.home.Abs(p))
		}
	}
	return replayRun{out: out, rp: rp, close: run.close}, nil
}

// showReplay prints what runReplay returned, as text or --json, and
// closes it.
func showReplay(e *env, opts replayOptions, run replayRun) error {
	defer run.close()
	if opts.json {
		return writeReplayJSON(e.stdout, run)
	}
	var err error
	printReplay(humanOutput(e.stdout), run.out, func(yield func(timeline.Step, timeline.Turn) bool) {
		for k := range run.rp.StepCount() {
			s, serr := run.rp.Step(k)
			var tu timeline.Turn
			if serr == nil && s.Kind == timeline.StepTurn {
				tu, serr = run.rp.Turn(s.Turn)
			}
			if serr != nil {
				err = serr
				return
			}
			if !yield(s, tu) {
				return
			}
		}
	})
	return err
}

// writeReplayJSON writes run as writeJSON writes a replayOut, its turns
// and steps one at a time: the same bytes, without holding them.
func writeReplayJSON(w io.Writer, run replayRun) error {
	var buf bytes.Buffer
	if err := jsonEncoder(&buf, "").Encode(run.out); err != nil {
		return err
	}
	const tail = "  \"turns\": [],\n  \"steps\": []\n}\n"
	head, ok := bytes.CutSuffix(buf.Bytes(), []byte(tail))
	if !ok {
		return fmt.Errorf("replay --json: turns and steps are not the last fields")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(escapeTerminalRunes(head))
	var elem bytes.Buffer
	item := jsonEncoder(&elem, "    ")
	list := func(name string, n int, get func(k int) (any, error)) error {
		fmt.Fprintf(bw, "  %q: [", name)
		for k := range n {
			v, err := get(k)
			if err != nil {
				return err
			}
			elem.Reset()
			if err := item.Encode(v); err != nil {
				return err
			}
			if k > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n    ")
			bw.Write(escapeTerminalRunes(bytes.TrimSuffix(elem.Bytes(), []byte("\n"))))
		}
		if n > 0 {
			bw.WriteString("\n  ")
		}
		bw.WriteString("]")
		return nil
	}
	rp := run.rp
	if err := list("turns", rp.TurnCount(), func(k int) (any, error) { return rp.Turn(k) }); err != nil {
		bw.Flush()
		return err
	}
	bw.WriteString(",\n")
	if err := list("steps", rp.StepCount(), func(k int) (any, error) { return rp.Step(k) }); err != nil {
		bw.Flush()
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// optInt shows a figure the client may leave out.
func optInt(p *int) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprint(*p)
}

// earlierCopies are the .replaced copies of the main transcript name
// (<session>/before-cleanup/*.jsonl.replaced), in name order (the name
// starts with the time in ms).
func earlierCopies(fsys fs.FS, name string) []string {
	dir := path.Join(strings.TrimSuffix(name, ".jsonl"), model.ReplacedDir)
	ents, _ := fs.ReadDir(fsys, dir)
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), model.ReplacedSuffix) {
			out = append(out, path.Join(dir, e.Name()))
		}
	}
	return out
}

func printReplay(w io.Writer, r replayOut, steps iter.Seq2[timeline.Step, timeline.Turn]) {
	fmt.Fprintf(w, "session   %s\nfile      %s, %s\n", r.Session, r.Path, format.Count(r.Records, "record", "records"))
	if v := r.Vault; v != nil {
		fmt.Fprintf(w, "          %s: the home no longer has this session; read from the vault %s\n          %s\n", vaultOnlyLabel, model.SanitizeLine(v.Dir), v.Restore)
	}
	for _, p := range r.EarlierCopies {
		fmt.Fprintf(w, "earlier   %s: the copy kept when a local cleanup rewrote the transcript (memscope replay on it shows that history)\n", model.SanitizeLine(p))
	}
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
	for s, tu := range steps {
		ts := s.Timestamp.Format("15:04:05.000")
		if s.Kind == timeline.StepTurn {
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
