package cleanup

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// retNow is the fixed "now" of the retention tests.
var retNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

// rfile is one file of a generated home: its body and how old its mtime
// is. Folders listed in dirAges get that age after the files are written.
type rfile struct {
	body string
	age  time.Duration
}

// retentionHome writes files under a new temporary home and sets their
// mtimes (and the folders' in dirAges) to retNow minus their age.
func retentionHome(t *testing.T, files map[string]rfile, dirAges map[string]time.Duration) *model.Home {
	t.Helper()
	dir := t.TempDir()
	for rel, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), 0o600); err != nil {
			t.Fatal(err)
		}
		mt := retNow.Add(-f.age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	for rel, age := range dirAges {
		mt := retNow.Add(-age)
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(rel)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func period(n int) model.SettingsStack {
	return model.SettingsStack{{Source: model.SettingsUser, Path: "/h/settings.json", CleanupPeriodDays: &n}}
}

func historyLine(display, pastes string) string {
	return `{"display":"` + display + `","pastedContents":{` + pastes + `},"timestamp":1795345790406,"project":"/home/me/app","sessionId":"s1"}` + "\n"
}

func hashed(id, hash string) string {
	return `"` + id + `":{"id":` + id + `,"type":"text","contentHash":"` + hash + `"}`
}

const (
	pasteA = "aaaaaaaaaaaaaaaa"
	pasteB = "bbbbbbbbbbbbbbbb"
	pasteC = "cccccccccccccccc" // never in the cache: already missing
	pasteD = "dddddddddddddddd" // also in the seed paste-store: survives the sweep
)

// sampleHome has one file of every swept kind at a chosen age, memory and
// history that are never swept, and history lines pointing at pastes.
func sampleHome(t *testing.T) *model.Home {
	hist := historyLine("one", hashed("1", pasteA)) +
		historyLine("inline", `"1":{"id":1,"type":"text","content":"x"}`) +
		historyLine("two", hashed("1", pasteB)+","+hashed("2", pasteC)) +
		historyLine("kept", hashed("1", pasteD)) +
		"{not json\n" +
		historyLine("a again", hashed("3", pasteA))
	files := map[string]rfile{
		"settings.json":                  {`{"cleanupPeriodDays":7}`, 0},
		"history.jsonl":                  {hist, 0},
		"projects/-home-me-app/s1.jsonl": {"{}\n", 10 * day},
		"projects/-home-me-app/s1/subagents/agent-a.jsonl": {"{}\n{}\n", 8 * day},
		"projects/-home-me-app/s1/tool-results/t1.txt":     {"result", 2 * day},
		"projects/-home-me-app/s2.jsonl":                   {"{}\n", 1 * day},
		"projects/-home-me-app/memory/MEMORY.md":           {"- [a](a.md) — a\n", 100 * day},
		"projects/-home-me-app/memory/a.md":                {"---\nname: a\n---\nbody\n", 100 * day},
		"projects/-home-me-app/notes.txt":                  {"not swept", 100 * day},
		"paste-cache/" + pasteA + ".txt":                   {"paste a", 9 * day},
		"paste-cache/" + pasteB + ".txt":                   {"paste b", 1 * day},
		"paste-cache/" + pasteD + ".txt":                   {"paste d", 9 * day},
		"paste-store/" + pasteD:                            {"paste d", 9 * day},
		"file-history/s1/0123456789abcdef@v1":              {"old", 1 * day},
		"debug/s1.txt":                                     {"debug", 6*day + 23*time.Hour},
		"shell-snapshots/snapshot-zsh-1.sh":                {"snap", 40 * day},
		"plans/plan.md":                                    {"plan", 3 * day},
		"todos/s1.json":                                    {"[]", 7*day + time.Hour},
		"backups/.claude.json.backup.1795345790406":        {"{}", 5 * day},
	}
	return retentionHome(t, files, map[string]time.Duration{"file-history/s1": 20 * day})
}

type wantItem struct {
	path     string
	kind     Kind
	age      time.Duration
	bucket   Bucket
	daysLeft int
}

func TestForecastRetentionItemsAndDates(t *testing.T) {
	h := sampleHome(t)
	f := BuildForecast(Options{Home: h, Settings: period(7), HorizonDays: 5, Now: retNow})
	if f.State != StateActive || f.PeriodDays != 7 || f.PeriodFrom != "/h/settings.json" {
		t.Fatalf("state %s period %d from %q", f.State, f.PeriodDays, f.PeriodFrom)
	}
	// Eligible = mtime + 7 days; horizon 5 days.
	want := []wantItem{
		{"shell-snapshots/snapshot-zsh-1.sh", KindShellSnapshot, 40 * day, BucketNow, 0},
		{"file-history/s1", KindFileHistory, 20 * day, BucketNow, 0},
		{"projects/-home-me-app/s1.jsonl", KindTranscript, 10 * day, BucketNow, 0},
		{"paste-cache/" + pasteA + ".txt", KindPaste, 9 * day, BucketNow, 0},
		{"paste-cache/" + pasteD + ".txt", KindPaste, 9 * day, BucketNow, 0},
		{"projects/-home-me-app/s1/subagents/agent-a.jsonl", KindSessionFile, 8 * day, BucketNow, 0},
		{"todos/s1.json", KindTodo, 7*day + time.Hour, BucketNow, 0},
		{"debug/s1.txt", KindDebug, 6*day + 23*time.Hour, BucketSoon, 0},
		{"backups/.claude.json.backup.1795345790406", KindBackup, 5 * day, BucketSoon, 2},
		{"plans/plan.md", KindPlan, 3 * day, BucketSoon, 4},
		{"projects/-home-me-app/s1/tool-results/t1.txt", KindSessionFile, 2 * day, BucketSoon, 5},
		{"paste-cache/" + pasteB + ".txt", KindPaste, 1 * day, BucketLater, 6},
		{"projects/-home-me-app/s2.jsonl", KindTranscript, 1 * day, BucketLater, 6},
	}
	if len(f.Items) != len(want) {
		var got []string
		for _, it := range f.Items {
			got = append(got, it.Path)
		}
		t.Fatalf("got %d items %v, want %d", len(f.Items), got, len(want))
	}
	for i, w := range want {
		it := f.Items[i]
		wantMod := retNow.Add(-w.age)
		if it.Path != w.path || it.Kind != w.kind || it.Bucket != w.bucket || it.DaysLeft != w.daysLeft ||
			!it.ModTime.Equal(wantMod) || !it.Eligible.Equal(wantMod.Add(7*day)) {
			t.Errorf("item %d = %s %s %s days %d mod %s eligible %s; want %s %s %s days %d mod %s",
				i, it.Path, it.Kind, it.Bucket, it.DaysLeft, it.ModTime, it.Eligible, w.path, w.kind, w.bucket, w.daysLeft, wantMod)
		}
	}
	fh := f.Items[1]
	if !fh.Dir || fh.Files != 1 || fh.Size != 3 || fh.Session != "s1" {
		t.Errorf("file-history item = %+v, want a folder of 1 file, 3 bytes, session s1", fh)
	}
	tr := f.Items[2]
	if tr.Session != "s1" || tr.Project != "-home-me-app" || tr.Size != 3 {
		t.Errorf("transcript item = %+v", tr)
	}

	if f.Overall.Now.Items != 7 || f.Overall.Soon.Items != 4 || f.Overall.Later.Items != 2 || f.Overall.All.Items != 13 {
		t.Errorf("overall = %+v", f.Overall)
	}
	// 40 days old "snap" (4) + folder "old" (3) + "{}\n" (3) + 2 pastes (7+7) + "{}\n{}\n" (6) + "[]" (2)
	if f.Overall.Now.Bytes != 4+3+3+7+7+6+2 {
		t.Errorf("bytes eligible now = %d", f.Overall.Now.Bytes)
	}
	var pasteTotal Total
	for _, tot := range f.Totals {
		if tot.Kind == KindPaste {
			pasteTotal = tot
		}
	}
	if pasteTotal.Now.Items != 2 || pasteTotal.Later.Items != 1 || pasteTotal.All.Bytes != 21 {
		t.Errorf("paste totals = %+v", pasteTotal)
	}
	if len(f.Totals) != len(Kinds()) {
		t.Errorf("%d totals, want one per kind", len(f.Totals))
	}

	wantNever := []NeverSwept{
		{Path: "history.jsonl", Kind: NeverSweptHistory, Files: 1, Size: int64(len(readHomeFile(t, h, "history.jsonl")))},
		{Path: "projects/-home-me-app/memory", Kind: NeverSweptMemory, Files: 2, Size: int64(len("- [a](a.md) — a\n") + len("---\nname: a\n---\nbody\n"))},
	}
	if !reflect.DeepEqual(f.NeverSwept, wantNever) {
		t.Errorf("never swept = %+v, want %+v", f.NeverSwept, wantNever)
	}
	if len(f.Problems) != 1 || f.Problems[0].File != "history.jsonl" || f.Problems[0].Line != 5 {
		t.Errorf("problems = %+v, want the bad history line 5", f.Problems)
	}
}

func readHomeFile(t *testing.T, h *model.Home, rel string) []byte {
	b, err := os.ReadFile(h.Abs(rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestForecastRetentionDanglingHistory(t *testing.T) {
	h := sampleHome(t)
	f := BuildForecast(Options{Home: h, Settings: period(7), HorizonDays: 5, Now: retNow})
	type d struct {
		line   int
		id     model.PasteID
		hash   model.PasteHash
		bucket Bucket
	}
	var got []d
	for _, x := range f.Dangling {
		got = append(got, d{x.Line, x.PasteID, x.Hash, x.Bucket})
		if x.File != "history.jsonl" || x.PastePath != "paste-cache/"+string(x.Hash)+".txt" {
			t.Errorf("dangling %+v: wrong file or paste path", x)
		}
	}
	// A is swept now (lines 1 and 6), B later (line 3); C is already
	// missing; D survives in paste-store.
	want := []d{{1, 1, pasteA, BucketNow}, {6, 3, pasteA, BucketNow}, {3, 1, pasteB, BucketLater}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dangling = %+v, want %+v", got, want)
	}
	if f.AlreadyMissing != 1 {
		t.Errorf("already missing = %d, want 1 (paste C)", f.AlreadyMissing)
	}
	if !f.Dangling[2].Eligible.Equal(retNow.Add(-day + 7*day)) {
		t.Errorf("paste B eligible %s", f.Dangling[2].Eligible)
	}
}

// 2.1.331 also sweeps other sessions' image caches and the skill
// archives (whatever their age: eligible now) and growth-test state files
// (by mtime); other state files stay.
func TestForecast2_1_331Folders(t *testing.T) {
	h := retentionHome(t, map[string]rfile{
		"image-cache/s-old/1.png":           {"png", 2 * day},
		"image-cache/s-old/2.png":           {"png2", 2 * day},
		"image-cache/s-new/1.png":           {"x", time.Hour},
		"mcp-skill-archives/a.zip":          {"zip", time.Hour},
		"state/growth-test-onboarding.json": {"{}", 40 * day},
		"state/growth-test-fresh.json":      {"{}", 2 * day},
		"state/other.json":                  {"{}", 90 * day},
	}, map[string]time.Duration{"image-cache/s-old": 2 * day, "image-cache/s-new": time.Hour})
	f := BuildForecast(Options{Home: h, Now: retNow})
	got := map[string]string{}
	for _, it := range f.Items {
		got[it.Path] = fmt.Sprintf("%s %s %d files", it.Kind, it.Bucket, it.Files)
	}
	want := map[string]string{
		"image-cache/s-old":                 "image-cache now 2 files",
		"image-cache/s-new":                 "image-cache now 1 files",
		"mcp-skill-archives/a.zip":          "skill-archive now 1 files",
		"state/growth-test-onboarding.json": "growth-test now 1 files",
		"state/growth-test-fresh.json":      "growth-test soon 1 files",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items\n%v\nwant\n%v", got, want)
	}
	// With the sweep skipped (invalid period), nothing goes, not even
	// what goes at every sweep.
	f = BuildForecast(Options{Home: h, Now: retNow, Settings: period(0)})
	if f.State != StateSkipped || f.Overall.Now.Items != 0 {
		t.Errorf("skipped sweep: state %s, %d now", f.State, f.Overall.Now.Items)
	}
}

func TestForecastRetentionStates(t *testing.T) {
	h := sampleHome(t)
	bad := []model.Problem{{File: "/h/settings.json", Line: 3, Kind: model.ProblemMalformed, Reason: "settings: invalid character"}}
	three := 3
	zero := 0
	tests := []struct {
		name      string
		o         Options
		state     State
		days      int
		from      string
		reasonHas string
		now       int
	}{
		{"missing settings", Options{}, StateActive, 30, "default", "", 1},
		{"period 7", Options{Settings: period(7)}, StateActive, 7, "/h/settings.json", "", 7},
		// Below 1 the settings are invalid (2.1.331's schema): skipped.
		{"period 0", Options{Settings: period(0)}, StateSkipped, 0, "/h/settings.json", "cleanupPeriodDays is 0 in /h/settings.json: the settings schema requires at least 1", 0},
		{"period -3", Options{Settings: period(-3)}, StateSkipped, -3, "/h/settings.json", "skips the sweep", 0},
		{"unreadable or invalid", Options{Settings: period(7), SettingsProblems: bad}, StateSkipped, 30, "default", "/h/settings.json:3", 0},
		{"--days over broken settings", Options{SettingsProblems: bad, Days: &three}, StateActive, 3, "--days", "", 9},
		{"--days 0", Options{Settings: period(7), Days: &zero}, StateDisabled, 0, "--days", "nothing is swept", 0},
		{"higher precedence wins", Options{Settings: append(period(7), model.Settings{Path: "/etc/m.json", CleanupPeriodDays: &three})}, StateActive, 3, "/etc/m.json", "", 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o
			o.Home, o.Now = h, retNow
			f := BuildForecast(o)
			if f.State != tt.state || f.PeriodDays != tt.days || f.PeriodFrom != tt.from || !strings.Contains(f.Reason, tt.reasonHas) {
				t.Fatalf("state %s days %d from %q reason %q; want %s %d %q ~%q", f.State, f.PeriodDays, f.PeriodFrom, f.Reason, tt.state, tt.days, tt.from, tt.reasonHas)
			}
			if f.Overall.Now.Items != tt.now {
				t.Errorf("eligible now = %d, want %d", f.Overall.Now.Items, tt.now)
			}
			if f.Overall.All.Items != 13 {
				t.Errorf("all items = %d, want 13 whatever the state", f.Overall.All.Items)
			}
			if tt.state != StateActive {
				for _, it := range f.Items {
					if it.Bucket != BucketNever || !it.Eligible.IsZero() {
						t.Fatalf("item %s has bucket %s eligible %s with the sweep %s", it.Path, it.Bucket, it.Eligible, f.State)
					}
				}
				if len(f.Dangling) != 0 || len(f.Timeline()) != 0 {
					t.Errorf("dangling %d timeline %d with the sweep %s", len(f.Dangling), len(f.Timeline()), f.State)
				}
			}
			if tt.state == StateSkipped && len(tt.o.SettingsProblems) > 0 && !containsProblem(f.Problems, bad[0]) {
				t.Errorf("settings problem not reported: %+v", f.Problems)
			}
		})
	}
}

func containsProblem(ps []model.Problem, p model.Problem) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}

func TestRetentionTimeline(t *testing.T) {
	h := sampleHome(t)
	f := BuildForecast(Options{Home: h, Settings: period(7), HorizonDays: 5, Now: retNow})
	type g struct {
		label string
		date  string
		items int
		kinds string
	}
	var got []g
	for _, x := range f.Timeline() {
		var kinds []string
		for _, k := range x.Kinds {
			kinds = append(kinds, string(k.Kind))
		}
		got = append(got, g{x.Label(f.HorizonDays), x.Date.Format("2006-01-02"), x.Total.Items, strings.Join(kinds, ",")})
	}
	want := []g{
		{"now", "2026-11-22", 7, "transcript,session-file,paste-cache,file-history,shell-snapshots,todos"},
		{"later today", "2026-11-22", 1, "debug"},
		{"in 2 days", "2026-11-24", 1, "backups"},
		{"in 4 days", "2026-11-26", 1, "plans"},
		{"in 5 days", "2026-11-27", 1, "session-file"},
		{"after 5 days", "2026-11-28", 2, "transcript,paste-cache"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("timeline =\n%+v\nwant\n%+v", got, want)
	}
}

func TestForecastRetentionEmptyAndOddHomes(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]rfile
		items int
		probs int
	}{
		{"empty home", map[string]rfile{}, 0, 0},
		{"empty history and files", map[string]rfile{"history.jsonl": {"", 0}, "paste-cache/x.txt": {"", 40 * day}}, 1, 0},
		{"a 10 MiB history line and invalid UTF-8", map[string]rfile{
			"history.jsonl":                  {historyLine(strings.Repeat("x", 10<<20), hashed("1", pasteA)) + historyLine("bad \xff byte", hashed("1", pasteA)), 0},
			"paste-cache/" + pasteA + ".txt": {"a", 40 * day},
		}, 1, 1},
		{"a file where file-history expects folders", map[string]rfile{"file-history/stray": {"x", 40 * day}}, 0, 1},
		{"history with CRLF, BOM and a partial tail", map[string]rfile{
			"history.jsonl":                  {"\xEF\xBB\xBF" + strings.ReplaceAll(historyLine("a", hashed("1", pasteA)), "\n", "\r\n") + `{"display":"cut`, 0},
			"paste-cache/" + pasteA + ".txt": {"a", 40 * day},
		}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := retentionHome(t, tt.files, nil)
			f := BuildForecast(Options{Home: h, Now: retNow})
			if f.Items == nil || f.NeverSwept == nil || f.Dangling == nil || f.Problems == nil {
				t.Error("a list is nil (null in JSON)")
			}
			if len(f.Items) != tt.items || len(f.Problems) != tt.probs {
				t.Errorf("items %d problems %+v; want %d items, %d problems", len(f.Items), f.Problems, tt.items, tt.probs)
			}
		})
	}
	h := retentionHome(t, map[string]rfile{
		"history.jsonl":                  {historyLine("a", hashed("1", pasteA)) + `{"display":"cut`, 0},
		"paste-cache/" + pasteA + ".txt": {"a", 40 * day},
	}, nil)
	f := BuildForecast(Options{Home: h, Now: retNow})
	if len(f.Dangling) != 1 || f.Dangling[0].Line != 1 {
		t.Errorf("dangling = %+v, want line 1", f.Dangling)
	}
	if len(f.Problems) != 1 || f.Problems[0].Kind != model.ProblemIncompleteTail || f.Problems[0].Line != 2 {
		t.Errorf("problems = %+v, want an incomplete tail at line 2", f.Problems)
	}
}

// 2.1.332 sweeps state/repeat-command-days.json after min(15, period)
// days and state/repeat-command-mark.json after the period, keeps
// repeat-command-never.json, and an older transcript a local GC kept in
// <session>/before-cleanup/ goes with its session folder.
func TestForecast2_1_332Files(t *testing.T) {
	h := retentionHome(t, map[string]rfile{
		"state/repeat-command-days.json":                                      {"{}", 20 * day},
		"state/repeat-command-mark.json":                                      {"{}", 20 * day},
		"state/repeat-command-never.json":                                     {"{}", 90 * day},
		"projects/-w/s1/before-cleanup/1795860000000-0a1b2c3d.jsonl.replaced": {"{}\n", 3 * day},
	}, nil)
	f := BuildForecast(Options{Home: h, Now: retNow})
	got := map[string]string{}
	for _, it := range f.Items {
		got[it.Path] = fmt.Sprintf("%s %s %s", it.Kind, it.Bucket, it.Session)
	}
	want := map[string]string{
		"state/repeat-command-days.json":                                      "repeat-command-days now ",  // 20 days > min(15, 30)
		"state/repeat-command-mark.json":                                      "repeat-command-mark soon ", // 20 days < 30
		"projects/-w/s1/before-cleanup/1795860000000-0a1b2c3d.jsonl.replaced": "session-file soon s1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items\n%v\nwant\n%v", got, want)
	}
	// With a 10-day period both state files are past it.
	f = BuildForecast(Options{Home: h, Now: retNow, Settings: period(10)})
	for _, it := range f.Items {
		if strings.HasPrefix(it.Path, "state/") && it.Bucket != BucketNow {
			t.Errorf("10-day period: %s %s", it.Path, it.Bucket)
		}
	}
}
