package retention

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func item(path string, kind cleanup.Kind, size int64, eligibleIn time.Duration, bucket cleanup.Bucket, daysLeft int) cleanup.Item {
	return cleanup.Item{Path: path, Kind: kind, Files: 1, Size: size, ModTime: now.Add(eligibleIn - 30*day),
		Eligible: now.Add(eligibleIn), DaysLeft: daysLeft, Bucket: bucket}
}

// sampleForecast is a hand-made 30-day forecast: three items eligible
// now, three within the horizon (two on the same day), one later.
func sampleForecast() cleanup.Forecast {
	fh := item("file-history/s1", cleanup.KindFileHistory, 40_000, -5*day, cleanup.BucketNow, 0)
	fh.Dir, fh.Files = true, 3
	f := cleanup.Forecast{
		Home: "/home/me/.claude", Now: now, State: cleanup.StateActive, PeriodDays: 30, PeriodFrom: "default", HorizonDays: 30,
		Items: []cleanup.Item{
			item("projects/-home-me-app/s1.jsonl", cleanup.KindTranscript, 2_100_000, -10*day, cleanup.BucketNow, 0),
			fh,
			item("paste-cache/aaaaaaaaaaaaaaaa.txt", cleanup.KindPaste, 2048, -2*day, cleanup.BucketNow, 0),
			item("projects/-home-me-app/s2.jsonl", cleanup.KindTranscript, 800_000, 3*day, cleanup.BucketSoon, 3),
			item("projects/-home-me-app/s2/tool-results/t.txt", cleanup.KindSessionFile, 60_000, 3*day+time.Hour, cleanup.BucketSoon, 3),
			item("paste-cache/bbbbbbbbbbbbbbbb.txt", cleanup.KindPaste, 1500, 12*day, cleanup.BucketSoon, 12),
			item("debug/x.txt", cleanup.KindDebug, 300, 45*day, cleanup.BucketLater, 45),
		},
		Dangling: []cleanup.DanglingPaste{{File: "history.jsonl", Line: 4, PasteID: 1, Hash: "aaaaaaaaaaaaaaaa",
			PastePath: "paste-cache/aaaaaaaaaaaaaaaa.txt", Eligible: now.Add(-2 * day), Bucket: cleanup.BucketNow}},
		NeverSwept: []cleanup.NeverSwept{
			{Path: "history.jsonl", Kind: cleanup.NeverSweptHistory, Files: 1, Size: 34_000},
			{Path: "projects/-home-me-app/memory", Kind: cleanup.NeverSweptMemory, Files: 5, Size: 12_000},
		},
	}
	f.Overall = cleanup.Total{
		Now:   cleanup.Count{Items: 3, Files: 5, Bytes: 2_142_048},
		Soon:  cleanup.Count{Items: 3, Files: 3, Bytes: 861_500},
		Later: cleanup.Count{Items: 1, Files: 1, Bytes: 300},
	}
	return f
}

func newPane(f cleanup.Forecast, w, h int) Model {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(w, h)
	m, _ = m.Update(ForecastMsg{Forecast: f})
	return m
}

func press(t *testing.T, m Model, keys ...string) (Model, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(keypress.Msg(k))
		if cmd != nil {
			if res := cmd(); res != nil {
				out = append(out, res)
			}
		}
	}
	return m, out
}

