package homepass

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// fake is a consumer that wants the files named in want, records the
// lines it was handed and whether each file ended whole; with verdict
// it says every line starting with '{' is valid, with trusting it takes
// that word.
type fake struct {
	want              map[string]bool
	verdict, trusting bool
	mu                sync.Mutex
	lines             map[string][]string
	valid             map[string][]bool
	ended             map[string]bool
	done              int
	doneErr           error
}

func newFake(want ...string) *fake {
	f := &fake{want: map[string]bool{}, lines: map[string][]string{}, valid: map[string][]bool{}, ended: map[string]bool{}}
	for _, w := range want {
		f.want[w] = true
	}
	return f
}

func (f *fake) Want(t model.TranscriptFile, _ model.FileStamp) File {
	if !f.want[t.Path] {
		return nil
	}
	switch {
	case f.verdict:
		return &verdictFile{fakeFile{f: f, name: t.Path}, false}
	case f.trusting:
		return &trustingFile{fakeFile{f: f, name: t.Path}}
	}
	return &fakeFile{f: f, name: t.Path}
}

func (f *fake) Done() error { f.done++; return f.doneErr }

type fakeFile struct {
	f    *fake
	name string
}

func (ff *fakeFile) Line(l model.Line) {
	ff.f.mu.Lock()
	ff.f.lines[ff.name] = append(ff.f.lines[ff.name], string(l.Bytes))
	ff.f.mu.Unlock()
}

func (ff *fakeFile) End(n int64, err error, whole bool) {
	ff.f.mu.Lock()
	ff.f.ended[ff.name] = whole && err == nil
	ff.f.mu.Unlock()
}

type verdictFile struct {
	fakeFile
	last bool
}

func (v *verdictFile) Line(l model.Line) {
	v.last = len(l.Bytes) > 0 && l.Bytes[0] == '{'
	v.fakeFile.Line(l)
}

func (v *verdictFile) Valid() bool { return v.last }

type trustingFile struct{ fakeFile }

func (t *trustingFile) LineValid(l model.Line, valid bool) {
	t.f.mu.Lock()
	t.f.valid[t.name] = append(t.f.valid[t.name], valid)
	t.f.mu.Unlock()
	t.fakeFile.Line(l)
}

// Run reads each file a consumer wants once and hands every line to each
// consumer that wants it, in order; a file no consumer wants is not read;
// a Trusting consumer gets the Verdict's word for each line; every
// consumer's Done runs once and its error comes back.
func TestRun(t *testing.T) {
	mod := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	home := fstest.MapFS{
		"a.jsonl": {Data: []byte("{\"n\":1}\nnot json\n{\"n\":2}\n"), ModTime: mod},
		"b.jsonl": {Data: []byte("{\"b\":1}\n"), ModTime: mod},
		"c.jsonl": {Data: []byte("{\"c\":1}\n"), ModTime: mod},
	}
	var files []model.TranscriptFile
	for _, n := range []string{"a.jsonl", "b.jsonl", "c.jsonl"} {
		files = append(files, model.TranscriptFile{Path: n, Size: int64(len(home[n].Data)), ModTime: mod})
	}
	plain := newFake("a.jsonl", "b.jsonl")
	judge := newFake("a.jsonl")
	judge.verdict = true
	trust := newFake("a.jsonl", "b.jsonl")
	trust.trusting = true
	trust.doneErr = errors.New("cache not written")
	st, err := Run(home, files, 2, plain, trust, judge)
	if err == nil || err.Error() != "cache not written" {
		t.Errorf("Run's error: %v", err)
	}
	if st.Files != 2 || st.Bytes != files[0].Size+files[1].Size {
		t.Errorf("stats %+v: want a.jsonl and b.jsonl read, not c.jsonl", st)
	}
	want := []string{`{"n":1}`, "not json", `{"n":2}`}
	for _, f := range []*fake{plain, judge, trust} {
		if got := f.lines["a.jsonl"]; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("a.jsonl's lines: %q", got)
		}
		if !f.ended["a.jsonl"] || f.done != 1 {
			t.Errorf("ended whole %v, Done called %d times", f.ended, f.done)
		}
	}
	if got := trust.valid["a.jsonl"]; len(got) != 3 || !got[0] || got[1] || !got[2] {
		t.Errorf("the trusting consumer's verdicts on a.jsonl: %v", got)
	}
	// No verdict on b.jsonl (the judge does not read it): plain lines.
	if got := trust.valid["b.jsonl"]; len(got) != 0 || len(trust.lines["b.jsonl"]) != 1 {
		t.Errorf("b.jsonl without a verdict: verdicts %v, lines %q", got, trust.lines["b.jsonl"])
	}
}

