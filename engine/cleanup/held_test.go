package cleanup

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// historyBytesFS counts the bytes read from history.jsonl.
func historyBytesFS(fsys fs.FS) *testenv.ReadCounter {
	return &testenv.ReadCounter{FS: fsys, Count: func(name string) bool { return name == model.HistoryPath }}
}

// A forecast given history.jsonl as a reader holds it (Options.History,
// the app's History feed) answers what a forecast reading the file
// itself answers, and reads only what follows the held read: lines
// appended since (a dangling paste, a lost session, a bad line) and a
// half-written last line. A forecast given none reads the whole file.
// On the old code each forecast read the whole file (a process-wide
// cache of the last whole read stood in for the sharing).
func TestForecastFromHeldHistoryReadsOnlyWhatFollows(t *testing.T) {
	h := retentionHome(t, map[string]rfile{
		"projects/-w-app/s1.jsonl":         {`{"type":"user"}` + "\n", 10 * day},
		"projects/-w-app/s2.jsonl":         {`{"type":"user"}` + "\n", 40 * day},
		"paste-cache/aaaaaaaaaaaaaaaa.txt": {"old paste", 25 * day},
		"paste-cache/bbbbbbbbbbbbbbbb.txt": {"new paste", time.Hour},
		"history.jsonl":                    {histLine(0, "aaaaaaaaaaaaaaaa") + histLine(1, "cccccccccccccccc") + histPrompt(2, "gone1") + "{not json\n" + histPrompt(3, ""), time.Hour},
	}, nil)
	var tail model.HistoryTail
	held, err := tail.Read(h.FS, model.HistoryPath)
	if err != nil || !held.Full || len(held.Entries) != 4 || len(held.Problems) != 1 {
		t.Fatalf("the held read: %d entries, %d problems, %v", len(held.Entries), len(held.Problems), err)
	}
	fh, err := os.OpenFile(filepath.Join(h.Dir, "history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	more := histLine(2, "aaaaaaaaaaaaaaaa") + histPrompt(5, "gone2") + "{still not json\n" + histPrompt(4, "gone1") + histLine(3, "aaaaaaaaaaaaaaaa")[:50]
	if _, err := fh.WriteString(more); err != nil {
		t.Fatal(err)
	}
	fh.Close()

	o := Options{Home: h, Settings: period(30), Now: retNow}
	want := BuildForecast(o)
	if len(want.Dangling) != 2 || len(want.Lost.Sessions) != 2 || len(want.Problems) != 3 {
		t.Fatalf("fixture: %d dangling, %d lost sessions, %d problems; want 2, 2, 3", len(want.Dangling), len(want.Lost.Sessions), len(want.Problems))
	}
	cfs := historyBytesFS(h.FS)
	counted := *h
	counted.FS = cfs
	o.Home, o.History = &counted, &held
	got := BuildForecast(o)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("from the held read\n%s\nreading the file\n%s", g, w)
	}
	if n := cfs.N.Load(); n != int64(len(more)) {
		t.Errorf("read %d bytes of history.jsonl, want only the %d appended after the held read", n, len(more))
	}
	// A forecast from the held read goes on as one that read the file:
	// Refresh after the half line ends.
	fh, _ = os.OpenFile(filepath.Join(h.Dir, "history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(histLine(3, "aaaaaaaaaaaaaaaa")[50:] + histPrompt(6, "gone3"))
	fh.Close()
	o.History = nil
	next, ok := Refresh(got, o, []string{model.HistoryPath})
	g, _ = json.Marshal(next)
	o.Home = h
	w, _ = json.Marshal(BuildForecast(o))
	if !ok || string(g) != string(w) {
		t.Fatalf("Refresh of the forecast from the held read (ok %v)\n%s\nBuildForecast\n%s", ok, g, w)
	}
	cfs.N.Store(0)
	o.Home = &counted
	BuildForecast(o)
	if st, _ := fs.Stat(h.FS, model.HistoryPath); cfs.N.Load() < st.Size() {
		t.Errorf("a forecast given no history read %d bytes of it, want the whole file's %d at least", cfs.N.Load(), st.Size())
	}
}
