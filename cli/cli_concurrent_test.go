package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/chaos"
)

// chaosCLIEnv is an env for running commands against home while a writer
// writes it.
func chaosCLIEnv(t *testing.T, home string) (*env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &env{
		stdout:   &out,
		stderr:   &errb,
		getenv:   func(string) string { return "" },
		userHome: func() (string, error) { return home, nil },
		getwd:    func() (string, error) { return home, nil },
		now:      func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) },
		root:     testroot.New(t, home),
		writes:   testroot.Writer(t, home),
	}, &out, &errb
}

// runJSON runs a command and decodes its JSON output into v.
func runJSON(t *testing.T, home string, v any, args ...string) {
	t.Helper()
	e, out, errb := chaosCLIEnv(t, home)
	if code := run(e, append(args, "--home", home, "--json")); code != 0 {
		t.Fatalf("memscope %v: exit %d\n%s", args, code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		t.Fatalf("memscope %v: output is not JSON: %v\n%.400s", args, err, out.String())
	}
}

// onlyIncompleteTails fails on any problem that is not an incomplete
// tail: the writer writes nothing malformed, so anything else means a
// reader took a line still being written for corruption.
func onlyIncompleteTails(t *testing.T, what string, probs []model.Problem) {
	t.Helper()
	for _, p := range probs {
		if p.Kind != model.ProblemIncompleteTail {
			t.Errorf("%s reported %s [%s] while the writer was appending: a partial line is not corruption", what, p.Error(), p.Kind)
		}
	}
}

type chaosStat struct {
	HistoryEntries     int `json:"historyEntries"`
	MemoryFiles        int `json:"memoryFiles"`
	InvalidMemoryFiles int `json:"invalidMemoryFiles"`
	IndexEntries       int `json:"indexEntries"`
	Records            int `json:"records"`
	Pastes             struct {
		Referenced, Resolved, Missing, HashMismatch, Files, Orphans int
	} `json:"pastes"`
	Usage     model.Usage     `json:"usage"`
	Malformed []model.Problem `json:"malformed"`
}

type chaosSessions struct {
	Sessions []struct {
		SessionID string      `json:"sessionId"`
		Records   int         `json:"records"`
		Usage     model.Usage `json:"usage"`
		Responses int         `json:"responses"`
	} `json:"sessions"`
	Totals struct {
		Records   int         `json:"records"`
		Usage     model.Usage `json:"usage"`
		Responses int         `json:"responses"`
	} `json:"totals"`
	Problems []model.Problem `json:"problems"`
}

type chaosReplay struct {
	Records  int             `json:"records"`
	Problems []model.Problem `json:"problems"`
}

type chaosLint struct {
	Findings []struct {
		Kind    string `json:"kind"`
		Path    string `json:"path"`
		Message string `json:"message"`
	} `json:"findings"`
}

// Lint kinds that a writer replacing files by rename must never cause:
// the client's atomic rename means a reader sees the old file or the new.
var lintNeverUnderRename = map[string]bool{
	"dangling-index-link": true, "missing-frontmatter": true, "invalid-frontmatter": true, "unreadable": true,
}

func usageOf(u chaos.Usage) model.Usage {
	return model.Usage{InputTokens: u.Input, OutputTokens: u.Output, CacheCreationInputTokens: u.CacheCreation, CacheReadInputTokens: u.CacheRead}
}

// TestCLIWhileClaudeCodeWrites runs stat, sessions, replay and lint over
// and over while the chaos writer appends (splitting lines over two
// writes) and replaces memory files. Every run must succeed, report no
// corruption, and see at least what the writer had finished before the
// run started; once the writer stops, every count equals the writer's.
func TestCLIWhileClaudeCodeWrites(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		splitEvery int
		splitPause time.Duration
	}{
		{"every line whole", 0, 0},
		{"every 3rd line split with a pause", 3, time.Millisecond},
		{"every line split", 1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			const project = "/tmp/chaos-cli"
			w, err := chaos.New(chaos.Config{Home: home, Project: project, Seed: 7, SplitEvery: tc.splitEvery, SplitPause: tc.splitPause, Topics: 8, MaxSteps: testenv.Size(t, 250, 50), Pause: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.RunN(20); err != nil { // something to read from the start
				t.Fatal(err)
			}
			stop := make(chan struct{})
			var writing atomic.Bool
			writing.Store(true)
			var wg sync.WaitGroup
			var werr error
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer writing.Store(false)
				_, werr = w.Run(stop)
			}()
			session := "c4a05c4a"
			// Read for as long as the writer writes, at least twice.
			for i := 0; i < 2 || writing.Load(); i++ {
				before := w.Counts()
				var st chaosStat
				runJSON(t, home, &st, "stat")
				onlyIncompleteTails(t, "stat", st.Malformed)
				if st.HistoryEntries < before.HistoryLines || st.Records < before.TranscriptRecords {
					t.Errorf("run %d: stat saw %d history lines and %d records, fewer than the %d and %d the writer had finished", i, st.HistoryEntries, st.Records, before.HistoryLines, before.TranscriptRecords)
				}
				if st.MemoryFiles < before.MemoryFiles || st.InvalidMemoryFiles != 0 {
					t.Errorf("run %d: stat saw %d memory files (%d invalid); the writer had %d, each replaced by rename, so none can be missing or half written", i, st.MemoryFiles, st.InvalidMemoryFiles, before.MemoryFiles)
				}
				var ss chaosSessions
				runJSON(t, home, &ss, "sessions")
				onlyIncompleteTails(t, "sessions", ss.Problems)
				if ss.Totals.Records < before.TranscriptRecords || ss.Totals.Responses < before.Responses {
					t.Errorf("run %d: sessions saw %d records, %d responses; the writer had finished %d, %d", i, ss.Totals.Records, ss.Totals.Responses, before.TranscriptRecords, before.Responses)
				}
				var rp chaosReplay
				runJSON(t, home, &rp, "replay", session)
				onlyIncompleteTails(t, "replay", rp.Problems)
				if rp.Records < before.TranscriptRecords {
					t.Errorf("run %d: replay read %d records, the writer had finished %d", i, rp.Records, before.TranscriptRecords)
				}
				var ln chaosLint
				runJSON(t, home, &ln, "lint", "--project", project)
				for _, f := range ln.Findings {
					if lintNeverUnderRename[f.Kind] {
						t.Errorf("run %d: lint %s %s: %s (files are replaced by rename, never half written or missing)", i, f.Kind, f.Path, f.Message)
					}
				}
			}
			close(stop)
			wg.Wait()
			if werr != nil {
				t.Fatal(werr)
			}
			want := w.Counts()
			if tc.splitEvery > 0 && want.SplitLines == 0 {
				t.Fatalf("the writer split no line: the test did not test split writes")
			}
			var st chaosStat
			runJSON(t, home, &st, "stat")
			if len(st.Malformed) != 0 {
				t.Errorf("after the writer stopped, stat still reports problems: %v", st.Malformed)
			}
			got := fmt.Sprintf("history %d, records %d, usage %+v, memory files %d (%d invalid), index entries %d, paste files %d, referenced %d, resolved %d",
				st.HistoryEntries, st.Records, st.Usage, st.MemoryFiles, st.InvalidMemoryFiles, st.IndexEntries, st.Pastes.Files, st.Pastes.Referenced, st.Pastes.Resolved)
			wantS := fmt.Sprintf("history %d, records %d, usage %+v, memory files %d (%d invalid), index entries %d, paste files %d, referenced %d, resolved %d",
				want.HistoryLines, want.TranscriptRecords, usageOf(want.Usage), want.MemoryFiles, 0, want.IndexEntries, want.PasteFiles, want.PasteRefs, want.PasteRefs)
			if got != wantS {
				t.Errorf("final stat\n got: %s\nwant: %s", got, wantS)
			}
			var ss chaosSessions
			runJSON(t, home, &ss, "sessions")
			if ss.Totals.Records != want.TranscriptRecords || ss.Totals.Responses != want.Responses || ss.Totals.Usage != usageOf(want.Usage) || len(ss.Problems) != 0 {
				t.Errorf("final sessions: records %d, responses %d, usage %+v, problems %v; the writer wrote %d, %d, %+v", ss.Totals.Records, ss.Totals.Responses, ss.Totals.Usage, ss.Problems, want.TranscriptRecords, want.Responses, usageOf(want.Usage))
			}
			var rp chaosReplay
			runJSON(t, home, &rp, "replay", session)
			if rp.Records != want.TranscriptRecords || len(rp.Problems) != 0 {
				t.Errorf("final replay: %d records, problems %v; the writer wrote %d", rp.Records, rp.Problems, want.TranscriptRecords)
			}
			t.Logf("writer: %d steps, %d history lines, %d records, %d split lines, %d memory replacements", want.Steps, want.HistoryLines, want.TranscriptRecords, want.SplitLines, want.MemoryReplacements)
		})
	}
}

