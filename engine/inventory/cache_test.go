package inventory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// newCache is a cache in a temporary folder, read through a root that
// shows only the test's folders.
func newCache(t *testing.T) *diskcache.Store {
	t.Helper()
	return diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
}

// statJSON is the report as stat --json prints it.
func statJSON(t *testing.T, h *model.Home, c *diskcache.Store) string {
	t.Helper()
	b, err := json.MarshalIndent(Stat(Options{Home: h, Cache: c}), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tamper rewrites the home's cache through edit, so a test can tell
// whether the next run answered from it.
func tamper(t *testing.T, c *diskcache.Store, h *model.Home, edit func(*statCache)) {
	t.Helper()
	sc, ok := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir))
	if !ok {
		t.Fatal("no cache was written")
	}
	edit(&sc)
	if err := diskcache.Save(c, cacheKind, diskcache.Name(cacheKind, h.Dir), sc); err != nil {
		t.Fatal(err)
	}
}

func openHome(t *testing.T, dir string) *model.Home {
	t.Helper()
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The cache never changes the answer: on the fixture home (broken lines,
// a partial history tail, a symlink loop, pastes missing and mismatched)
// and on a generated one, a first run with a cache, a second run from
// it and a run without one print the same report.
func TestStatCacheSameAnswer(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen")
	if err := genhome.Run(gen, "2M", "7"); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"../../testdata/home", gen} {
		h := openHome(t, dir)
		want := statJSON(t, h, nil)
		c := newCache(t)
		if got := statJSON(t, h, c); got != want {
			t.Errorf("%s: first run with a cache differs:\n%s\nwant\n%s", dir, got, want)
		}
		if got := statJSON(t, h, c); got != want {
			t.Errorf("%s: run from the cache differs:\n%s\nwant\n%s", dir, got, want)
		}
		sc, _ := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir))
		if len(sc.Transcripts) == 0 || sc.History == nil {
			t.Errorf("%s: the cache kept %d transcripts, history %v", dir, len(sc.Transcripts), sc.History != nil)
		}
		if dir == gen && (len(sc.Pastes) == 0 || len(sc.Memory) == 0) {
			t.Errorf("generated home: the cache kept %d paste verdicts and %d memory folders", len(sc.Pastes), len(sc.Memory))
		}
	}
}

// A transcript rewritten to the same size with the same mtime but other
// first bytes is read again: the cached summary (made recognisable here)
// is not used. In memory there is no inode nor change time, so the head
// hash is what tells.
func TestStatCacheStaleHead(t *testing.T) {
	const p = "projects/-home-me-app/11111111-2222-4333-8444-555555555555.jsonl"
	mtime := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	line := func(typ string) string {
		return `{"type":"` + typ + `","uuid":"u1","sessionId":"11111111-2222-4333-8444-555555555555","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"hi"}}` + "\n"
	}
	fsys := fstest.MapFS{p: {Data: []byte(line("user")), ModTime: mtime}}
	h := &model.Home{Dir: "/h", FS: fsys, Source: model.HomeFromFlag}
	c := newCache(t)
	Stat(Options{Home: h, Cache: c})
	tamper(t, c, h, func(sc *statCache) {
		e := sc.Transcripts[p]
		e.Value.Records += 1000
		sc.Transcripts[p] = e
	})
	if got := Stat(Options{Home: h, Cache: c}).Records; got != 1001 {
		t.Fatalf("unchanged file: %d records, want the cached (tampered) 1001: the cache was not used", got)
	}
	// Same length ("user" → "xxxx"), same mtime, other head.
	fsys[p] = &fstest.MapFile{Data: []byte(line("xxxx")), ModTime: mtime}
	r := Stat(Options{Home: h, Cache: c})
	if r.Records != 1 || r.RecordTypes["xxxx"] != 1 {
		t.Errorf("rewritten file: %d records, types %v; want 1 record of type xxxx (the stale entry was used)", r.Records, r.RecordTypes)
	}
}

