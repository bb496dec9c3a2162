package inventory

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/model"
)

// opensFS counts the opens of each transcript of a home (a .jsonl under
// projects/), through Open and OpenRegular alike.
type opensFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (o *opensFS) count(name string) {
	if strings.HasPrefix(name, "projects/") && strings.HasSuffix(name, ".jsonl") {
		o.mu.Lock()
		o.opens[name]++
		o.mu.Unlock()
	}
}

func (o *opensFS) Open(name string) (fs.File, error) {
	o.count(name)
	return o.FS.Open(name)
}

func (o *opensFS) OpenRegular(name string) (fs.File, error) {
	o.count(name)
	return model.OpenRegular(o.FS, name)
}

func (o *opensFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(o.FS, name) }

func (o *opensFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(o.FS, name) }

// A cold stat with a cache opens each transcript as often as a run
// without one: the open that reads a transcript stamps it for the cache
// (diskcache.PerFileStamping), and every transcript is kept. The old
// code stamped each first, one more open (and head read) a transcript.
func TestColdStatOpensEachTranscriptOnceForTheCache(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen")
	if err := genhome.Run(gen, "2M", "7"); err != nil {
		t.Fatal(err)
	}
	h := openHome(t, gen)
	c := newCache(t)
	run := func(cached bool) (map[string]int, string) {
		o := &opensFS{FS: h.FS, opens: map[string]int{}}
		home := &model.Home{Dir: h.Dir, FS: o, Source: h.Source}
		if !cached {
			return o.opens, statJSON(t, home, nil)
		}
		return o.opens, statJSON(t, home, c)
	}
	plain, want := run(false)
	cold, got := run(true)
	if got != want {
		t.Errorf("a cold run with a cache differs from one without:\n%s\nwant\n%s", got, want)
	}
	if len(plain) == 0 || len(cold) != len(plain) {
		t.Fatalf("%d transcripts opened with a cache, %d without", len(cold), len(plain))
	}
	sc, _ := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir))
	if len(sc.Transcripts) != len(plain) {
		t.Errorf("the cache kept %d transcripts of %d", len(sc.Transcripts), len(plain))
	}
	for name, n := range cold {
		if n != plain[name] {
			t.Errorf("%s: opened %d times with a cache, %d without", name, n, plain[name])
		}
	}
}

// Stat counting history.jsonl from a reader's held read (the app's
// History feed) answers as Stat reading the file: on the fixture home
// (a half-written last line, broken lines, pastes) and a generated one,
// with and without a cache, and with lines appended after the read.
func TestStatFromHeldHistorySameAnswer(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen")
	if err := genhome.Run(gen, "2M", "7"); err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join(t.TempDir(), "fixture")
	if err := os.CopyFS(fixture, os.DirFS("../../testdata/home")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{fixture, gen} {
		h := openHome(t, dir)
		var tail model.HistoryTail
		held, err := tail.Read(h.FS, model.HistoryPath)
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string) {
			t.Helper()
			want := statJSON(t, h, nil)
			for _, c := range []*diskcache.Store{nil, newCache(t)} {
				b, err := json.MarshalIndent(Stat(Options{Home: h, Cache: c, History: &held}), "", " ")
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != want {
					t.Errorf("%s, %s, cache %v: from the held read\n%s\nwant\n%s", dir, what, c != nil, b, want)
				}
			}
		}
		check("as read")
		f, err := os.OpenFile(filepath.Join(dir, "history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("\n" + `{"display":"later","pastedContents":{"1":{"id":1,"type":"text","contentHash":"0123456789abcdef"}},"timestamp":1760000000000,"project":"/p"}` + "\nnot json\n"); err != nil {
			t.Fatal(err)
		}
		f.Close()
		check("appended to")
	}
}
