package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
)

// cleanupNow is testEnv's clock.
var cleanupNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// agedHome writes files (path → body) under a new folder with mtimes of
// cleanupNow minus ages[path] (0 when not listed).
func agedHome(t *testing.T, files map[string]string, ages map[string]time.Duration) string {
	t.Helper()
	dir := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for rel, age := range ages {
		mt := cleanupNow.Add(-age)
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(rel)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const cliDay = 24 * time.Hour

// cleanupHome has a 10-day-old transcript, a 3-day-old paste that history
// line 1 refers to, a 40-day-old file-history folder and memory.
func cleanupHome(t *testing.T, settings *string) string {
	files := map[string]string{
		"history.jsonl":                          `{"display":"[Pasted text #1 +9 lines] hi","pastedContents":{"1":{"id":1,"type":"text","contentHash":"6726f7554468d737"}},"timestamp":1795345790406,"project":"/home/me/app"}` + "\n",
		"projects/-home-me-app/s1.jsonl":         `{"type":"user"}` + "\n",
		"projects/-home-me-app/memory/MEMORY.md": "- [a](a.md) — a\n",
		"paste-cache/6726f7554468d737.txt":       "pasted",
		"file-history/s1/0123456789abcdef@v1":    "v1",
		"shell-snapshots/snapshot-bash-1.sh":     "snap",
	}
	if settings != nil {
		files["settings.json"] = *settings
	}
	return agedHome(t, files, map[string]time.Duration{
		"projects/-home-me-app/s1.jsonl":      10 * cliDay,
		"paste-cache/6726f7554468d737.txt":    3 * cliDay,
		"file-history/s1/0123456789abcdef@v1": 1 * cliDay,
		"file-history/s1":                     40 * cliDay,
		"shell-snapshots/snapshot-bash-1.sh":  8 * cliDay,
	})
}

func strp(s string) *string { return &s }

func TestCleanupForecastSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		settings   *string
		args       []string
		unreadable bool
		state      cleanup.State
		days       int
		now        int
		// dangling is the bucket of the history line left without its
		// paste, "" for none.
		dangling cleanup.Bucket
		reason   string
	}{
		{"missing settings: default 30 days", nil, nil, false, cleanup.StateActive, 30, 1, cleanup.BucketSoon, ""},
		{"cleanupPeriodDays 7", strp(`{"cleanupPeriodDays":7}`), nil, false, cleanup.StateActive, 7, 3, cleanup.BucketSoon, ""},
		{"cleanupPeriodDays 2", strp(`{"cleanupPeriodDays":2}`), nil, false, cleanup.StateActive, 2, 4, cleanup.BucketNow, ""},
		// Below 1 the client finds the settings invalid and skips the sweep.
		{"cleanupPeriodDays 0", strp(`{"cleanupPeriodDays":0}`), nil, false, cleanup.StateSkipped, 0, 0, "", "cleanupPeriodDays is 0 in"},
		{"invalid JSON", strp("{\n\"cleanupPeriodDays\": 7,,\n}"), nil, false, cleanup.StateSkipped, 30, 0, "", "settings.json:2"},
		{"wrong type", strp(`{"cleanupPeriodDays":"week"}`), nil, false, cleanup.StateSkipped, 30, 0, "", "whole number"},
		{"unreadable", strp(`{"cleanupPeriodDays":7}`), nil, true, cleanup.StateSkipped, 30, 0, "", "settings.json"},
		{"settings.json is a folder (unreadable, even as root)", nil, nil, false, cleanup.StateSkipped, 30, 0, "", "settings.json"},
		{"--days what-if over invalid settings", strp("{bad"), []string{"--days", "2"}, false, cleanup.StateActive, 2, 4, cleanup.BucketNow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := cleanupHome(t, tt.settings)
			if strings.Contains(tt.name, "is a folder") {
				os.Mkdir(filepath.Join(home, "settings.json"), 0o700)
			}
			if tt.unreadable {
				if os.Geteuid() == 0 {
					t.Skip("running as root: a file with mode 0 stays readable to root, so the unreadable case cannot be made here")
				}
				os.Chmod(filepath.Join(home, "settings.json"), 0)
			}
			e, out, errb := testEnv(t)
			args := append([]string{"cleanup", "--forecast", "--home", home, "--json"}, tt.args...)
			if code := run(e, args); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			var f cleanup.Forecast
			if err := json.Unmarshal(out.Bytes(), &f); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			var dangling cleanup.Bucket
			if len(f.Dangling) == 1 && f.Dangling[0].Line == 1 {
				dangling = f.Dangling[0].Bucket
			}
			if f.State != tt.state || f.PeriodDays != tt.days || f.Overall.Now.Items != tt.now || dangling != tt.dangling || !strings.Contains(f.Reason, tt.reason) {
				t.Errorf("state %s days %d now %d dangling %+v reason %q; want %s %d %d %q ~%q",
					f.State, f.PeriodDays, f.Overall.Now.Items, f.Dangling, f.Reason, tt.state, tt.days, tt.now, tt.dangling, tt.reason)
			}
			if f.Overall.All.Items != 4 || len(f.NeverSwept) != 2 {
				t.Errorf("all %d items, %d never swept; want 4 and 2 whatever the settings", f.Overall.All.Items, len(f.NeverSwept))
			}
		})
	}
}

