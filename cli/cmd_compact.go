package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// compactUsage is the command line of `memscope compact`.
const compactUsage = "memscope compact SESSION [--window N] [--max-output N] [--preserve N] [--manual] [--out FILE] [--json] [--flush [--write]]"

var compactCommand = &command{
	name:  "compact",
	usage: compactUsage,
	summary: "run the five-stage compaction pipeline on a session and show what each stage freed\n\n" +
		"SESSION is a session id under the home or a path to a .jsonl. The transcript is never changed;\n" +
		"--out FILE writes a copy with the records the client would append (microcompact and compact\n" +
		"boundaries, summary), which resumes like a compacted session. --flush shows the memories the\n" +
		"pre-compaction flush would save from the messages autocompact summarizes (into the memory folder of\n" +
		"the session's folder, or --project); --write saves them, --force past the security scan.\n" +
		"autoCompactEnabled: false in the settings turns stage 5 off, as in the client; --manual compacts as\n" +
		"/compact does (stage 5 alone, whatever the size, trigger manual).",
	run: steps(parseCompact, runCompact, showCompact),
}

// compactOptions are compact's flags and SESSION.
type compactOptions struct {
	home   homeFlags
	window window.Config
	// preserve keeps the newest messages verbatim (a partial compaction).
	preserve int
	// manual compacts as /compact does.
	manual bool
	// out is the file the compacted session is written to, "" for none.
	out     string
	json    bool
	flush   flushOptions
	session string
}

// compactOut is `compact --json`.
type compactOut struct {
	Session    string              `json:"session"`
	Path       string              `json:"path"`
	Window     window.Config       `json:"window"`
	Thresholds timeline.Thresholds `json:"thresholds"`
	Messages   int                 `json:"messages"`
	// Measured is set when Before starts from the newest usage figure
	// rather than from an estimate of the whole context.
	Measured bool `json:"measured"`
	// AutoCompactEnabled is the setting in effect, AutoCompactSetBy the
	// settings file that set it ("" for the default, on).
	AutoCompactEnabled bool   `json:"autoCompactEnabled"`
	AutoCompactSetBy   string `json:"autoCompactSetBy,omitempty"`
	// Manual is set for --manual: one compaction, as /compact.
	Manual  bool                  `json:"manual"`
	Before  window.Tokens         `json:"before"`
	After   window.Tokens         `json:"after"`
	Fits    bool                  `json:"fits"`
	Stages  []compact.StageResult `json:"stages"`
	Records int                   `json:"records"`
	Out     string                `json:"out,omitempty"`
	Flush   *flushOut             `json:"flush,omitempty"`
}

func parseCompact(e *env, args []string) (compactOptions, error) {
	var opts compactOptions
	var wf windowFlags
	fs := newFlags("compact", &opts.home, &opts.json)
	wf.add(fs)
	fs.IntVar(&opts.preserve, "preserve", 0, "keep the N newest messages verbatim after the summary (a partial compaction)")
	fs.BoolVar(&opts.manual, "manual", false, "compact as /compact does: summarize now, whatever the context size, the circuit breaker or autoCompactEnabled (trigger manual)")
	fs.StringVar(&opts.out, "out", "", "write the compacted session as a new transcript `FILE`")
	opts.flush.add(fs)
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	if len(pos) != 1 || !opts.flush.valid() {
		return opts, usageError("usage: " + compactUsage)
	}
	opts.session = pos[0]
	opts.window, err = wf.config(e)
	return opts, err
}

// runCompact runs the compaction pipeline on the session as a resume
// loads it, with the settings that apply to it, the flush hook when
// asked for, and writes the compacted copy to --out.
func runCompact(e *env, opts compactOptions) (compactOut, error) {
	sf, err := openSession(e, &opts.home, opts.session)
	if err != nil {
		return compactOut{}, err
	}
	defer sf.close()
	var tr *model.Transcript
	var in compact.Input
	var sum model.TranscriptSummary
	if opts.flush.flush {
		// The flush hook reads the session whole (extract's
		// FlushConfig.Transcript).
		if tr, err = model.ReadTranscriptWith(sf.fsys, sf.name, compactScan); err != nil {
			return compactOut{}, err
		}
		in, sum = compact.InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{FileSize: sf.size})), tr.Summary
	} else if in, sum, err = indexedCompactInput(sf); err != nil {
		return compactOut{}, err
	}
	w := opts.window
	cfg := compact.DefaultConfig(w)
	cfg.PreserveRecent = opts.preserve
	project := opts.flush.project
	if project == "" {
		project = sum.CWD
	}
	setting := readAutocompactSetting(e, &opts.home, sf, project)
	for _, p := range setting.problems {
		fmt.Fprintf(e.stderr, "memscope compact: settings: %s:%d: %s\n", p.File, p.Line, p.Reason)
	}
	cfg.AutocompactOff = !setting.enabled
	st := &compact.State{}
	flush, err := opts.flush.start(e, &opts.home, sf, tr, st)
	if err != nil {
		return compactOut{}, err
	}
	if flush != nil {
		defer flush.close()
		cfg.FlushHook = flush.hook
	}
	runner := compact.Run
	if opts.manual {
		runner = compact.RunManual
	}
	res, err := runner(in, cfg, st, e.now())
	if err != nil {
		return compactOut{}, err
	}
	out := compactOut{Session: sum.SessionID, Path: sf.disk, Window: w,
		Thresholds: timeline.Thresholds{Effective: w.Effective(), Warning: w.WarningAt(), Autocompact: w.AutocompactAt(), Blocked: w.BlockedAt()},
		Messages:   len(in.Messages), Measured: in.Measured > 0, AutoCompactEnabled: setting.enabled, AutoCompactSetBy: setting.setBy, Manual: opts.manual, Before: res.Before, After: res.After, Fits: res.Fits, Stages: res.Stages, Records: len(res.Records)}
	if out.Stages == nil {
		out.Stages = []compact.StageResult{}
	}
	if flush != nil {
		out.Flush = flush.finish(e.now(), &opts.flush)
	}
	if opts.out != "" {
		if err := writeCompacted(e.writer(), sf.fsys, sf.name, sf.disk, opts.out, res.Records); err != nil {
			return compactOut{}, err
		}
		out.Out, _ = filepath.Abs(opts.out)
	}
	return out, nil
}

