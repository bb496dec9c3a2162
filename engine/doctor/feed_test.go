package doctor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// Doctor's scan of a line whose validity stat's reader gave
// (lineValid, the shared pass) is its scan checking the line itself:
// on every line of testdata/home's transcripts and on lines made to be
// wrong in each way jsonscan tells (bad escapes, keys with escapes,
// trailing bytes, other JSON than an object, deep nesting, blank, NUL).
func TestLineValidEqualsLine(t *testing.T) {
	var lines [][]byte
	files, _ := filepath.Glob("../../testdata/home/projects/*/*.jsonl")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(data, []byte("\n"))...)
	}
	if len(lines) < 50 {
		t.Fatalf("only %d lines in testdata/home", len(lines))
	}
	lines = append(lines,
		[]byte(`{"type":"user","ver\u0073ion":"9.9.9","zz":1}`),
		[]byte(`{"type":"attachment","attachment":{"type":"brand_new"},"newField":[1,{"a":"\ud83d"}]}`),
		[]byte(`{"type":"user"} trailing`),
		[]byte(`{"type":"user","bad":"\x"}`),
		[]byte(`["not","an","object"]`),
		[]byte(`"just a string"`),
		[]byte(`{"type":"user","n":01}`),
		[]byte(`{"a":`+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`}`),
		[]byte("  \t "),
		[]byte("{\"type\":\"user\",\"x\":\"a\x00b\"}"),
		[]byte(`  {"type" : "summary" , "version":"2.1.400" }  `),
		[]byte(`{"type":"user","type":"some-new-type"}`),
	)
	var sc jsonscan.Scanner
	own, shared, walked := newFileFeed("f", &sc), newFileFeed("f", &sc), newFileFeed("f", &sc)
	sum := sessions.NewSummarizing("f")
	sum.KeepTop(true)
	for i, d := range lines {
		l := model.Line{Bytes: d, Number: i + 1, Size: int64(len(d))}
		own.line(l)
		sum.Line(l)
		shared.lineValid(l, sum.Valid())
		walked.lineTop(l, sum.Top())
		if !reflect.DeepEqual(own.out, shared.out) {
			t.Fatalf("after line %d %q:\nchecking it: %+v\ntaking stat's word: %+v", i+1, d, own.out, shared.out)
		}
		if !reflect.DeepEqual(own.out, walked.out) {
			t.Fatalf("after line %d %q:\nchecking it: %+v\ntaking stat's members: %+v", i+1, d, own.out, walked.out)
		}
	}
	if own.out.Malformed < 6 || len(own.out.Unknown) < 3 {
		t.Errorf("the lines tell too little apart: %+v", own.out)
	}
	sum.Summary(0, nil)
}

// watchedFeed is a Feed whose files a test can look at after the pass.
type watchedFeed struct {
	*Feed
	mu    sync.Mutex
	files []*feedFile
}

func (w *watchedFeed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	f := w.Feed.Want(t, st)
	if ff, ok := f.(*feedFile); ok {
		w.mu.Lock()
		w.files = append(w.files, ff)
		w.mu.Unlock()
	}
	return f
}

// In the shared pass beside stat's summary, doctor walks no line itself:
// it reads the top-level members stat's check walked (homepass.Walking),
// so each line's structure is walked once; and its scans are those of
// its own run, line for line.
func TestSharedPassWalksEachLineOnce(t *testing.T) {
	home := model.DirFS("../../testdata/home")
	files, _ := model.FindTranscripts(home)
	if len(files) < 3 {
		t.Fatalf("only %d transcripts in testdata/home", len(files))
	}
	store := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	doc := &watchedFeed{Feed: NewFeed(store, "/h")}
	if _, err := homepass.Run(home, files, 2, inventory.NewFeed(store, "/h"), doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.files) != len(files) {
		t.Fatalf("doctor read %d of %d transcripts", len(doc.files), len(files))
	}
	lines, walks := 0, 0
	var sc jsonscan.Scanner
	for _, ff := range doc.files {
		lines += ff.fd.out.Lines
		walks += ff.fd.walks
		if own := scanFile(home, ff.fd.path, &sc); !reflect.DeepEqual(own, ff.fd.out) {
			t.Errorf("%s: its own scan %+v, the shared pass's %+v", ff.fd.path, own, ff.fd.out)
		}
	}
	if lines < 50 || walks != 0 {
		t.Errorf("doctor walked %d of %d lines itself (want 0: stat's walk shared)", walks, lines)
	}
}

