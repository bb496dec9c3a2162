package ui

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// transcriptReaders is a home whose transcripts' bytes are counted by
// the reader on the stack when they are read: the shared pass
// (engine/homepass), a stamp's head (model.StampFile and the like), the
// listing's probe of a project's folder, or another reader (by its first
// function outside model and the standard library).
type transcriptReaders struct {
	fs.FS
	mu sync.Mutex
	// bytes are the bytes read by each reader, by transcript.
	bytes map[string]map[string]int64
}

func (c *transcriptReaders) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil || !strings.HasPrefix(name, "projects/") || !strings.HasSuffix(name, ".jsonl") {
		return f, err
	}
	return &readerFile{File: f, c: c, name: name}, nil
}

func (c *transcriptReaders) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(c.FS, name)
}

func (c *transcriptReaders) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

func (c *transcriptReaders) count(name string, n int) {
	if n <= 0 {
		return
	}
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	who := ""
	for {
		f, more := frames.Next()
		fn := strings.TrimPrefix(f.Function, "github.com/memscope/memscope/")
		switch {
		case strings.HasPrefix(fn, "engine/homepass."):
			who = "the pass"
		case strings.HasPrefix(fn, "model.Stamp"), strings.HasPrefix(fn, "model.Unchanged"), strings.HasPrefix(fn, "model.ProbeProjectPath"), strings.HasPrefix(fn, "model.hashHead"):
			who = "heads"
		case who == "" && !strings.HasPrefix(fn, "model.") && strings.Contains(f.Function, "memscope/") && !strings.HasPrefix(fn, "ui.(*readerFile)") && !strings.HasPrefix(fn, "ui.(*transcriptReaders)"):
			who = fn
		case who != "" && strings.Contains(f.Function, "memscope/") && strings.Count(who, " <- ") < 6:
			who += " <- " + fn
		}
		if who == "the pass" || who == "heads" || !more {
			break
		}
	}
	c.mu.Lock()
	if c.bytes[who] == nil {
		c.bytes[who] = map[string]int64{}
	}
	c.bytes[who][name] += int64(n)
	c.mu.Unlock()
}

type readerFile struct {
	fs.File
	c    *transcriptReaders
	name string
}

func (f *readerFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.c.count(f.name, n)
	return n, err
}

func (f *readerFile) ReadAt(p []byte, off int64) (int, error) {
	ra, ok := f.File.(io.ReaderAt)
	if !ok {
		return 0, fs.ErrInvalid
	}
	n, err := ra.ReadAt(p, off)
	f.c.count(f.name, n)
	return n, err
}

func (f *readerFile) Seek(off int64, whence int) (int64, error) {
	s, ok := f.File.(io.Seeker)
	if !ok {
		return 0, fs.ErrInvalid
	}
	return s.Seek(off, whence)
}

// A cold start of the app in a project's folder reads the transcripts'
// bytes in the shared pass (the Overview's) and in the 4 KiB heads of
// their stamps and the listing's probes only: the Projects list takes
// the transcripts' last activities from the pass once it ended, and the
// Replay list the open project's with the followers the pass built. The
// rows are those the old code shows. On the old code the Projects list
// read every transcript's end before the pass (sessions.LastActiveAll),
// and the Replay list the open project's ends again (SummarizeSessions).
func TestColdStartReadsTranscriptsInThePassOnly(t *testing.T) {
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	rowsOf := func(m Model) string {
		var b strings.Builder
		for _, r := range m.feeds.home.Rows() {
			fmt.Fprintf(&b, "%s %s %s\n", r.Project.Slug, r.LastActive.Time, r.LastActive.Clock)
		}
		for _, s := range m.feeds.sessions.List() {
			fmt.Fprintf(&b, "replay %s %s %s\n", s.File.Path, s.Active.Time, s.Active.Clock)
		}
		return b.String()
	}
	// Without a cache there is no pass: every reader reads for itself,
	// as the old code did.
	want := rowsOf(demoModelCached(t, l, true, 120, 40, nil))

	dir := filepath.Join(t.TempDir(), "cache")
	cache := diskcache.New(dir, model.MountFS(nil, filepath.ToSlash(dir), model.DirFS(dir)), model.OSWriteFS{})
	o := demoOptions(t, l, true, cache, testroot.Writer(t))
	c := &transcriptReaders{FS: o.Home.FS, bytes: map[string]map[string]int64{}}
	o.Home.FS = c
	m := demoModelSeen(t, o, 120, 40, nil)
	var others []string
	for who, files := range c.bytes {
		if who == "the pass" || who == "heads" || strings.HasPrefix(who, "engine/ledger.findMark <- engine/ledger.fileLedger") {
			// The Dropped line decodes the ledger of a transcript with a
			// compaction inside its horizon after the pass found it
			// (ledger.HomeSince: the pass keeps each one's newest
			// compaction only): a reader of its own, not this test's.
			continue
		}
		// A file the pass does not read (a session's .replaced copy) is
		// the Replay list's to read.
		for name, n := range files {
			if c.bytes["the pass"][name] > 0 {
				others = append(others, fmt.Sprintf("%s: %s, %d bytes", who, name, n))
			}
		}
	}
	sort.Strings(others)
	if len(c.bytes["the pass"]) == 0 {
		t.Fatal("no pass ran")
	}
	if len(others) > 0 {
		t.Errorf("transcripts read beside the pass:\n%s", strings.Join(others, "\n"))
	}
	if got := rowsOf(m); got != want {
		t.Errorf("rows after the start\n%s\nthe rows without a pass\n%s", got, want)
	}
}