func TestCleanupForecastText(t *testing.T) {
	home := cleanupHome(t, strp(`{"cleanupPeriodDays":7}`))
	e, out, errb := testEnv(t)
	if code := run(e, []string{"cleanup", "--home", home, "--within", "10"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{
		"older than 7 days (cleanupPeriodDays from " + filepath.Join(home, "settings.json") + ")",
		"eligible    now: 3 (",
		"next 10 days: 1 (6 B)",
		// the paste is 3 days old: eligible on 2026-11-26 12:00, in 4 days
		"in 4 days      2026-11-26  1 (6 B)",
		"  2026-11-26 12:00  paste-cache            6 B  paste-cache/6726f7554468d737.txt",
		"file-history/s1/ (1 file)",
		"history.jsonl:1  paste #1 6726f7554468d737  (paste-cache/6726f7554468d737.txt, swept from 2026-11-26 12:00)",
		"never swept",
		"projects/-home-me-app/memory",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}

	e, out, _ = testEnv(t)
	disabled := cleanupHome(t, strp(`{"cleanupPeriodDays":0}`))
	run(e, []string{"cleanup", "--home", disabled})
	if !strings.Contains(out.String(), "cleanup     skipped: cleanupPeriodDays is 0") || !strings.Contains(out.String(), "requires at least 1") ||
		!strings.Contains(out.String(), "nothing will be deleted") || !strings.Contains(out.String(), "kept unless your organisation's retention policy") {
		t.Errorf("skipped report:\n%s", out)
	}
}

func TestCleanupBadArgs(t *testing.T) {
	e, _, errb := testEnv(t)
	if code := run(e, []string{"cleanup", "--home", t.TempDir(), "extra"}); code != 2 || !strings.Contains(errb.String(), "unexpected argument") {
		t.Errorf("exit %d, stderr %q", code, errb)
	}
	e, _, errb = testEnv(t)
	if code := run(e, []string{"cleanup", "--home", filepath.Join(t.TempDir(), "none")}); code != 2 || !strings.Contains(errb.String(), "no Claude home") {
		t.Errorf("exit %d, stderr %q", code, errb)
	}
}

// The forecast says what earlier sweeps already lost: a session history
// names without its transcript (dates, prompts, the first prompt, with
// terminal controls removed) and a paste whose text is gone.
func TestCleanupForecastAlreadyLost(t *testing.T) {
	ms := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC).UnixMilli()
	line := func(display, sid string, off int64, extra string) string {
		return `{"display":"` + display + `","timestamp":` + strconv.FormatInt(ms+off, 10) + `,"project":"/home/me/app","sessionId":"` + sid + `"` + extra + `}`
	}
	home := agedHome(t, map[string]string{
		"projects/-home-me-app/aaaaaaaa-0000-4000-8000-000000000000.jsonl": "{}\n",
		"history.jsonl": strings.Join([]string{
			line("kept", "aaaaaaaa-0000-4000-8000-000000000000", 0, ""),
			line(`refactor the \u001b[2Jbilling module`, "bbbbbbbb-0000-4000-8000-000000000000", 1000, ""),
			line("and the tests", "bbbbbbbb-0000-4000-8000-000000000000", 30*24*3600*1000, `,"pastedContents":{"1":{"id":1,"type":"text","contentHash":"0123456789abcdef"}}`),
		}, "\n") + "\n",
	}, nil)
	e, out, errb := testEnv(t)
	if code := run(e, []string{"cleanup", "--forecast", "--home", home}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	s := out.String()
	for _, want := range []string{
		"already lost: 1 session, 2026-06-01 … 2026-07-01; 1 paste",
		"2026-06-01  bbbbbbbb    2 prompts  /home/me/app",
		`"refactor the billing module"`,
		"history.jsonl:3  paste #1 0123456789abcdef",
		"archive first: memscope archive --to DIR",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("forecast lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Error("a terminal control reached the output")
	}
	out.Reset()
	run(e, []string{"cleanup", "--forecast", "--home", home, "--json"})
	var f cleanup.Forecast
	if err := json.Unmarshal(out.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Lost.Sessions) != 1 || f.Lost.Sessions[0].Prompts != 2 || len(f.Lost.Pastes) != 1 {
		t.Errorf("--json lost = %+v", f.Lost)
	}
}

// --json lists the first --limit entries of each list and says how long
// each was; --list gives them all (a home with years of history had a
// 41.8 MB forecast, most of it lost sessions).
func TestCleanupForecastJSONIsCut(t *testing.T) {
	t.Parallel()
	home := cleanupHome(t, nil)
	forecast := func(args ...string) cleanup.Forecast {
		t.Helper()
		e, out, errb := testEnv(t)
		if code := run(e, append([]string{"cleanup", "--forecast", "--home", home, "--json"}, args...)); code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		var f cleanup.Forecast
		if err := json.Unmarshal(out.Bytes(), &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	cut := forecast("--limit", "1")
	if len(cut.Items) != 1 || cut.Cut == nil || cut.Cut.Items != 4 || cut.Cut.Limit != 1 || cut.Overall.All.Items != 4 {
		t.Errorf("--limit 1: %d items listed, cut %+v, overall %d; want 1 listed of 4", len(cut.Items), cut.Cut, cut.Overall.All.Items)
	}
	all := forecast("--list")
	if len(all.Items) != 4 || all.Cut != nil {
		t.Errorf("--list: %d items listed, cut %+v; want all 4, not cut", len(all.Items), all.Cut)
	}
}