// FuzzLineTopEqualsLine holds doctor's scan of any line from the members
// stat's check kept (the shared pass) to its scan checking the line
// itself (its own run), after a line that kept members.
func FuzzLineTopEqualsLine(f *testing.F) {
	f.Add([]byte(`{"type":"user","ver\u0073ion":"9.9.9","zz":1}`))
	f.Add([]byte(`{"type":"attachment","attachment":{"type":"brand_new"},"newField":[1,{"a":"\ud83d"}]}`))
	f.Add([]byte(`  {"type" : "summary" , "version":"2.1.400" }  `))
	f.Add([]byte(`{"type":"user"} trailing`))
	// Lines of a few shapes, again and again (doctor reads the names of
	// each shape once), an attachment member written twice.
	f.Add([]byte("{\"type\":\"attachment\",\"attachment\":{\"type\":\"x1\"},\"attachment\":5}\n{\"type\":\"user\",\"q\":1}\n" +
		"{\"type\":\"attachment\",\"attachment\":{\"type\":\"date\"},\"attachment\":{\"type\":\"x2\"}}\n{\"type\":\"tool\",\"q\":2}\n{\"type\":\"user\",\"version\":\"3.0.0\"}"))
	f.Fuzz(func(t *testing.T, d []byte) {
		var sc jsonscan.Scanner
		own, walked := newFileFeed("f", &sc), newFileFeed("f", &sc)
		sum := sessions.NewSummarizing("f")
		sum.KeepTop(true)
		lines := [][]byte{[]byte(`{"type":"user","version":"2.1.1","odd":1}`)}
		// d's lines twice over: shapes seen again.
		split := bytes.Split(d, []byte("\n"))
		lines = append(append(append(lines, split...), lines[0]), split...)
		for i, l := range lines {
			line := model.Line{Bytes: l, Number: i + 1, Size: int64(len(l))}
			own.line(line)
			sum.Line(line)
			walked.lineTop(line, sum.Top())
		}
		sum.Summary(0, nil)
		if !reflect.DeepEqual(own.out, walked.out) {
			t.Fatalf("%q:\nchecking it: %+v\ntaking stat's members: %+v", d, own.out, walked.out)
		}
	})
}

// In the shared pass doctor works out what it wants of a line's names
// (which it does not know, where its type, version and attachments are)
// once for each shape of line (jsonscan.Top.Shape), not once a line:
// 300 lines of 3 shapes, 3 readings of names; and its scan is that of
// reading each line itself.
func TestLineTopReadsNamesOnceAShape(t *testing.T) {
	shapes := []string{
		`{"type":"user","uuid":"u%d","newField":1,"version":"2.1.330"}`,
		`{"type":"attachment","attachment":{"type":"brand_new"},"uuid":"a%d"}`,
		`{"type":"assistant","message":{"id":"m%d"},"odd":true,"odd":false}`,
	}
	sum := sessions.NewSummarizing("f")
	sum.KeepTop(true)
	var sc jsonscan.Scanner
	own, walked := newFileFeed("f", &sc), newFileFeed("f", nil)
	for i := range 300 {
		d := []byte(fmt.Sprintf(shapes[i%3], i))
		l := model.Line{Bytes: d, Number: i + 1, Size: int64(len(d))}
		sum.Line(l)
		own.line(l)
		walked.lineTop(l, sum.Top())
	}
	sum.Summary(0, nil)
	if walked.shapeReads != 3 {
		t.Errorf("names read %d times for 300 lines of 3 shapes, want 3", walked.shapeReads)
	}
	if !reflect.DeepEqual(own.out, walked.out) || len(walked.out.Unknown) != 3 {
		t.Errorf("checking each line: %+v\ntaking stat's members: %+v", own.out, walked.out)
	}
}

// FuzzTextIsUnquote holds text, the view doctor keeps of a line's type
// and version, to jsonscan.Unquote (what it read before) on any JSON
// value.
func FuzzTextIsUnquote(f *testing.F) {
	for _, s := range []string{`"user"`, `"2.1.330"`, `"a\u00e9"`, `"\u0075ser"`, "\"caf\xc3\xa9\"", "\"\xff\"", `5`, `null`, `""`, `"a\"b"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, val []byte) {
		if !json.Valid(val) {
			return
		}
		want, _ := jsonscan.Unquote(bytes.TrimSpace(val))
		if got := text(bytes.TrimSpace(val)); string(got) != want {
			t.Fatalf("text(%q) = %q, Unquote %q", val, got, want)
		}
	})
}

// Doctor's reading of a usual line from the members stat's check kept
// allocates nothing (its type and version are views of the line, the
// newest version compared without a copy).
func TestLineTopAllocatesNothing(t *testing.T) {
	d := []byte(`{"type":"assistant","uuid":"u1","sessionId":"s1","version":"2.1.330","message":{"role":"assistant"}}`)
	l := model.Line{Bytes: d, Number: 1, Size: int64(len(d))}
	sum := sessions.NewSummarizing("f")
	sum.KeepTop(true)
	sum.Line(l)
	top := sum.Top()
	fd := newFileFeed("f", nil)
	fd.lineTop(l, top)
	if n := testing.AllocsPerRun(100, func() { fd.lineTop(l, top) }); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
	if fd.out.Newest != "2.1.330" || len(fd.out.Unknown) != 0 || fd.out.Malformed != 0 {
		t.Errorf("the line read as %+v", fd.out)
	}
	sum.Summary(0, nil)
}
