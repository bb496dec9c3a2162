package ui

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/diskcache"
	enginesessions "github.com/memscope/memscope/engine/sessions"
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
// Replay list the open project's with the followers the pass built.
// Started in no project, the Projects list reads first only the ends
// that can be the newest (a transcript modified before the newest
// record cannot be), to open the most recently active project. The rows
// are those the old code shows. On the old code the Projects list read
// every transcript's end before the pass (sessions.LastActiveAll), and
// the Replay list the open project's ends again (SummarizeSessions).
func TestColdStartReadsTranscriptsInThePassOnly(t *testing.T) {
	l, err := demo.Materialize(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	rowsOf := func(m Model) string {
		var b strings.Builder
		fmt.Fprintf(&b, "open %s\n", m.data.open)
		for _, r := range m.feeds.home.Rows() {
			fmt.Fprintf(&b, "%s %s %s\n", r.Project.Slug, r.LastActive.Time, r.LastActive.Clock)
		}
		for _, s := range m.feeds.sessions.List() {
			fmt.Fprintf(&b, "replay %s %s %s\n", s.File.Path, s.Active.Time, s.Active.Clock)
		}
		return b.String()
	}
	for _, project := range []string{l.Project("shop-api"), ""} {
		func() {
			// Without a cache there is no pass: every reader reads for
			// itself, as the old code did.
			o := demoOptions(t, l, true, nil, testroot.Writer(t))
			o.Project = project
			want := rowsOf(demoModelSeen(t, o, 120, 40, nil))
			// The ends that can be the newest: newest mtime first, each
			// one modified at or after the newest last activity of the
			// transcripts modified later.
			files, _ := model.FindTranscripts(o.Home.FS)
			active := enginesessions.LastActiveAll(o.Home.FS, files, nil, "")
			sort.SliceStable(files, func(i, j int) bool { return files[i].ModTime.After(files[j].ModTime) })
			var newest time.Time
			mayBeNewest := map[string]bool{}
			for _, f := range files {
				mayBeNewest[f.Path] = !f.ModTime.Before(newest)
				if a := active[f.Path]; a.Time.After(newest) {
					newest = a.Time
				}
			}

			dir := filepath.Join(t.TempDir(), "cache")
			cache := diskcache.New(dir, model.MountFS(nil, filepath.ToSlash(dir), model.DirFS(dir)), model.OSWriteFS{})
			o = demoOptions(t, l, true, cache, testroot.Writer(t))
			o.Project = project
			c := &transcriptReaders{FS: o.Home.FS, bytes: map[string]map[string]int64{}}
			o.Home.FS = c
			m := demoModelSeen(t, o, 120, 40, nil)
			var others []string
			for who, files := range c.bytes {
				if who == "the pass" || who == "heads" || strings.HasPrefix(who, "engine/ledger.findMark <- engine/ledger.fileLedger") {
					// The Dropped line decodes the ledger of a transcript
					// with a compaction inside its horizon after the pass
					// found it (ledger.HomeSince: the pass keeps each
					// one's newest compaction only): a reader of its own.
					continue
				}
				// A file the pass does not read (a session's .replaced
				// copy) is the Replay list's to read.
				for name, n := range files {
					if project == "" && strings.Contains(who, "sessions.LastActiveNewest") && mayBeNewest[name] {
						continue
					}
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
				t.Errorf("started in %q: transcripts read beside the pass:\n%s", project, strings.Join(others, "\n"))
			}
			if got := rowsOf(m); got != want {
				t.Errorf("started in %q: rows after the start\n%s\nthe rows without a pass\n%s", project, got, want)
			}
		}()
	}
}

// Started in no project on a home where the most recently active
// transcript was touched into the past (its mtime older than another
// project's record), the start opens the project that seems the newest
// before the pass and, once the pass hands the transcript's activity
// over, the project the list that reads every end opens: the app ends
// where the old code started.
func TestColdStartInNoProjectEndsOnTheNewestProject(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	session := func(slug, id, cwd string, at, mtime time.Time) {
		t.Helper()
		p := filepath.Join(home, "projects", slug, id+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		line := `{"type":"user","uuid":"u1","sessionId":"` + id + `","timestamp":"` + at.Format(time.RFC3339) + `","cwd":"` + cwd + `","message":{"role":"user","content":"hi"}}` + "\n"
		if err := os.WriteFile(p, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	// a: the newest record (30 min ago), its file touched 2 days back.
	session("-w-a", "aaaaaaaa-0000-4000-8000-000000000001", "/w/a", testNow.Add(-30*time.Minute), testNow.Add(-48*time.Hour))
	session("-w-b", "bbbbbbbb-0000-4000-8000-000000000002", "/w/b", testNow.Add(-time.Hour), testNow.Add(-time.Hour))
	start := func(cache *diskcache.Store) (first, last string) {
		h, err := model.OpenHome(home, model.HomeFromFlag)
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Home: h, Project: "/nowhere", Now: func() time.Time { return testNow }, Root: testroot.New(t), Cache: cache, Writes: testroot.Writer(t),
			Getenv: func(string) string { return "" }}
		m := New(o)
		m = drainSteps(t, m, m.Init(), 1000, nil, func(m Model) {
			if first == "" {
				first = m.data.open
			}
		})
		return first, m.data.open
	}
	if _, old := start(nil); old != "-w-a" {
		t.Fatalf("without a pass the start opens %q", old)
	}
	cdir := filepath.Join(dir, "cache")
	first, last := start(diskcache.New(cdir, model.MountFS(nil, filepath.ToSlash(cdir), model.DirFS(cdir)), model.OSWriteFS{}))
	if first != "-w-b" || last != "-w-a" {
		t.Errorf("with the pass the start opened %q first and %q at the end; want -w-b, then -w-a", first, last)
	}
}