func typeText(t *testing.T, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

func screen(m Model) string { return ansi.Strip(m.View()) }

func TestGoldens(t *testing.T) {
	disabled := sampleForecast()
	disabled.State, disabled.PeriodDays, disabled.Reason = cleanup.StateDisabled, 0, "cleanupPeriodDays is 0 (/home/me/.claude/settings.json): nothing is swept"
	for i := range disabled.Items {
		disabled.Items[i].Bucket, disabled.Items[i].Eligible = cleanup.BucketNever, time.Time{}
	}
	disabled.Dangling = nil
	lost := sampleForecast()
	lost.Lost = cleanup.Lost{
		Sessions: []cleanup.LostSession{
			{SessionID: "5e55c0de-0000-4000-8000-00000000a11c", Project: "/home/me/app", First: now.Add(-90 * day), Last: now.Add(-89 * day), Prompts: 12, FirstPrompt: "fix the flaky login test \x1b[31mred", Line: 3},
			{SessionID: "0b5e55ed-0000-4000-8000-00000000b22d", Project: "/home/me/api", First: now.Add(-60 * day), Last: now.Add(-60 * day), Prompts: 1, FirstPrompt: "summarize the incident", Line: 40},
		},
		Pastes:       []cleanup.LostPaste{{File: "history.jsonl", Line: 7, PasteID: 1, Hash: "cccccccccccccccc", Project: "/home/me/app"}},
		From:         now.Add(-90 * day),
		To:           now.Add(-60 * day),
		Unattributed: 2,
	}
	tests := []struct {
		name string
		f    cleanup.Forecast
		keys []string
		w, h int
	}{
		{"timeline_100x24", sampleForecast(), nil, 100, 24},
		{"step_in_3_days_100x24", sampleForecast(), []string{"down"}, 100, 24},
		{"never_swept_100x24", sampleForecast(), []string{"G"}, 100, 24},
		{"archive_destination_100x24", sampleForecast(), []string{"down", "a"}, 100, 24},
		{"disabled_100x24", disabled, nil, 100, 24},
		{"already_lost_100x24", lost, []string{"G"}, 100, 24},
		{"timeline_60x14", sampleForecast(), nil, 60, 14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := press(t, newPane(tt.f, tt.w, tt.h), tt.keys...)
			s := screen(m)
			for i, l := range strings.Split(s, "\n") {
				if w := ansi.StringWidth(l); w > tt.w {
					t.Errorf("line %d is %d cells wide, pane is %d: %q", i, w, tt.w, l)
				}
			}
			golden.RequireEqual(t, []byte(s))
		})
	}
}

func TestTimelineRows(t *testing.T) {
	m := newPane(sampleForecast(), 100, 24)
	s := screen(m)
	// Groups: now (3 items), in 3 days (2), in 12 days (1), after 30 days
	// (1); then the two never-swept stores.
	for _, want := range []string{
		"now           2026-11-22",
		"in 3 days     2026-11-25",
		"in 12 days    2026-12-04",
		"after 30 days 2027-01-06",
		"transcript 1 · session-file 1",
		"never swept   history",
		"now: 3 items, 5 files",
		"file-history/s1/ (3 files)",
		"1 history line will then point at a missing paste:",
		"history.jsonl:4 paste #1 aaaaaaaaaaaaaaaa",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if m.list.Len() != 6 {
		t.Errorf("%d rows, want 4 steps + 2 never-swept", m.list.Len())
	}
}

func TestArchiveRequest(t *testing.T) {
	m := newPane(sampleForecast(), 100, 24)
	m, out := press(t, m, "down", "down", "a")
	if !m.Filtering() || len(out) != 0 {
		t.Fatalf("after a: filtering %v, msgs %v", m.Filtering(), out)
	}
	m = typeText(t, m, "/backup/claude-old")
	m, out = press(t, m, "enter")
	if len(out) != 1 {
		t.Fatalf("msgs %v, want one ArchiveRequest", out)
	}
	req, ok := out[0].(ArchiveRequest)
	if !ok {
		t.Fatalf("got %T", out[0])
	}
	// Up to "in 12 days": the 3 items of now, 2 of in 3 days, 1 of in 12 days.
	var paths []string
	for _, it := range req.Items {
		paths = append(paths, it.Path)
	}
	want := "projects/-home-me-app/s1.jsonl file-history/s1 paste-cache/aaaaaaaaaaaaaaaa.txt projects/-home-me-app/s2.jsonl projects/-home-me-app/s2/tool-results/t.txt paste-cache/bbbbbbbbbbbbbbbb.txt"
	if req.To != "/backup/claude-old" || req.Upto != "in 12 days" || strings.Join(paths, " ") != want {
		t.Errorf("request = to %q upto %q items %v", req.To, req.Upto, paths)
	}
	if m.Filtering() || !strings.Contains(screen(m), "archiving 6 items to /backup/claude-old") {
		t.Errorf("after enter: filtering %v\n%s", m.Filtering(), screen(m))
	}

	// The field starts empty next time; enter alone reuses the destination.
	m, _ = press(t, m, "a")
	if m.dest.Value() != "" || !strings.Contains(screen(m), "/backup/claude-old (enter: the same again)") {
		t.Errorf("second archive: field %q\n%s", m.dest.Value(), screen(m))
	}
	m, out = press(t, m, "enter")
	if len(out) != 1 || out[0].(ArchiveRequest).To != "/backup/claude-old" {
		t.Errorf("enter alone: %+v", out)
	}

	m, _ = m.Update(ArchiveDone{Report: cleanup.ArchiveReport{To: "/backup/claude-old", Copied: 8, Verified: 8, Files: make([]cleanup.ArchivedFile, 8), Bytes: 3 << 20}})
	if s := screen(m); !strings.Contains(s, "archived to /backup/claude-old: 8 copied, 0 already there, 3.0M; 8 of 8 read back") {
		t.Errorf("result not shown:\n%s", s)
	}
	m, _ = m.Update(ArchiveDone{Err: &cleanup.ArchiveConflictError{To: "/b", Paths: []string{"todos/t.json"}}})
	if s := screen(m); !strings.Contains(s, "archive failed: archive /b: 1 file already there") {
		t.Errorf("error not shown:\n%s", s)
	}
}

func TestArchiveCancelAndNothingToArchive(t *testing.T) {
	tests := []struct {
		name    string
		f       func() cleanup.Forecast
		keys    []string
		status  string
		isError bool
	}{
		{"esc cancels", sampleForecast, []string{"a", "x", "esc"}, "archive cancelled", false},
		{"empty destination", sampleForecast, []string{"a", "enter"}, "type a folder", true},
		{"disabled sweep", func() cleanup.Forecast {
			f := sampleForecast()
			f.State, f.Reason = cleanup.StateSkipped, "the settings cannot be read"
			f.Items, f.Dangling = nil, nil
			return f
		}, []string{"a"}, "the sweep deletes nothing (the settings cannot be read)", true},
		{"nothing eligible now, never-swept row", func() cleanup.Forecast {
			f := sampleForecast()
			f.Items = f.Items[3:]
			return f
		}, []string{"G", "a"}, "nothing is eligible yet", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, out := press(t, newPane(tt.f(), 100, 24), tt.keys...)
			var got *msgs.Status
			for _, o := range out {
				if _, ok := o.(ArchiveRequest); ok {
					t.Fatalf("an archive was requested: %+v", o)
				}
				if s, ok := o.(msgs.Status); ok {
					got = &s
				}
			}
			if got == nil || !strings.Contains(got.Text, tt.status) || got.Error != tt.isError {
				t.Errorf("status %+v, want %q error=%v", got, tt.status, tt.isError)
			}
			if m.Filtering() && tt.name != "empty destination" {
				t.Error("still taking text")
			}
		})
	}
}