// On disk, a transcript rewritten in place to the same size with its
// mtime put back, a memory file rewritten the same way and a paste file
// changed are read again.
func TestStatCacheStaleOnDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	if err := genhome.Run(dir, "1M", "3"); err != nil {
		t.Fatal(err)
	}
	h := openHome(t, dir)
	c := newCache(t)
	want := statJSON(t, h, c)
	sc, _ := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir))
	var tp, mem string
	for k := range sc.Transcripts {
		tp = k
		break
	}
	for k := range sc.Memory {
		mem = k
		break
	}
	if tp == "" || mem == "" || len(sc.Pastes) == 0 {
		t.Fatalf("nothing cached: %d transcripts, %d memory folders, %d pastes", len(sc.Transcripts), len(sc.Memory), len(sc.Pastes))
	}
	paste := sc.Pastes[0].Path
	tamper(t, c, h, func(sc *statCache) {
		e := sc.Transcripts[tp]
		e.Value.Records += 1000
		sc.Transcripts[tp] = e
		m := sc.Memory[mem]
		m.Files += 1000
		sc.Memory[mem] = m
		sc.Pastes[0].Status = model.PasteHashMismatch
	})
	tampered := Stat(Options{Home: h, Cache: c})
	var base Report
	json.Unmarshal([]byte(want), &base)
	if tampered.Records != base.Records+1000 || tampered.MemoryFiles != base.MemoryFiles+1000 || tampered.Pastes.HashMismatch != base.Pastes.HashMismatch+1 {
		t.Fatalf("the cache was not used: records %d (true %d), memory files %d (true %d), mismatched pastes %d (true %d)",
			tampered.Records, base.Records, tampered.MemoryFiles, base.MemoryFiles, tampered.Pastes.HashMismatch, base.Pastes.HashMismatch)
	}
	// The run from the tampered cache kept its entries (the files had not
	// changed): now they change.
	rewrite := func(rel string) {
		full := filepath.Join(dir, filepath.FromSlash(rel))
		info, err := os.Stat(full)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(full)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(full, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Same bytes, same size: only the change time tells.
		if _, err := f.WriteAt(data, 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		os.Chtimes(full, info.ModTime(), info.ModTime())
	}
	entries, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(mem)))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") && e.Name() != "MEMORY.md" {
			rewrite(mem + "/" + e.Name())
			break
		}
	}
	rewrite(tp)
	rewrite(paste)
	if got := statJSON(t, h, c); got != want {
		t.Errorf("after the files were rewritten, the stale entries were used:\n%s\nwant\n%s", got, want)
	}
}

// history.jsonl is read from where the last run stopped: lines appended
// (a partial last line included, then completed), and a file rewritten,
// give what a whole read gives.
func TestStatCacheHistoryAppend(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	if err := genhome.Run(dir, "1M", "5"); err != nil {
		t.Fatal(err)
	}
	h := openHome(t, dir)
	hp := filepath.Join(dir, "history.jsonl")
	c := newCache(t)
	statJSON(t, h, c)
	appendTo := func(s string) {
		f, err := os.OpenFile(hp, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	entry := `{"display":"more [Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"0123456789abcdef"}},"timestamp":1763632800000,"project":"/home/dev/x","sessionId":"s1"}`
	steps := []struct {
		name string
		do   func()
	}{
		{"a line appended", func() { appendTo(entry + "\n") }},
		{"a partial line", func() { appendTo(entry[:40]) }},
		{"the partial line completed", func() { appendTo(entry[40:] + "\n") }},
		{"a broken line", func() { appendTo("{not json\n") }},
		{"rewritten shorter", func() { os.WriteFile(hp, []byte(entry+"\n"), 0o600) }},
	}
	for _, s := range steps {
		s.do()
		want := statJSON(t, h, nil)
		if got := statJSON(t, h, c); got != want {
			t.Errorf("%s: from the cache\n%s\nwant\n%s", s.name, got, want)
		}
	}
}

// A cache file that is torn, corrupted, empty or not a cache at all is
// ignored (the answer is right) and written again.
func TestStatCacheCorrupt(t *testing.T) {
	h := openHome(t, "../../testdata/home")
	want := statJSON(t, h, nil)
	for name, spoil := range map[string]func([]byte) []byte{
		"torn":      func(b []byte) []byte { return b[:len(b)/2] },
		"flipped":   func(b []byte) []byte { b[len(b)-3] ^= 0x40; return b },
		"empty":     func([]byte) []byte { return nil },
		"garbage":   func([]byte) []byte { return []byte("memscope cache 1\nnot really\n") },
		"truncated": func(b []byte) []byte { return b[:20] },
	} {
		t.Run(name, func(t *testing.T) {
			c := newCache(t)
			statJSON(t, h, c)
			file := filepath.Join(c.Dir(), diskcache.Name(cacheKind, h.Dir))
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, spoil(data), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, ok := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir)); ok {
				t.Fatal("the spoiled cache still loads")
			}
			if got := statJSON(t, h, c); got != want {
				t.Errorf("with a %s cache:\n%s\nwant\n%s", name, got, want)
			}
			if _, ok := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir)); !ok {
				t.Error("the cache was not written again")
			}
		})
	}
	// Deleted between runs: rebuilt.
	c := newCache(t)
	statJSON(t, h, c)
	os.RemoveAll(c.Dir())
	if got := statJSON(t, h, c); got != want {
		t.Errorf("with the cache folder deleted:\n%s\nwant\n%s", got, want)
	}
	if _, ok := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir)); !ok {
		t.Error("the deleted cache was not written again")
	}
}
