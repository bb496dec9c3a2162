package sessions

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// readsAll is a pass that wants every transcript (the Overview's lines
// on a cold start), so the riders are fed each.
type readsAll struct{}

func (readsAll) Want(model.TranscriptFile, model.FileStamp) homepass.File { return nopFile{} }
func (readsAll) Done() error                                              { return nil }

type nopFile struct{}

func (nopFile) Line(model.Line)        {}
func (nopFile) End(int64, error, bool) {}

// activeHome writes transcripts whose ends LastActive reads in each of
// its ways, and returns the home and its files.
func activeHome(t *testing.T) (string, []model.TranscriptFile) {
	t.Helper()
	dir := t.TempDir()
	filler := strings.Repeat(rec("user", "2026-11-20T09:00:00Z"), 700) // ~100 KB
	unstamped := `{"type":"custom-title","customTitle":"` + strings.Repeat("w", 100<<10) + `","sessionId":"s"}` + "\n"
	// boundary: the newest record starts exactly where the first window
	// does (so LastActive skips it there and finds it in the next), an
	// older one after it.
	tail := `{"type":"ai-title","aiTitle":"` + strings.Repeat("t", 64<<10-200) + `","sessionId":"s"}` + "\n"
	newest := rec("assistant", "2026-11-25T10:00:00Z")
	older := rec("user", "2026-11-24T10:00:00Z")
	pad := strings.Repeat(" ", 64<<10-len(older)-len(tail)) // the older record and the title fill the window
	texts := map[string]string{
		"a.jsonl":       rec("user", "2026-11-20T10:00:00Z") + rec("assistant", "2026-11-20T10:05:00Z"),
		"b.jsonl":       filler + rec("assistant", "2026-11-21T11:00:00Z"),
		"c.jsonl":       filler + rec("assistant", "2026-11-22T12:00:00Z") + unstamped,
		"d.jsonl":       `{"type":"custom-title","customTitle":"x","sessionId":"s"}` + "\n",
		"e.jsonl":       filler + newest + older + pad + tail,
		"f.jsonl":       filler + rec("assistant", "2026-11-23T13:00:00Z") + `{"type":"user"`, // unterminated
		"sub/g.jsonl":   rec("user", "2026-11-26T08:00:00Z"),
		"empty.jsonl":   "",
		"newline.jsonl": "\n",
		"garbage.jsonl": strings.Repeat("{not json\n", 9000) + rec("user", "2026-11-27T08:00:00Z"),
	}
	var files []model.TranscriptFile
	// In name order: a.jsonl first.
	for _, name := range slices.Sorted(maps.Keys(texts)) {
		text := texts[name]
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, model.TranscriptFile{Path: name, Size: info.Size(), ModTime: info.ModTime()})
	}
	return dir, files
}