// walkerConsumer's files check each line with jsonscan, keeping its
// top-level members (a Walker, as stat's summary is).
type walkerConsumer struct {
	*fake
	files *[]*walkerFile
}

func (w walkerConsumer) Want(t model.TranscriptFile, _ model.FileStamp) File {
	if !w.want[t.Path] {
		return nil
	}
	wf := &walkerFile{fakeFile: fakeFile{f: w.fake, name: t.Path}}
	w.mu.Lock()
	*w.files = append(*w.files, wf)
	w.mu.Unlock()
	return wf
}

type walkerFile struct {
	fakeFile
	sc  jsonscan.Scanner
	top jsonscan.Top
	ok  bool
	// keep are the KeepTop calls.
	keep []bool
}

func (w *walkerFile) Line(l model.Line) {
	w.ok = w.sc.Line(l.Bytes, func(_ []byte, v, depth int) (int, error) { return w.sc.Value(v, depth) }) == nil
	w.fakeFile.Line(l)
}

func (w *walkerFile) Valid() bool { return w.ok }

func (w *walkerFile) KeepTop(keep bool) {
	w.keep = append(w.keep, keep)
	w.sc.Keep = nil
	if keep {
		w.sc.Keep = &w.top
	}
}

func (w *walkerFile) Top() *jsonscan.Top { return w.sc.Keep }

// walkingConsumer's files are Trusting and Walking: they note, for each
// line, how they were handed it ("valid", "invalid" from LineValid; the
// members' names from LineTop).
type walkingConsumer struct{ *fake }

func (w walkingConsumer) Want(t model.TranscriptFile, _ model.FileStamp) File {
	if !w.want[t.Path] {
		return nil
	}
	return &walkingFile{fakeFile{f: w.fake, name: t.Path}}
}

type walkingFile struct{ fakeFile }

func (w *walkingFile) LineValid(l model.Line, valid bool) {
	w.fakeFile.Line(model.Line{Bytes: fmt.Appendf(nil, "valid %v", valid)})
}

func (w *walkingFile) LineTop(l model.Line, top *jsonscan.Top) {
	var names []string
	top.Each(func(k, _ []byte) { names = append(names, string(k)) })
	w.fakeFile.Line(model.Line{Bytes: fmt.Appendf(nil, "top %v %q", top.Valid(), names)})
}

// A Walking reader is handed the Walker's members of each line, in
// place of its word alone, and the Walker is told to keep them (and not
// to when no Walking reader shares the file); beside a Verdict that
// keeps none a Walking reader takes the word (LineValid), as before.
func TestRunHandsTheWalkersMembers(t *testing.T) {
	mod := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	home := fstest.MapFS{"a.jsonl": {Data: []byte("{\"n\":1,\"m\":{\"x\":2}}\nnot json\n{\"n\":2} x\n"), ModTime: mod}}
	files := []model.TranscriptFile{{Path: "a.jsonl", Size: int64(len(home["a.jsonl"].Data)), ModTime: mod}}
	walking := newFake("a.jsonl")
	var walkers []*walkerFile
	if _, err := Run(home, files, 1, walkerConsumer{newFake("a.jsonl"), &walkers}, walkingConsumer{walking}); err != nil {
		t.Fatal(err)
	}
	want := []string{`top true ["n" "m"]`, `top false []`, `top false []`}
	if got := walking.lines["a.jsonl"]; !slices.Equal(got, want) {
		t.Errorf("beside a Walker: %q, want %q", got, want)
	}
	plain := newFake("a.jsonl")
	if _, err := Run(home, files, 1, walkerConsumer{newFake("a.jsonl"), &walkers}, plain); err != nil {
		t.Fatal(err)
	}
	if len(walkers) != 2 || !slices.Equal(walkers[0].keep, []bool{true}) || !slices.Equal(walkers[1].keep, []bool{false}) {
		t.Errorf("the Walker told to keep members: with a Walking reader, then without one: %v", func() (k [][]bool) {
			for _, w := range walkers {
				k = append(k, w.keep)
			}
			return k
		}())
	}
	if len(plain.lines["a.jsonl"]) != 3 {
		t.Errorf("the plain reader beside a Walker: %q", plain.lines["a.jsonl"])
	}
	judge := newFake("a.jsonl")
	judge.verdict = true
	walking = newFake("a.jsonl")
	if _, err := Run(home, files, 1, judge, walkingConsumer{walking}); err != nil {
		t.Fatal(err)
	}
	want = []string{"valid true", "valid false", "valid true"}
	if got := walking.lines["a.jsonl"]; !slices.Equal(got, want) {
		t.Errorf("beside a Verdict alone: %q, want %q", got, want)
	}
}

