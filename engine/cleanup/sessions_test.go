package cleanup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// linesPart is what the Overview's Cleanup, Vault and Lost lines take of
// a forecast: its period, the transcripts (placed, and covered by a
// vault) with their totals, and the lost sessions.
func linesPart(t *testing.T, f Forecast) string {
	t.Helper()
	var tr []Item
	for _, it := range f.Items {
		if it.Kind == KindTranscript {
			tr = append(tr, it)
		}
	}
	var total Total
	for _, x := range f.Totals {
		if x.Kind == KindTranscript {
			total = x
		}
	}
	// A vault that holds the transcripts whose size is odd.
	f.Items = slices.Clone(f.Items)
	f.CoverVault("/vault", retNow, func(rel string, size int64, _ time.Time) bool { return size%2 == 1 })
	b, err := json.Marshal(struct {
		State            State
		Reason, From     string
		Period, Horizon  int
		Transcripts      []Item
		Total            Total
		Sessions         []LostSession
		Unattributed     int
		LostFrom, LostTo time.Time
		Vault            *VaultCoverage
	}{f.State, f.Reason, f.PeriodFrom, f.PeriodDays, f.HorizonDays, tr, total, f.Lost.Sessions, f.Lost.Unattributed, f.Lost.From, f.Lost.To, f.Vault})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BuildSessionsForecast answers what BuildForecast answers of the
// transcripts and the lost sessions (the Overview's lines), on homes
// with every swept store, lost sessions and a seed transcript, history
// held and appended to since (a lost session only in the appended
// lines, a half-written last line), settings that skip the sweep and a
// --days what-if; and its other lists are empty, not nil.
func TestSessionsForecastIsTheForecastsTranscripts(t *testing.T) {
	lostHome := retentionHome(t, map[string]rfile{
		"projects/-w-app/aaaa.jsonl":      {"{}\n", 3 * day},
		"projects/-w-app/eeee.jsonl":      {"{}\n{}\n", 45 * day},
		"projects/-w-app/eeee/t/x.txt":    {"x", day},
		"projects/-w-two/ffff.jsonl":      {"{}\n", 29 * day},
		"projects/-w-two/memory/a.md":     {"a", day},
		"sessions/dddd/transcript.jsonl":  {"{}\n", day},
		"paste-cache/" + pasteA + ".txt":  {"a", 40 * day},
		"file-history/eeee/0123456789@v1": {"v", 40 * day},
		"history.jsonl": {histPrompt(0, "aaaa") + histPrompt(1, "bbbb") + histPrompt(2, "") + histPrompt(3, "dddd") +
			histLine(4, pasteA) + histPrompt(5, "bbbb") + histPrompt(6, "cccc") + "{bad\n", time.Hour},
	}, nil)
	var tail model.HistoryTail
	held, err := tail.Read(lostHome.FS, model.HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	// The app's start holds sums of the entries, not the entries
	// (model.HistoryTail.Sums).
	summed := model.HistoryTail{Sums: true}
	heldSums, err := summed.Read(lostHome.FS, model.HistoryPath)
	if err != nil || heldSums.Sums == nil || len(heldSums.Entries) != 0 {
		t.Fatalf("sums read: %v, %d entries, sums %v", err, len(heldSums.Entries), heldSums.Sums)
	}
	fh, err := os.OpenFile(filepath.Join(lostHome.Dir, "history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(histPrompt(7, "gggg") + histPrompt(8, "bbbb") + histPrompt(9, "hhhh")[:20])
	fh.Close()

	zero := 0
	cases := []struct {
		name string
		o    Options
	}{
		{"every store", Options{Home: sampleHome(t), Settings: period(7), Now: retNow}},
		{"lost, read whole", Options{Home: lostHome, Settings: period(30), Now: retNow, HorizonDays: 7}},
		{"lost, held and appended", Options{Home: lostHome, Settings: period(30), Now: retNow, HorizonDays: 7, History: &held}},
		{"lost, held as sums and appended", Options{Home: lostHome, Settings: period(30), Now: retNow, HorizonDays: 7, History: &heldSums}},
		{"skipped", Options{Home: lostHome, Settings: period(-1), Now: retNow}},
		{"unreadable settings", Options{Home: lostHome, SettingsProblems: []model.Problem{{File: "settings.json", Kind: model.ProblemMalformed, Reason: "bad"}}, Now: retNow}},
		{"--days 0", Options{Home: lostHome, Days: &zero, Now: retNow}},
		{"empty home", Options{Home: retentionHome(t, nil, nil), Now: retNow}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := BuildForecast(c.o)
			got := BuildSessionsForecast(c.o)
			if g, w := linesPart(t, got), linesPart(t, want); g != w {
				t.Errorf("sessions forecast\n%s\nforecast\n%s", g, w)
			}
			if got.Items == nil || got.Dangling == nil || got.NeverSwept == nil || got.Lost.Sessions == nil || got.Lost.Pastes == nil || len(got.Lost.Pastes) != 0 {
				t.Errorf("lists: items %v, dangling %v, never %v, lost %v", got.Items, got.Dangling, got.NeverSwept, got.Lost)
			}
			for _, it := range got.Items {
				if it.Kind != KindTranscript {
					t.Errorf("item %s of kind %s", it.Path, it.Kind)
				}
			}
		})
	}
	for _, c := range cases[2:4] {
		if f := BuildSessionsForecast(c.o); len(f.Lost.Sessions) != 4 || !strings.Contains(linesPart(t, f), `"gggg"`) {
			t.Errorf("%s: lost sessions %+v: want s1, bbbb, cccc and gggg (appended after the held read)", c.name, f.Lost.Sessions)
		}
	}
}