func TestBlurDropsTheDestination(t *testing.T) {
	m, _ := press(t, newPane(sampleForecast(), 100, 24), "a")
	m.Blur()
	if m.Filtering() {
		t.Error("blurred pane still takes text")
	}
	if h := m.Help(); len(h) != 4 || h[0].Help().Desc != "archive up to here" || h[0].Keys()[0] != "a" {
		t.Errorf("help = %+v", h)
	}
}

// TestVaultCoverageShown: with a rescue vault the pane says how many of
// the sessions deleted within the horizon it holds and how many not;
// without one it says nothing of a vault.
func TestVaultCoverageShown(t *testing.T) {
	f := sampleForecast()
	if s := screen(newPane(f, 120, 30)); strings.Contains(s, "vault") {
		t.Errorf("no vault, yet the pane names one:\n%s", s)
	}
	f.Vault = &cleanup.VaultCoverage{Dir: "/v", Sessions: 3, Kept: 1, NotKept: []string{"a", "b"}}
	if s := screen(newPane(f, 120, 30)); !strings.Contains(s, "vault holds 1 of the 3 sessions deleted within 30 days, 2 not (memscope vault sync)") {
		t.Errorf("the vault's coverage is not shown:\n%s", s)
	}
}

// TestEarlierCopiesShown: sessions whose history before a compaction is
// only in a .replaced copy are named (issue 29), with those that have no
// transcript left; none, nothing is said.
func TestEarlierCopiesShown(t *testing.T) {
	f := sampleForecast()
	m := newPane(f, 140, 30)
	if s := screen(m); strings.Contains(s, ".replaced") {
		t.Errorf("no copies, yet the pane names one:\n%s", s)
	}
	m, _ = m.Update(ForecastMsg{Forecast: f, Earlier: model.EarlierCopies{Sessions: 2, Copies: 3, Gone: 1}})
	if s := screen(m); !strings.Contains(s, "2 sessions with earlier history only in a .replaced copy (1 with no transcript left)") {
		t.Errorf("the copies are not named:\n%s", s)
	}
}