// compactScan reads the records the pipeline takes: their text, for
// summaries.
var compactScan = model.ScanOptions{Content: true, KeepText: true}

// indexedCompactInput is the pipeline's input for the session of sf read
// as an index (timeline.Index): only the records of the resume chain,
// which the pipeline takes whole, are read again, so the memory is the
// index's (about 90 bytes a record) and the chain's, not the file's.
func indexedCompactInput(sf *sessionFile) (compact.Input, model.TranscriptSummary, error) {
	ix, err := timeline.ReadIndex(sf.fsys, sf.name)
	if err != nil {
		return compact.Input{}, model.TranscriptSummary{}, err
	}
	rr, err := model.OpenRereader(sf.fsys, sf.name, compactScan)
	if err != nil {
		return compact.Input{}, model.TranscriptSummary{}, err
	}
	defer rr.Close()
	in, err := compact.InputFromIndex(ix, timeline.ResumeOptions{FileSize: sf.size}, func(i int32) (*model.Record, error) { return ix.ReadAgain(rr, i) })
	return in, ix.Summary, err
}

// showCompact prints what runCompact returned, as text or --json.
func showCompact(e *env, opts compactOptions, out compactOut) error {
	err := e.output(opts.json, out, func(w io.Writer) {
		printCompact(w, out)
		if out.Flush != nil {
			printFlush(w, out.Flush, opts.flush.write)
		}
	})
	if err != nil {
		return err
	}
	if out.Flush != nil && len(out.Flush.Failed) > 0 {
		return exitStatus(1)
	}
	return nil
}

// writeCompacted writes the input transcript (name in fsys, src on
// disk) followed by records to dst, which must not be the input: the
// user's transcript is never modified. The transcript is streamed, not
// read whole: its size does not matter.
func writeCompacted(w model.WriteFS, fsys fs.FS, name, src, dst string, records [][]byte) error {
	if st, err := os.Stat(dst); err == nil {
		if in, err2 := os.Stat(src); err2 == nil && os.SameFile(st, in) {
			return fmt.Errorf("--out %s is the input transcript; memscope never modifies it", dst)
		}
	}
	f, err := model.OpenRegular(fsys, name)
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	defer f.Close()
	return model.WriteFileAtomicFrom(w, dst, 0o600, func(out io.Writer) error {
		last := &lastByte{w: out}
		if _, err := io.Copy(last, f); err != nil {
			return fmt.Errorf("read %s: %w", src, err)
		}
		if last.n > 0 && last.b != '\n' {
			if _, err := out.Write([]byte{'\n'}); err != nil {
				return err
			}
		}
		for _, r := range records {
			if _, err := out.Write(append(r[:len(r):len(r)], '\n')); err != nil {
				return err
			}
		}
		return nil
	})
}

// lastByte passes writes on and remembers the last byte written.
type lastByte struct {
	w io.Writer
	n int64
	b byte
}

func (l *lastByte) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if n > 0 {
		l.n += int64(n)
		l.b = p[n-1]
	}
	return n, err
}

func printCompact(w io.Writer, r compactOut) {
	fmt.Fprintf(w, "session   %s\nfile      %s, %s on the resume chain\n", r.Session, r.Path, format.Count(r.Messages, "message", "messages"))
	t := r.Thresholds
	fmt.Fprintf(w, "window    %d tokens: autocompact at %d, blocked at %d\n", r.Window.ContextWindow, t.Autocompact, t.Blocked)
	how := "estimated: no usage figure on the resume chain"
	if r.Measured {
		how = "the newest response's usage plus an estimate of what followed it"
	}
	fmt.Fprintf(w, "context   %d tokens (%s)\n", r.Before, how)
	if !r.AutoCompactEnabled {
		fmt.Fprintf(w, "settings  autoCompactEnabled: false in %s: the client does not autocompact; --manual compacts as /compact does\n", r.AutoCompactSetBy)
	}
	fmt.Fprintln(w)
	if len(r.Stages) == 0 {
		fmt.Fprintln(w, "under the autocompact threshold: no stage runs")
	}
	for _, s := range r.Stages {
		fmt.Fprintf(w, "%-19s %7d → %7d  freed %7d  %s\n", s.Stage, s.Before, s.After, s.Freed, s.Detail)
	}
	verdict := "fits"
	if !r.Fits {
		verdict = "still over the threshold"
	}
	fmt.Fprintf(w, "\nafter     %d tokens: %s\n", r.After, verdict)
	if r.Out != "" {
		fmt.Fprintf(w, "wrote     %s (+%s)\n", r.Out, format.Count(r.Records, "record", "records"))
	}
}
