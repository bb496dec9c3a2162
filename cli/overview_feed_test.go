package cli

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/ui/feed"
)

// feedLines runs the Overview pane's feed on src as the app does: every
// line in its own Cmd, all started at once (the feed lets three count at
// a time), each handed over as its own message in the order it lands.
func feedLines(t *testing.T, src *overview.Source) map[overview.ID]overview.Line {
	t.Helper()
	f := feed.NewOverview()
	f.SetProject(src.Project, true)
	// history.jsonl as the app's History feed holds it, which the lines
	// reading it take (and must count from as the command does).
	h := feed.NewHistory(src.Env.Home, nil)
	read, ok := h.Init()().(feed.HistoryRead)
	if !ok {
		t.Fatal("the History feed's first read is not a HistoryRead")
	}
	h.Loaded(read, feed.Open{}, src.Env.Now)
	f.HistoryRead(h.Held(), true)
	// The app's Project feed hands over its lint and preview after each
	// load (feed.ProjectLoaded.Checked); here it holds neither, and the
	// lines compute their own, as the command does (ui's
	// TestOverviewIsTheFirstScreen holds the app's, taken from its
	// Project feed, equal to the engine's on the demo).
	f.ProjectChecked(&overview.Checked{Project: src.Project})
	cmd, ids := f.Load(func(project string) *overview.Source {
		if project != src.Project {
			t.Errorf("the feed counts project %q, want %q", project, src.Project)
		}
		return src
	})
	if len(ids) != len(overview.Specs) || cmd == nil {
		t.Fatalf("the feed starts %d lines, want %d", len(ids), len(overview.Specs))
	}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok {
		t.Fatalf("the feed's Load is not one Cmd per line")
	}
	got := make(chan tea.Msg, len(batch))
	for _, c := range batch {
		go func() { got <- c() }()
	}
	lines := map[overview.ID]overview.Line{}
	for range batch {
		msg, ok := (<-got).(feed.OverviewLine)
		if !ok {
			t.Fatalf("a line's Cmd returned %T", msg)
		}
		lm, ok := f.Loaded(msg)
		if !ok {
			t.Fatalf("the feed dropped a line nothing invalidated")
		}
		lines[lm.Line.ID] = lm.Line
	}
	if f.Counting() {
		t.Error("the feed still counts after every line came in")
	}
	return lines
}

// TestOverviewFeedEqualsCommand: on the demo home, testdata/home and a
// generated home, the Overview pane's feed hands the pane exactly the
// lines `memscope overview --json` prints, line for line (count, parts,
// text, pane and filter). TestOverviewCountsEqualCommands holds those
// lines equal to stat, lint, review, secrets, cleanup --forecast and
// prompt on the same three homes, so the pane's counts are the commands'.
func TestOverviewFeedEqualsCommand(t *testing.T) {
	// The demo materialized once, so that the command and the feed read
	// one copy (--demo makes a folder of its own each run, and the
	// folder's name enters the prompt).
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(t.TempDir(), "home")
	runScriptsGen(t, gen, "")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"demo", []string{"--home", l.Home, "--project", l.Project("shop-api")}},
		{"testdata", []string{"--home", "../testdata/home", "--project", testroot.BetaProject}},
		{"gen", []string{"--home", gen}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, out, errb := testEnv(t)
			if code := run(e, append([]string{"overview", "--json"}, c.args...)); code != 0 {
				t.Fatalf("overview exit %d: %s", code, errb)
			}
			var cmd overviewResult
			if err := json.Unmarshal(out.Bytes(), &cmd); err != nil {
				t.Fatal(err)
			}
			opts, err := parseOverview(e, c.args)
			if err != nil {
				t.Fatal(err)
			}
			src, o, err := overviewSource(e, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer o.close()
			lines := feedLines(t, src)
			if len(cmd.Lines) != len(overview.Specs) {
				t.Fatalf("overview --json prints %d lines, want %d", len(cmd.Lines), len(overview.Specs))
			}
			needs := 0
			for _, want := range cmd.Lines {
				got, ok := lines[want.ID]
				if !ok {
					t.Errorf("%s: the feed never handed it over", want.ID)
					continue
				}
				// Through JSON, as the command printed it.
				data, _ := json.Marshal(got)
				var back overview.Line
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				if g, w := mustJSON(t, back), mustJSON(t, want); g != w {
					t.Errorf("%s:\nthe feed: %s\nthe command: %s", want.ID, g, w)
				}
				if want.Pane != "" && keymap.PaneIndex(want.Pane) < 0 {
					t.Errorf("%s names pane %q, which the pane table lacks", want.ID, want.Pane)
				}
				if want.Needs {
					needs++
				}
			}
			// Each home has lines that need attention, so the comparison
			// is not of empty lines alone.
			if needs == 0 {
				t.Errorf("no line needs attention on %s", c.name)
			}
		})
	}
}
