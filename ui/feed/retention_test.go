package feed

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/model"
)

var testNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// retentionHome is a home on disk whose sweep (every 5 days) deletes
// one transcript now and a todo soon.
func retentionHome(t *testing.T) (*model.Home, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, body string, age time.Duration) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		mt := testNow.Add(-age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	const day = 24 * time.Hour
	write("settings.json", `{"cleanupPeriodDays":5}`, 0)
	write("projects/-a/s.jsonl", "{}\n", 6*day)
	write("todos/t.json", "[]", 1*day)
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return home, dir
}

// load runs the feed's Load and takes its result, as the shell does.
func load(t *testing.T, r *Retention, home *model.Home, now time.Time) bool {
	t.Helper()
	cmd := r.Load(home, nil, now)
	if cmd == nil {
		return false
	}
	if r.Load(home, nil, now) != nil {
		t.Fatal("a second Load started while the first runs")
	}
	msg, ok := cmd().(RetentionLoaded)
	if !ok {
		t.Fatalf("Load's command returned %T", cmd())
	}
	if pm := r.Loaded(msg); pm.Forecast.PeriodDays != r.Forecast().PeriodDays {
		t.Fatalf("the pane's message %+v is not the forecast kept", pm.Forecast.PeriodDays)
	}
	return true
}

func item(r *Retention, p string) (cleanup.Item, bool) {
	for _, it := range r.Forecast().Items {
		if it.Path == p {
			return it, true
		}
	}
	return cleanup.Item{}, false
}

// The first Load reads the home's forecast; with nothing changed since,
// Load has nothing to read.
func TestRetentionFeedReadsTheForecast(t *testing.T) {
	home, _ := retentionHome(t)
	r := NewRetention()
	if !r.Stale() || r.Forecast() != nil {
		t.Fatal("a new feed has read something")
	}
	if !load(t, r, home, testNow) {
		t.Fatal("the first Load read nothing")
	}
	if f := r.Forecast(); f.PeriodDays != 5 || f.Overall.Now.Items != 1 || f.Overall.Soon.Items != 1 {
		t.Fatalf("forecast %+v", f)
	}
	if r.Stale() || r.Running() || load(t, r, home, testNow) {
		t.Error("with nothing changed, a second Load read again")
	}
	r.Invalidate()
	if !load(t, r, home, testNow) {
		t.Error("after Invalidate, Load did not read the home again")
	}
}

// A transcript appended to is looked at again on its own
// (cleanup.Refresh): a file no change named stays unread; a change the
// refresh cannot follow (a new todo) reads the home again; so does a
// batch of names past MaxRefreshNames.
func TestRetentionFeedRefreshesWhatChanged(t *testing.T) {
	home, dir := retentionHome(t)
	r := NewRetention()
	load(t, r, home, testNow)
	if len(r.Forecast().Items) != 2 {
		t.Fatalf("forecast: %+v", r.Forecast())
	}
	// Written without a change named: only a read of the home finds it.
	os.MkdirAll(filepath.Join(dir, "todos"), 0o700)
	os.WriteFile(filepath.Join(dir, "todos", "unseen.json"), []byte("[]"), 0o600)
	tr := filepath.Join(dir, "projects", "-a", "s.jsonl")
	f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"more\":1}\n")
	f.Close()
	os.Chtimes(tr, testNow, testNow)
	if r.Changed(map[string]bool{"projects/-a/s.jsonl": true}, false) {
		t.Fatal("one name overflowed")
	}
	if !load(t, r, home, testNow) {
		t.Fatal("a changed transcript was not read")
	}
	it, ok := item(r, "projects/-a/s.jsonl")
	if !ok || it.Size != 14 || !it.ModTime.Equal(testNow) || it.Bucket != cleanup.BucketSoon {
		t.Errorf("the appended transcript: %+v (want 14 bytes, written now, no longer due)", it)
	}
	if _, ok := item(r, "todos/unseen.json"); ok {
		t.Error("the refresh read the whole home: it found a file no change named")
	}
	r.Changed(map[string]bool{"todos/new.json": true}, false)
	load(t, r, home, testNow)
	if _, ok := item(r, "todos/unseen.json"); !ok {
		t.Error("a change the refresh cannot follow did not read the home again")
	}
	many := map[string]bool{}
	for i := range MaxRefreshNames + 1 {
		many[filepath.Join("todos", string(rune('a'+i%26))+string(rune('0'+i)))] = true
	}
	if !r.Changed(many, false) || !r.Stale() {
		t.Error("more names than MaxRefreshNames did not make the feed read the home again")
	}
}

// The pane's message counts the sessions whose history before a
// compaction is only in a .replaced copy, by the rule the Overview's line
// uses (model.CountEarlierCopies).
func TestRetentionFeedCountsEarlierCopies(t *testing.T) {
	home, dir := retentionHome(t)
	copyPath := filepath.Join(dir, "projects", "-a", "s", model.ReplacedDir, "1763632800000-ab12"+model.ReplacedSuffix)
	if err := os.MkdirAll(filepath.Dir(copyPath), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyPath, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := NewRetention()
	msg, ok := r.Load(home, nil, testNow)().(RetentionLoaded)
	if !ok {
		t.Fatal("Load's command did not return RetentionLoaded")
	}
	if e := r.Loaded(msg).Earlier; e != (model.EarlierCopies{Sessions: 1, Copies: 1, Gone: 0}) {
		t.Errorf("earlier copies %+v, want 1 session, 1 copy, none gone", e)
	}
}
