package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

// compactUsage is the command line of `memscope compact`.
const compactUsage = "memscope compact SESSION [--window N] [--max-output N] [--preserve N] [--manual] [--out FILE] [--json] [--flush [--write]]"

func init() {
	register(command{
		name:  "compact",
		usage: compactUsage,
		summary: "run the five-stage compaction pipeline on a session and show what each stage freed\n" +
			"SESSION is a session id under the home or a path to a .jsonl. The transcript is never changed;\n" +
			"--out FILE writes a copy with the records the client would append (microcompact and compact\n" +
			"boundaries, summary), which resumes like a compacted session. --flush shows the memories the\n" +
			"pre-compaction flush would save from the messages autocompact summarizes (into the memory folder of\n" +
			"the session's folder, or --project); --write saves them, --force past the security scan.\n" +
			"autoCompactEnabled: false in the settings turns stage 5 off, as in the client; --manual compacts as\n" +
			"/compact does (stage 5 alone, whatever the size, trigger manual).",
		run: runCompact,
	})
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

func runCompact(e *env, args []string) int {
	fs := flag.NewFlagSet("compact", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	wf := addWindowFlags(fs)
	preserve := fs.Int("preserve", 0, "keep the N newest messages verbatim after the summary (a partial compaction)")
	manual := fs.Bool("manual", false, "compact as /compact does: summarize now, whatever the context size, the circuit breaker or autoCompactEnabled (trigger manual)")
	outPath := fs.String("out", "", "write the compacted session as a new transcript FILE")
	asJSON := fs.Bool("json", false, "print JSON")
	ff := addFlushFlags(fs)
	pos, ok := parseInterspersed(e, fs, args)
	if !ok {
		return 2
	}
	if len(pos) != 1 || !ff.valid() {
		fmt.Fprintln(e.stderr, "usage: "+compactUsage)
		return 2
	}
	w := wf.config(e)
	if err := w.Validate(); err != nil {
		fmt.Fprintf(e.stderr, "memscope compact: %v\n", err)
		return 2
	}
	sf, err := openSession(e, hf, pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope compact: %v\n", err)
		return 1
	}
	defer sf.close()
	tr, err := model.ReadTranscriptWith(sf.fsys, sf.name, model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope compact: %v\n", err)
		return 1
	}
	in := compact.InputFromResume(tr, timeline.ResumeTranscript(tr, timeline.ResumeOptions{FileSize: sf.size}))
	cfg := compact.DefaultConfig(w)
	cfg.PreserveRecent = *preserve
	project := ff.project
	if project == "" {
		project = tr.Summary.CWD
	}
	setting := readAutocompactSetting(e, hf, sf, project)
	for _, p := range setting.problems {
		fmt.Fprintf(e.stderr, "memscope compact: settings: %s:%d: %s\n", p.File, p.Line, p.Reason)
	}
	cfg.AutocompactOff = !setting.enabled
	st := &compact.State{}
	flush, err := ff.start(e, hf, sf, tr, st)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope compact: %v\n", err)
		return 1
	}
	if flush != nil {
		defer flush.close()
		cfg.FlushHook = flush.hook
	}
	runner := compact.Run
	if *manual {
		runner = compact.RunManual
	}
	res, err := runner(in, cfg, st, e.now())
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope compact: %v\n", err)
		return 1
	}
	out := compactOut{Session: tr.Summary.SessionID, Path: sf.disk, Window: w,
		Thresholds: timeline.Thresholds{Effective: w.Effective(), Warning: w.WarningAt(), Autocompact: w.AutocompactAt(), Blocked: w.BlockedAt()},
		Messages:   len(in.Messages), Measured: in.Measured > 0, AutoCompactEnabled: setting.enabled, AutoCompactSetBy: setting.setBy, Manual: *manual, Before: res.Before, After: res.After, Fits: res.Fits, Stages: res.Stages, Records: len(res.Records)}
	if out.Stages == nil {
		out.Stages = []compact.StageResult{}
	}
	if flush != nil {
		out.Flush = flush.finish(e.now(), ff)
	}
	if *outPath != "" {
		if err := writeCompacted(sf.disk, *outPath, res.Records); err != nil {
			fmt.Fprintf(e.stderr, "memscope compact: %v\n", err)
			return 1
		}
		out.Out, _ = filepath.Abs(*outPath)
	}
	if *asJSON {
		if err := writeJSON(e.stdout, out); err != nil {
			fmt.Fprintf(e.stderr, "memscope compact: %v\n", err)
			return 1
		}
	} else {
		w := humanOutput(e.stdout)
		printCompact(w, out)
		if out.Flush != nil {
			printFlush(w, out.Flush, ff.write)
		}
	}
	if out.Flush != nil && len(out.Flush.Failed) > 0 {
		return 1
	}
	return 0
}

// writeCompacted writes the input transcript followed by records to dst,
// which must not be the input: the user's transcript is never modified.
func writeCompacted(src, dst string, records [][]byte) error {
	if st, err := os.Stat(dst); err == nil {
		if in, err2 := os.Stat(src); err2 == nil && os.SameFile(st, in) {
			return fmt.Errorf("--out %s is the input transcript; memscope never modifies it", dst)
		}
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	for _, r := range records {
		data = append(append(data, r...), '\n')
	}
	return model.WriteFileAtomic(dst, data, 0o600)
}

func printCompact(w io.Writer, r compactOut) {
	fmt.Fprintf(w, "session   %s\nfile      %s, %d messages on the resume chain\n", r.Session, r.Path, r.Messages)
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
		fmt.Fprintf(w, "wrote     %s (+%d records)\n", r.Out, r.Records)
	}
}
