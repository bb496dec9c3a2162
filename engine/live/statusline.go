package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// StatusInput is the JSON Claude Code sends a statusLine command on
// stdin (its status line documentation's schema; only the fields used
// here are decoded, the others are ignored).
type StatusInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	Model          struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
		ProjectDir string `json:"project_dir"`
	} `json:"workspace"`
	Version string `json:"version"`
	// ContextWindow is present in recent clients; CurrentUsage is the
	// last request's usage (null before the first response and after
	// /clear).
	ContextWindow *struct {
		ContextWindowSize int64        `json:"context_window_size"`
		UsedPercentage    *float64     `json:"used_percentage"`
		CurrentUsage      *model.Usage `json:"current_usage"`
	} `json:"context_window"`
	// Cost is the client's own count for the session so far.
	Cost *struct {
		TotalCostUSD *float64 `json:"total_cost_usd"`
	} `json:"cost"`
}

// ParseStatusInput decodes the status line JSON.
func ParseStatusInput(data []byte) (StatusInput, error) {
	var in StatusInput
	if len(bytes.TrimSpace(data)) == 0 {
		return in, errors.New("no input on stdin")
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return in, fmt.Errorf("status line input is not the client's JSON: %w", err)
	}
	return in, nil
}

// StatusOptions say where to look.
type StatusOptions struct {
	// HomeDir is the Claude home ($CLAUDE_CONFIG_DIR or ~/.claude),
	// absolute; UserHome the user's home folder (for "~/" in settings).
	HomeDir  string
	UserHome string
	// Root is an fs.FS rooted at "/" (model.RootName) through which the
	// transcript, settings and MEMORY.md are read.
	Root fs.FS
	// Getenv reads the environment the client gave the command
	// (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, the memory overrides).
	Getenv func(string) string
	// TailBudget caps the bytes read backwards from the transcript's end
	// (default DefaultTailBudget).
	TailBudget int64
}

// DefaultTailBudget bounds the status line's read of a transcript: a
// turn with its request blobs is a few hundred kilobytes, so this covers
// the forecast's turns with room to spare and bounds the worst case.
const DefaultTailBudget = 8 << 20

// Status is what the status line says, and what it was made from.
type Status struct {
	// Line is the line to print ("" when there is nothing to say);
	// Reason says what went wrong or was left out (for stderr).
	Line   string `json:"line"`
	Reason string `json:"reason,omitempty"`
	// Context is the context size, ContextSource where it came from:
	// "context_window" (the client's figure), "transcript" or
	// "used_percentage".
	Context       window.Tokens `json:"context"`
	ContextSource string        `json:"contextSource,omitempty"`
	Window        window.Config `json:"window"`
	// Limits is where the window and the autocompact level came from.
	Limits   window.Resolved `json:"limits"`
	Level    window.Level    `json:"level"`
	Forecast Forecast        `json:"forecast"`
	// Index is MEMORY.md's state; nil when there is none or memory is
	// off.
	Index *IndexState `json:"index,omitempty"`
	// Read is the bytes read from the transcript and MEMORY.md.
	Read int64 `json:"read"`
	// CostUSD is the session's cost so far as the client counts it
	// (cost.total_cost_usd of the input); nil when the input has none.
	CostUSD *float64 `json:"costUSD,omitempty"`
	// LastCompaction is the session's last compaction when the scan
	// reached it (after the latest turns read); Transcript the file.
	LastCompaction *CompactionSeen `json:"lastCompaction,omitempty"`
	Transcript     string          `json:"-"`
	// LostRules is what that compaction dropped of the rules the user
	// gave (the loss ledger), when the caller computed it: shown for a
	// minute after the compaction.
	LostRules int `json:"lostRules,omitempty"`
}