// The Projects list at a cold start (LastActiveKnown, then
// LastActiveFrom once the shared pass ended) reads no transcript the
// pass read whole and whose end holds a stamped record: the pass's rider
// hands over their last activity, as LastActive would have it (its first
// window's lines, the line the window cuts skipped); the others (no
// record at the end, a record only further back) are read as before.
// What both found is kept in cache: the next start reads no end.
func TestActiveHandoffReadsNoTranscriptAgain(t *testing.T) {
	t.Parallel()
	dir, files := activeHome(t)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	o := &opensFS{FS: model.DirFS(dir), opens: map[string]int{}}

	known, pending := LastActiveKnown(o, files, cache, dir)
	if len(pending) != len(files) || len(o.opens) != 0 {
		t.Fatalf("cold: %d pending of %d, %d files opened", len(pending), len(files), len(o.opens))
	}
	for _, f := range files {
		if a := known[f.Path]; a.Clock != ClockMTime || !a.Time.Equal(f.ModTime) {
			t.Errorf("%s before the pass: %+v, want its mtime", f.Path, a)
		}
	}
	h := NewActiveHandoff()
	if _, err := homepass.Run(model.DirFS(dir), files, 0, readsAll{}, h.Feed(cache, dir)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.Ended():
	default:
		t.Fatal("the pass ended, the handoff did not")
	}
	got := LastActiveFrom(o, pending, h, cache, dir)
	readAgain := map[string]bool{"c.jsonl": true, "d.jsonl": true, "e.jsonl": true, "empty.jsonl": true, "newline.jsonl": true}
	for _, f := range files {
		want := LastActive(model.DirFS(dir), f)
		if !got[f.Path].Time.Equal(want.Time) || got[f.Path].Clock != want.Clock {
			t.Errorf("%s: %+v, LastActive %+v", f.Path, got[f.Path], want)
		}
		if n := o.opens[f.Path]; readAgain[f.Path] && n != 1 || !readAgain[f.Path] && n != 0 {
			t.Errorf("%s: opened %d times by the list after the pass", f.Path, n)
		}
	}
	if e := LastActive(model.DirFS(dir), files[0]); e.Clock != ClockRecord {
		t.Fatalf("a.jsonl: %+v", e)
	}
	// The next start: every record-clocked answer from the cache (one
	// stamp each), the mtime-clocked ones read again.
	o.opens = map[string]int{}
	next, pending := LastActiveKnown(o, files, cache, dir)
	for _, f := range files {
		want := LastActive(model.DirFS(dir), f)
		fromCache := want.Clock == ClockRecord
		if fromCache && (!next[f.Path].Time.Equal(want.Time) || next[f.Path].Clock != ClockRecord) {
			t.Errorf("%s next start: %+v, want %+v from the cache", f.Path, next[f.Path], want)
		}
		inPending := false
		for _, p := range pending {
			inPending = inPending || p.Path == f.Path
		}
		if inPending == fromCache {
			t.Errorf("%s next start: pending %v, LastActive's clock %s", f.Path, inPending, want.Clock)
		}
	}
}

// Started in no project, the app opens the most recently active one
// before the shared pass: LastActiveNewest reads, newest mtime first,
// only the ends of transcripts modified at or after the newest last
// activity found (a record is written at or before its file's mtime),
// and leaves the others pending with their mtime. The newest of its
// answers is LastActiveAll's; a file touched into the past (v: its
// record newer than its mtime) is pending, its activity left to the
// pass (and the app's check of its pick). The old code read every end.
func TestLastActiveNewestReadsOnlyEndsThatCanBeNewest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	at := func(hm string) time.Time {
		tm, err := time.Parse(time.RFC3339, "2026-11-20T"+hm+":00Z")
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	type file struct {
		record, mtime string // record "": none
	}
	spec := map[string]file{
		"w.jsonl": {"09:50", "10:00"},
		"x.jsonl": {"10:00", "10:00"},
		"z.jsonl": {"", "09:45"},
		"y.jsonl": {"09:00", "09:30"},
		"v.jsonl": {"12:00", "08:00"},
	}
	var files []model.TranscriptFile
	for _, name := range slices.Sorted(maps.Keys(spec)) {
		f := spec[name]
		text := `{"type":"custom-title","customTitle":"x","sessionId":"s"}` + "\n"
		if f.record != "" {
			text = rec("user", at(f.record).Format(time.RFC3339))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at(f.mtime), at(f.mtime)); err != nil {
			t.Fatal(err)
		}
		files = append(files, model.TranscriptFile{Path: name, Size: int64(len(text)), ModTime: at(f.mtime)})
	}
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	o := &opensFS{FS: model.DirFS(dir), opens: map[string]int{}}
	out, pending := LastActiveNewest(o, files, cache, dir)
	var read, left []string
	for _, name := range slices.Sorted(maps.Keys(o.opens)) {
		read = append(read, name)
	}
	for _, p := range pending {
		left = append(left, p.Path)
	}
	if strings.Join(read, " ") != "w.jsonl x.jsonl" || strings.Join(left, " ") != "z.jsonl y.jsonl v.jsonl" {
		t.Fatalf("read %v, pending %v; want w and x read, z y v pending", read, left)
	}
	if a := out["x.jsonl"]; a.Clock != ClockRecord || !a.Time.Equal(at("10:00")) {
		t.Errorf("x: %+v", a)
	}
	for _, p := range left {
		if a := out[p]; a.Clock != ClockMTime || !a.Time.Equal(at(spec[p].mtime)) {
			t.Errorf("%s pending: %+v, want its mtime", p, a)
		}
	}
	// Without v (the one file touched into the past), the newest answer
	// is LastActiveAll's.
	all := LastActiveAll(model.DirFS(dir), files[:len(files)-1], nil, dir)
	var newestAll, newest Active
	for _, f := range files {
		if f.Path == "v.jsonl" {
			continue
		}
		newestAll, newest = Newest(newestAll, all[f.Path]), Newest(newest, out[f.Path])
	}
	if newest != newestAll {
		t.Errorf("newest %+v, LastActiveAll's %+v", newest, newestAll)
	}
	// The next start reads nothing: what was read is in the cache.
	o.opens = map[string]int{}
	if _, pending := LastActiveNewest(o, files, cache, dir); len(pending) != 3 || o.opens["w.jsonl"]+o.opens["x.jsonl"] > 2 {
		t.Errorf("the next start: %d pending, opens %v", len(pending), o.opens)
	}
}