// recorderConsumer's files are Verdicts that also read each line's
// record (Recorder): its time the number after "t", a blank line blank,
// a line starting with '?' left to the transcript reader.
type recorderConsumer struct{ *fake }

func (s recorderConsumer) Want(t model.TranscriptFile, _ model.FileStamp) File {
	if !s.want[t.Path] {
		return nil
	}
	return &recorderFile{verdictFile: verdictFile{fakeFile: fakeFile{f: s.fake, name: t.Path}}}
}

type recorderFile struct {
	verdictFile
	rec model.SummaryRecord
	how Read
}

func (s *recorderFile) Line(l model.Line) {
	s.rec, s.how = model.SummaryRecord{}, ReadRecord
	var n int
	switch {
	case len(l.Bytes) == 0:
		s.how = ReadBlank
	case l.Bytes[0] == '?':
		s.how = ReadByModel
	default:
		if _, err := fmt.Sscanf(string(l.Bytes), "{\"t\":%d}", &n); err == nil {
			s.rec.Timestamp = time.Unix(int64(n), 0)
		}
	}
	s.verdictFile.Line(l)
}

func (s *recorderFile) Record() (*model.SummaryRecord, Read) {
	if s.how != ReadRecord {
		return nil, s.how
	}
	return &s.rec, s.how
}

// recordingConsumer's files are Recording (and Trusting): they note how
// each line was handed to them.
type recordingConsumer struct{ *fake }

func (s recordingConsumer) Want(t model.TranscriptFile, _ model.FileStamp) File {
	if !s.want[t.Path] {
		return nil
	}
	return &recordingFile{trustingFile{fakeFile{f: s.fake, name: t.Path}}}
}

type recordingFile struct{ trustingFile }

func (s *recordingFile) LineRecord(l model.Line, r *model.SummaryRecord, how Read) {
	t := int64(-1)
	if r != nil {
		t = r.Timestamp.Unix()
	}
	s.fakeFile.Line(model.Line{Bytes: fmt.Appendf(nil, "record %d %d %s", t, how, l.Bytes)})
}

// A Recording reader beside a Recorder is handed the Recorder's reading
// of each line (LineRecord) and no line to read (the Projects list's
// last activity and the Replay list's followers beside stat's summary:
// the old pass handed them every line, which they read again); beside a
// Verdict that reads no record it is given the Verdict's word, and with
// no Verdict the lines, as before.
func TestRunHandsTheRecordersReading(t *testing.T) {
	mod := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	home := fstest.MapFS{"a.jsonl": {Data: []byte("{\"t\":5}\n?x\n\n{\"t\":3}\n"), ModTime: mod}}
	files := []model.TranscriptFile{{Path: "a.jsonl", Size: int64(len(home["a.jsonl"].Data)), ModTime: mod}}
	recording := newFake("a.jsonl")
	if _, err := Run(home, files, 1, recordingConsumer{recording}, recorderConsumer{newFake("a.jsonl")}); err != nil {
		t.Fatal(err)
	}
	want := []string{"record 5 2 {\"t\":5}", "record -1 0 ?x", "record -1 1 ", "record 3 2 {\"t\":3}"}
	if got := recording.lines["a.jsonl"]; !slices.Equal(got, want) {
		t.Errorf("beside a Recorder: %q, want %q", got, want)
	}
	judge := newFake("a.jsonl")
	judge.verdict = true
	recording = newFake("a.jsonl")
	if _, err := Run(home, files, 1, judge, recordingConsumer{recording}); err != nil {
		t.Fatal(err)
	}
	if got := recording.valid["a.jsonl"]; !slices.Equal(got, []bool{true, false, false, true}) {
		t.Errorf("beside a Verdict alone: verdicts %v, lines %q", got, recording.lines["a.jsonl"])
	}
	recording = newFake("a.jsonl")
	if _, err := Run(home, files, 1, newFake("a.jsonl"), recordingConsumer{recording}); err != nil {
		t.Fatal(err)
	}
	if got := recording.lines["a.jsonl"]; len(got) != 4 || got[0] != `{"t":5}` {
		t.Errorf("with no Verdict: %q", got)
	}
}