// Statusline answers one statusLine call: input is what the client wrote
// on stdin. It reads the end of the transcript (backwards, until the
// forecast has its turns or a compaction is reached) and the head of
// MEMORY.md, nothing else of the home. On input it cannot use it returns
// an empty line and the reason; the caller prints the line (even empty)
// and exits 0, so the client never shows an error in the status line.
func Statusline(input []byte, o StatusOptions) Status {
	var st Status
	var why []string
	in, err := ParseStatusInput(input)
	if err != nil {
		st.Reason = err.Error()
		return st
	}
	if o.TailBudget <= 0 {
		o.TailBudget = DefaultTailBudget
	}
	project := firstOf(in.Workspace.ProjectDir, in.CWD, in.Workspace.CurrentDir)
	var settings model.SettingsStack
	if project != "" {
		settings, _ = model.LoadSettings(o.Root, o.HomeDir, project, model.ManagedDir)
	}

	var tail tailScan
	if in.TranscriptPath != "" {
		tail, err = scanTail(o.Root, model.RootName(in.TranscriptPath), o.TailBudget)
		st.Read += tail.read
		st.LastCompaction, st.Transcript = tail.compaction, model.RootName(in.TranscriptPath)
		if err != nil {
			why = append(why, "transcript: "+err.Error())
		}
	}

	switch cw := in.ContextWindow; {
	case cw != nil && cw.CurrentUsage != nil:
		st.Context, st.ContextSource = window.Tokens(cw.CurrentUsage.ContextTokens()), "context_window"
	case tail.known:
		st.Context, st.ContextSource = tail.current, "transcript"
	case cw != nil && cw.UsedPercentage != nil && cw.ContextWindowSize > 0:
		st.Context, st.ContextSource = window.Tokens(math.Round(*cw.UsedPercentage*float64(cw.ContextWindowSize)/100)), "used_percentage"
	}
	lin := window.Input{Model: in.Model.ID, Getenv: o.Getenv, EnvFrom: "the status line's environment (the client's)",
		Settings: settings, MaxContext: st.Context}
	if cw := in.ContextWindow; cw != nil && cw.ContextWindowSize > 0 {
		lin.StatusLineSize = window.Tokens(cw.ContextWindowSize)
	}
	st.Limits = window.Resolve(lin)
	st.Window = st.Limits.Config
	st.Level = st.Window.Level(st.Context)
	target, at := window.LevelAutocompact, st.Window.AutocompactAt()
	if st.Limits.Off {
		target, at = window.LevelBlocked, st.Window.BlockedAt()
	}
	st.Forecast = ForecastTurns(tail.contexts, st.Context, target, at)

	var parts []string
	if st.ContextSource != "" {
		parts = append(parts, fmt.Sprintf("ctx %d%%", int(math.Round(100*float64(st.Context)/float64(st.Window.ContextWindow)))))
		if f := st.Forecast; f.OK {
			parts = append(parts, forecastText(f))
		}
		if src := st.Limits.ShortSource(); src != "" {
			// Once the level moved, used_percentage no longer says when
			// compaction happens: say where it is and why.
			parts = append(parts, "ac "+window.Short(st.Limits.Autocompact.Tokens)+" "+src)
		}
	} else {
		why = append(why, "no context figure: the input has no context_window.current_usage and the transcript no response yet")
	}

	if project != "" {
		loc := model.ResolveMemoryLocation(model.MemoryOptions{Root: o.Root, HomeDir: o.HomeDir, UserHome: o.UserHome,
			StartDir: project, Getenv: o.Getenv, Settings: settings})
		if loc.Enabled {
			ix, n, err := ReadIndex(o.Root, model.RootName(path.Join(loc.Dir, model.MemoryIndexName)))
			st.Read += n
			switch {
			case err == nil:
				st.Index = &ix
				parts = append(parts, indexText(ix))
			case !errors.Is(err, fs.ErrNotExist):
				why = append(why, "MEMORY.md: "+err.Error())
			}
		}
	}
	if in.Cost != nil && in.Cost.TotalCostUSD != nil && *in.Cost.TotalCostUSD >= 0 {
		st.CostUSD = in.Cost.TotalCostUSD
		parts = append(parts, format.USD(*st.CostUSD))
	}
	st.Line = strings.Join(parts, " · ")
	st.Reason = strings.Join(why, "; ")
	return st
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func forecastText(f Forecast) string {
	what := "compact"
	if f.Target == window.LevelBlocked {
		what = "full"
	}
	switch f.Turns {
	case 0:
		if what == "full" {
			return "context full"
		}
		return "compact due"
	case 1:
		return "~1 turn to " + what
	}
	return fmt.Sprintf("~%d turns to %s", f.Turns, what)
}

// indexText is MEMORY.md's load state: lines against the line cap, or
// the size against the size cap when that is the one over; ✂ when the
// client cuts it.
func indexText(ix IndexState) string {
	plus := ""
	if ix.Partial {
		plus = "+"
	}
	if ix.CharsOver && !ix.LinesOver {
		return fmt.Sprintf("MEMORY %s%s/%s ✂", format.ClientFileSize(ix.Chars), plus, format.ClientFileSize(ix.MaxChars))
	}
	s := fmt.Sprintf("MEMORY %d%s/%d", ix.Lines, plus, ix.MaxLines)
	if ix.Over() {
		s += " ✂"
	}
	return s
}

// tailScan is what the end of a transcript says about its context.
type tailScan struct {
	// contexts are the context sizes of the latest turns after the last
	// compaction, oldest first (at most ForecastSteps+1).
	contexts []window.Tokens
	// current is the latest figure: the last turn's, or the postTokens
	// of a compaction after it; known says there is one.
	current window.Tokens
	known   bool
	read    int64
	// compaction is the last compaction reached, if the scan reached one.
	compaction *CompactionSeen
}

// CompactionSeen is the session's last compaction as the status line's
// scan met it: which boundary, and when.
type CompactionSeen struct {
	UUID string    `json:"uuid"`
	Time time.Time `json:"time"`
}

// tailChunk is how much is read at a time, backwards.
const tailChunk = 64 << 10

// scanTail reads the transcript at name in fsys backwards from its end,
// a chunk at a time, decoding only the lines that can hold usage or a
// compaction, until it has ForecastSteps+1 turns, reaches a compaction
// or the start, or has read budget bytes.
func scanTail(fsys fs.FS, name string, budget int64) (tailScan, error) {
	var ts tailScan
	f, err := model.OpenRegular(fsys, name)
	if err != nil {
		return ts, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return ts, err
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return ts, fmt.Errorf("%s cannot be read backwards", name)
	}
	ld := model.NewLineDecoder(name, model.ScanOptions{})
	var newest []window.Tokens // newest first
	seen := map[string]bool{}
	// handle looks at one line; it returns true to stop.
	handle := func(line []byte, terminated bool) bool {
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if !bytes.Contains(line, []byte(`"usage"`)) && !bytes.Contains(line, []byte(model.SubtypeCompactBoundary)) {
			return false
		}
		var rec model.Record
		if _, ok := ld.Decode(model.Line{Bytes: line, Terminated: terminated}, &rec); !ok {
			return false
		}
		switch {
		case rec.IsCompactBoundary():
			ts.compaction = &CompactionSeen{UUID: rec.UUID, Time: rec.Timestamp}
			if len(newest) == 0 && rec.Compact != nil && rec.Compact.PostTokens != nil {
				ts.current, ts.known = window.Tokens(*rec.Compact.PostTokens), true
			}
			return true
		case timeline.IsTurn(&rec):
			if key, keyed := timeline.TurnKey(&rec); keyed {
				if seen[key] {
					return false
				}
				seen[key] = true
			}
			newest = append(newest, window.Tokens(rec.Message.Usage.ContextTokens()))
			return len(newest) > ForecastSteps
		}
		return false
	}
	// buf[lo:hi] holds the bytes read and not yet split into lines: a
	// chunk goes in just before the start of a line whose end was read
	// already, so a line is always whole in one slice.
	buf := make([]byte, 2*tailChunk)
	lo, hi := len(buf), len(buf)
	pos := info.Size()
	first := true // the segment after the last newline is unterminated
	stopped := false
	for pos > 0 && !stopped && ts.read < budget {
		n := int(min(tailChunk, pos))
		pos -= int64(n)
		if lo < n {
			carry := hi - lo
			if carry+n > len(buf) {
				nb := make([]byte, 2*(carry+n))
				copy(nb[len(nb)-carry:], buf[lo:hi])
				buf = nb
			} else {
				copy(buf[len(buf)-carry:], buf[lo:hi])
			}
			lo, hi = len(buf)-carry, len(buf)
		}
		lo -= n
		if _, err := ra.ReadAt(buf[lo:lo+n], pos); err != nil && !errors.Is(err, io.EOF) {
			return ts, err
		}
		ts.read += int64(n)
		data := buf[lo:hi]
		end := len(data)
		for !stopped {
			i := bytes.LastIndexByte(data[:end], '\n')
			if i < 0 {
				break
			}
			if end > i+1 {
				stopped = handle(data[i+1:end], !first)
			}
			first = false
			end = i
		}
		hi = lo + end
	}
	if pos == 0 && !stopped && hi > lo {
		handle(buf[lo:hi], !first)
	}
	for i := len(newest) - 1; i >= 0; i-- {
		ts.contexts = append(ts.contexts, newest[i])
	}
	if len(newest) > 0 {
		ts.current, ts.known = newest[0], true
	}
	return ts, nil
}