// summarizes is stat's summary as the shared pass's consumer
// (inventory.Feed's reading, whose summaries this test does not keep):
// a Verdict, Walker and Stamper of every transcript.
type summarizes struct{}

func (summarizes) Want(t model.TranscriptFile, _ model.FileStamp) homepass.File {
	return summarizing{NewSummarizing(t.Path)}
}
func (summarizes) Done() error { return nil }

type summarizing struct{ *Summarizing }

func (s summarizing) End(n int64, err error, _ bool) { s.Summary(n, err) }

// Beside stat's summary in the pass, the rider takes each line's record
// time from it (homepass.Stamper) and reads itself only the lines the
// summary left to the transcript reader (here those that are no JSON,
// and a user record whose message is no object): the old rider read
// every line of each end again, on a scanner of its own made for each
// file. Its answers are those it gives without the summary (LastActive's
// where the end's first window holds a record).
func TestActiveHandoffTakesTheSummarysTimes(t *testing.T) {
	t.Parallel()
	dir, files := activeHome(t)
	// Out of order: the window's newest record is not its last; the
	// newest is on a line the summary leaves to the transcript reader.
	p := filepath.Join(dir, "h.jsonl")
	text := rec("assistant", "2026-11-28T10:00:00Z") + rec("user", "2026-11-28T11:00:00+01:00") + rec("user", "2026-11-28T09:00:00Z") + "\n" +
		`{"type":"user","timestamp":"2026-11-29T10:00:00Z","message":"x"}` + "\n"
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, model.TranscriptFile{Path: "h.jsonl", Size: info.Size(), ModTime: info.ModTime()})
	left := int64(1) // h.jsonl's message that is no object
	for _, f := range files {
		d, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		start := max(f.Size-lastActiveWindows[0], 0)
		lr := model.NewLineReader(strings.NewReader(string(d)))
		for l, ok := lr.Next(); ok; l, ok = lr.Next() {
			if (start == 0 || l.Offset > start) && len(strings.TrimSpace(string(l.Bytes))) > 0 && !json.Valid(l.Bytes) {
				left++
			}
		}
	}
	type answer struct {
		a  Active
		ok bool
	}
	var answers [2]map[string]answer
	for i, withSummary := range []bool{false, true} {
		h := NewActiveHandoff()
		feed := h.Feed(nil, dir)
		cs := []homepass.Consumer{readsAll{}, feed}
		if withSummary {
			cs = []homepass.Consumer{summarizes{}, feed}
		}
		if _, err := homepass.Run(model.DirFS(dir), files, 0, cs...); err != nil {
			t.Fatal(err)
		}
		answers[i] = map[string]answer{}
		for _, f := range files {
			got, ok := h.Take(f)
			answers[i][f.Path] = answer{got, ok}
			if want := LastActive(model.DirFS(dir), f); ok && (got.Time != want.Time || got.Clock != want.Clock) {
				t.Errorf("summary %v, %s: %+v, LastActive %+v", withSummary, f.Path, got, want)
			}
		}
		if read := feed.(*activeFeed).read.Load(); withSummary && read != left || !withSummary && read <= left {
			t.Errorf("summary %v: the rider read %d lines itself (the summary left %d)", withSummary, read, left)
		}
	}
	if !maps.Equal(answers[0], answers[1]) {
		t.Errorf("without the summary %v\nwith it %v", answers[0], answers[1])
	}
	if a := answers[1]["h.jsonl"]; !a.ok || a.a.Time.Format(time.RFC3339) != "2026-11-29T10:00:00Z" {
		t.Errorf("h.jsonl: %+v", a)
	}
}