// TestCLIBetweenTheHalvesOfALine runs the commands at the one moment
// that matters, deterministically: a line's first half is on disk, the
// second not yet. The partial line is an incomplete tail (or, cut just
// before its newline, a whole record), never corruption.
func TestCLIBetweenTheHalvesOfALine(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const project = "/tmp/chaos-halves"
	var checks, tails int
	var hook func(path string, rest []byte)
	w, err := chaos.New(chaos.Config{Home: home, Project: project, Seed: 11, SplitEvery: 5, Topics: 3,
		BetweenHalves: func(path string, rest []byte) { hook(path, rest) }})
	if err != nil {
		t.Fatal(err)
	}
	hook = func(path string, rest []byte) {
		checks++
		var st chaosStat
		runJSON(t, home, &st, "stat")
		onlyIncompleteTails(t, "stat", st.Malformed)
		tails += len(st.Malformed)
		if len(rest) > 1 && len(st.Malformed) != 1 {
			t.Errorf("%s is mid-line (%d bytes to come): want exactly one incomplete tail, got %v", path, len(rest), st.Malformed)
		}
		var ss chaosSessions
		runJSON(t, home, &ss, "sessions")
		onlyIncompleteTails(t, "sessions", ss.Problems)
		var rp chaosReplay
		runJSON(t, home, &rp, "replay", "c4a05c4a")
		onlyIncompleteTails(t, "replay", rp.Problems)
	}
	if _, err := w.RunN(40); err != nil {
		t.Fatal(err)
	}
	if checks == 0 || tails == 0 {
		t.Fatalf("ran %d checks mid-line and saw %d incomplete tails: the test did not see a partial line", checks, tails)
	}
}
