package cli

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/memscope/memscope/engine/compact"
	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// flushOptions are compact's pre-compaction flush options.
type flushOptions struct {
	flush, write, force bool
	project             string
}

// add defines --flush, --write, --force and --project on fs.
func (f *flushOptions) add(fs *flag.FlagSet) {
	fs.BoolVar(&f.flush, "flush", false, "before autocompact, extract memories from the messages it summarizes (the pre-compaction flush)")
	fs.BoolVar(&f.write, "write", false, "with --flush: save what the flush proposes into the project's memory folder")
	fs.BoolVar(&f.force, "force", false, "with --flush --write: save what the security scan blocks")
	fs.StringVar(&f.project, "project", "", "with --flush: project whose memory folder to use (default: the session's startup folder)")
}

// valid reports whether the flags make sense together.
func (f *flushOptions) valid() bool {
	return (f.flush || !f.write && f.project == "") && (f.write || !f.force)
}

// flushSession is a flush hook set up for one compact run.
type flushSession struct {
	hook  *extract.FlushExtractor
	mem   *memoryTarget
	close func()
}

// start builds the flush hook over the session's memory folder, reading
// through the folds of st's collapse store, or returns nil when --flush
// is off.
func (f *flushOptions) start(e *env, hf *homeFlags, sf *sessionFile, tr *model.Transcript, st *compact.State) (*flushSession, error) {
	if !f.flush {
		return nil, nil
	}
	mem, done, err := openSessionMemory(e, hf, sf, tr, f.project)
	if err != nil {
		return nil, err
	}
	hook := extract.NewFlushExtractor(extract.FlushConfig{
		Existing:   extract.ExistingFromMemoryDir(mem.store.Memory()),
		Transcript: tr,
		Collapse:   &st.Collapse,
		SessionID:  tr.Summary.SessionID,
		Location:   time.Local,
	})
	return &flushSession{hook: hook, mem: mem, close: done}, nil
}

// flushOut is the "flush" object of `compact --json`.
type flushOut struct {
	Project   string `json:"project"`
	MemoryDir string `json:"memoryDir"`
	// Runs says what each call of the hook did: messages handed over and
	// the range extracted (none when autocompact did not run).
	Runs []extract.FlushRun `json:"runs"`
	extract.Result
	savedMemories
}

// finish collects what the flush proposed and, with --write, saves it.
func (s *flushSession) finish(now time.Time, f *flushOptions) *flushOut {
	if len(s.hook.Runs()) > 0 {
		// The run is over: extract what the flushes left below the
		// threshold (its error is in the final run's report).
		s.hook.Finish()
	}
	out := &flushOut{Project: s.mem.project, MemoryDir: s.mem.loc.Dir, Runs: s.hook.Runs(), Result: s.hook.Result(),
		savedMemories: savedMemories{Written: []writtenMemory{}, Failed: []failedWrite{}}}
	if out.Runs == nil {
		out.Runs = []extract.FlushRun{}
	}
	if f.write {
		out.savedMemories = saveCandidates(s.mem.store, out.Candidates, now, f.force)
	}
	return out
}

func printFlush(w io.Writer, r *flushOut, wrote bool) {
	fmt.Fprintf(w, "\nflush     memory %s\n", r.MemoryDir)
	if len(r.Runs) == 0 {
		fmt.Fprintln(w, "          autocompact did not run: nothing was flushed")
	}
	for _, run := range r.Runs {
		if run.Final {
			fmt.Fprintf(w, "          at the end, messages %d..%d (fewer than %d, left by the flushes) extracted: %s, %s",
				run.From, run.To, extract.MinNewMessages, format.Count(run.Prompts, "user prompt", "user prompts"), format.Count(run.Candidates, "candidate", "candidates"))
			if run.Error != "" {
				fmt.Fprintf(w, "; extraction failed: %s", run.Error)
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "          autocompact summarizes %s", format.Count(run.Handed, "message", "messages"))
		if run.Expanded != run.Handed {
			fmt.Fprintf(w, " (%d with context-collapse folds expanded)", run.Expanded)
		}
		fmt.Fprintf(w, ", %d new to the flush", run.New)
		switch {
		case run.Error != "":
			fmt.Fprintf(w, "; extraction failed: %s\n", run.Error)
		case run.To == run.From:
			fmt.Fprintf(w, "; fewer than %d new since the last extraction, nothing extracted\n", extract.MinNewMessages)
		default:
			fmt.Fprintf(w, "; messages %d..%d extracted: %s, %s\n", run.From, run.To,
				format.Count(run.Prompts, "user prompt", "user prompts"), format.Count(run.Candidates, "candidate", "candidates"))
		}
	}
	printExtraction(w, r.Result)
	printSaved(w, r.savedMemories, wrote, r.MemoryDir, r.Project, len(r.Candidates))
}
