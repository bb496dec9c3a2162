package inventory

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/model"
)

// gobTrip is v after encoding/gob wrote and read it.
func gobTrip[T any](t *testing.T, v T) T {
	t.Helper()
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		t.Fatal(err)
	}
	var out T
	if err := gob.NewDecoder(&b).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// packTrip is c after Pack and Unpack.
func packTrip(t *testing.T, c statCache) statCache {
	t.Helper()
	var out statCache
	if err := out.Unpack(c.Pack()); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStatCacheUnpackKeepsItsForm: unpacking the cache allocates what it
// decodes (the verdicts' slice), not a copy of the form for its strings
// (1.4 MB on W at each warm start).
func TestStatCacheUnpackKeepsItsForm(t *testing.T) {
	var c statCache
	for i := range 2000 {
		c.Pastes = append(c.Pastes, model.PasteVerdict{Path: fmt.Sprintf("paste-cache/%016x.txt%s", i, strings.Repeat("x", 200)),
			Stamp: model.FileStamp{Size: int64(i), ChangeTime: 1, ID: model.FileID{Ino: uint64(i), Known: true}}, Status: model.PasteOK})
	}
	form := c.Pack()
	decoded := uint64(len(c.Pastes)) * uint64(reflect.TypeFor[model.PasteVerdict]().Size())
	least := ^uint64(0)
	for range 3 {
		b := bytes.Clone(form)
		var got statCache
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err := got.Unpack(b)
		runtime.ReadMemStats(&m1)
		if err != nil || len(got.Pastes) != len(c.Pastes) || got.Pastes[7].Path != c.Pastes[7].Path {
			t.Fatalf("unpacked %d verdicts (%v)", len(got.Pastes), err)
		}
		least = min(least, m1.TotalAlloc-m0.TotalAlloc)
	}
	if least > decoded+decoded/8 {
		t.Errorf("unpacking a %d-byte form into %d bytes of verdicts allocated %d bytes", len(form), decoded, least)
	}
}

// refusesDamage: every cut of c's packed form is refused, and every
// changed byte either decodes to a value or is refused: never a panic.
func refusesDamage(t *testing.T, c statCache) {
	t.Helper()
	form := c.Pack()
	for n := range len(form) {
		var v statCache
		if v.Unpack(form[:n]) == nil {
			t.Errorf("a form cut at %d of %d bytes decoded", n, len(form))
		}
		d := bytes.Clone(form)
		d[n] ^= 0xff
		_ = v.Unpack(d)
	}
}

// TestKeptPackRoundTrip: the packed verdicts and folder read back as
// encoding/gob's own form of the same values did (nil and empty alike,
// every field, a head hash, strings that are not ASCII, a time with a
// zone), and damage to a packed form is refused, never a wrong value.
func TestKeptPackRoundTrip(t *testing.T) {
	zone := time.FixedZone("", 3600)
	var head [32]byte
	for i := range head {
		head[i] = byte(i * 7)
	}
	verdicts := []model.PasteVerdict{
		{Path: "paste-cache/0123456789abcdef.txt", Stamp: model.FileStamp{Size: 12, ModTime: 1787572834000000001, ChangeTime: -5,
			ID: model.FileID{Dev: 2049, Ino: 1 << 40, Known: true}}, Status: model.PasteOK, Verified: true, Actual: "0123456789abcdef"},
		{Path: "pastes/ü.txt", Stamp: model.FileStamp{Size: 1 << 33, Head: head, HeadLen: 4096}, Status: model.PasteUnreadable, Reason: "open: permission denied ✗"},
		{},
	}
	folders := []*model.PasteFolder{
		{ID: model.FileID{Dev: 1, Ino: 2, Known: true}, ModTime: 99, Full: time.Date(2026, 11, 30, 13, 0, 0, 5, zone),
			Files: []model.PasteFolderFile{{Name: "a.txt", Size: 3, ModTime: 4, ChangeTime: 5, Dev: 6, Ino: 7}, {Name: "é.txt", Size: -1}}},
		{Full: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		{},
	}
	for _, c := range []struct {
		name string
		v    []model.PasteVerdict
		f    *model.PasteFolder
	}{{"all", verdicts, folders[0]}, {"one", verdicts[1:2], folders[1]}, {"empty", []model.PasteVerdict{}, folders[2]}, {"nil", nil, nil}} {
		got := packTrip(t, statCache{Pastes: c.v, PasteFolder: keep(c.f)})
		want := gobTrip(t, struct {
			Pastes      []model.PasteVerdict
			PasteFolder *model.PasteFolder
		}{c.v, c.f})
		if !reflect.DeepEqual([]model.PasteVerdict(got.Pastes), want.Pastes) {
			t.Errorf("%s: verdicts %+v, gob's own form %+v", c.name, got.Pastes, want.Pastes)
		}
		if !reflect.DeepEqual(got.PasteFolder.folder(), want.PasteFolder) {
			t.Errorf("%s: folder %+v, gob's own form %+v", c.name, got.PasteFolder.folder(), want.PasteFolder)
		}
	}

	refusesDamage(t, statCache{Pastes: verdicts, PasteFolder: keep(folders[0])})
}

// TestStatCachePastesDecodeInFewAllocations: a warm stat decodes the
// verdicts of a home's pastes without allocating for each (one string
// holds every path and hash). encoding/gob's own form made a path, a
// hash and a stamp's bytes for each: 500 pastes cost over 1 500
// allocations.
func TestStatCachePastesDecodeInFewAllocations(t *testing.T) {
	dir := t.TempDir()
	const n = 2000
	if err := os.MkdirAll(filepath.Join(dir, model.PasteCacheDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := filepath.Join(dir, model.PasteCacheDir, fmt.Sprintf("%016x.txt", i))
		if err := os.WriteFile(name, fmt.Appendf(nil, "paste %d", i), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The history that refers to them is held (as the app holds it), so
	// the cache keeps no counts of it.
	var hist []byte
	for i := range n {
		hist = fmt.Appendf(hist, `{"display":"[Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"%016x"}},"timestamp":%d,"project":"/w/p","sessionId":"s%d"}`+"\n", i, 1787572834000+i, i%7)
	}
	if err := os.WriteFile(filepath.Join(dir, model.HistoryPath), hist, 0o600); err != nil {
		t.Fatal(err)
	}
	h := openHome(t, dir)
	read, err := (&model.HistoryTail{}).Read(h.FS, model.HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	c := newCache(t)
	Stat(Options{Home: h, Cache: c, History: &read})
	name := diskcache.Name(cacheKind, h.Dir)
	sc, ok := diskcache.Load[statCache](c, cacheKind, name)
	if !ok || len(sc.Pastes) != n {
		t.Fatalf("the cache kept %d verdicts (ok %v), want %d", len(sc.Pastes), ok, n)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if _, ok := diskcache.Load[statCache](c, cacheKind, name); !ok {
			t.Fatal("the cache did not load")
		}
	})
	// The cache is packed whole (stat.5): no gob decoder to learn the
	// cache's types again at each Load (some 630 allocations), nor a
	// copy of each packed part; stat.4 allocated 526 times here.
	t.Logf("decoding %d verdicts allocated %.0f times", n, allocs)
	if allocs > 30 {
		t.Errorf("decoding %d verdicts allocated %.0f times, want 30 at most", n, allocs)
	}
}

// TestStatCacheOfTheOldFormIsComputedAgain: a cache whose verdicts are
// in encoding/gob's own form (stat.3's) does not decode as this one: the
// run answers as without a cache and writes its own, which the next run
// reads.
func TestStatCacheOfTheOldFormIsComputedAgain(t *testing.T) {
	h := openHome(t, "../../testdata/home")
	want := statJSON(t, h, nil)
	c := newCache(t)
	name := diskcache.Name(cacheKind, h.Dir)
	old := struct {
		Pastes []model.PasteVerdict
	}{[]model.PasteVerdict{{Path: "paste-cache/x.txt", Status: model.PasteHashMismatch}}}
	if err := diskcache.Save(c, cacheKind, name, old); err != nil {
		t.Fatal(err)
	}
	if _, ok := diskcache.Load[statCache](c, cacheKind, name); ok {
		t.Fatal("the old form decoded as the new")
	}
	if got := statJSON(t, h, c); got != want {
		t.Errorf("run over the old cache:\n%s\nwant\n%s", got, want)
	}
	if _, ok := diskcache.Load[statCache](c, cacheKind, name); !ok {
		t.Error("the run did not write a cache of the new form")
	}
	if got := statJSON(t, h, c); got != want {
		t.Errorf("run from the new cache:\n%s\nwant\n%s", got, want)
	}
}

// TestWarmStatMakesNoVerdictsToKeep: a stat that writes no cache (the
// home unchanged) does not make the list of verdicts to keep (every
// paste's, sorted by path: a tenth of a warm stat on W); one that
// writes makes it once, and what it writes is what the next run reads.
func TestWarmStatMakesNoVerdictsToKeep(t *testing.T) {
	made := 0
	saved := savedVerdicts
	savedVerdicts = func(v *model.PasteVerdicts) []model.PasteVerdict { made++; return saved(v) }
	t.Cleanup(func() { savedVerdicts = saved })
	h := openHome(t, "../../testdata/home")
	want := statJSON(t, h, nil)
	c := newCache(t)
	for run, wantMade := range []int{1, 0, 0} {
		made = 0
		if got := statJSON(t, h, c); got != want {
			t.Errorf("run %d:\n%s\nwant\n%s", run, got, want)
		}
		if made != wantMade {
			t.Errorf("run %d made the verdicts to keep %d times, want %d", run, made, wantMade)
		}
	}
	if sc, _ := diskcache.Load[statCache](c, cacheKind, diskcache.Name(cacheKind, h.Dir)); len(sc.Pastes) == 0 {
		t.Error("no verdicts kept")
	}
}

// TestKeptTranscriptsRoundTrip: the packed summaries read back as gob's
// own form of the same entries did: maps nil or empty as they were, every
// field, times in UTC, in a zone and zero, problems or none.
func TestKeptTranscriptsRoundTrip(t *testing.T) {
	var head [32]byte
	head[3] = 9
	full := model.TranscriptSummary{Path: "projects/p/s.jsonl", SessionID: "s", CWD: "/home/ü", Bytes: 1 << 35, Lines: 7, BlankLines: 1, Records: 5,
		Types: map[string]int{"user": 2, "assistant": 3}, Subtypes: map[string]int{}, CompactBoundaries: 1, MicrocompactBoundaries: 2,
		Usage: model.Usage{InputTokens: 1, OutputTokens: -2, CacheCreationInputTokens: 3, CacheReadInputTokens: 1 << 40}, Responses: 4,
		First: time.Date(2026, 11, 30, 1, 2, 3, 4, time.UTC), Last: time.Date(2026, 11, 30, 1, 2, 3, 4, time.FixedZone("", -7200)),
		Problems: []model.Problem{{File: "projects/p/s.jsonl", Line: 3, Kind: model.ProblemMalformed, Reason: "bad ✗"}, {}}}
	for _, c := range []struct {
		name string
		m    map[string]cachedTranscript
	}{
		{"all", map[string]cachedTranscript{
			"projects/p/s.jsonl": {Stamp: model.FileStamp{Size: 10, ModTime: 11, ChangeTime: 12, ID: model.FileID{Dev: 1, Ino: 2, Known: true}, Head: head, HeadLen: 10}, Value: full, Settled: true},
			"projects/p/t.jsonl": {},
		}},
		{"empty", map[string]cachedTranscript{}},
		{"nil", nil},
	} {
		got := packTrip(t, statCache{Transcripts: c.m})
		want := gobTrip(t, struct{ Transcripts map[string]cachedTranscript }{c.m})
		if !reflect.DeepEqual(map[string]cachedTranscript(got.Transcripts), want.Transcripts) {
			t.Errorf("%s: summaries\n%#v\ngob's own form\n%#v", c.name, got.Transcripts, want.Transcripts)
		}
	}
	refusesDamage(t, statCache{Transcripts: keptTranscripts{"a": {Value: full}}})
}

// TestStatCachePackRoundTrip: the history's counts and the memory
// folders read back as encoding/gob's own form of the same values did
// (none, empty and full; every field), and damage is refused.
func TestStatCachePackRoundTrip(t *testing.T) {
	var head, print [32]byte
	for i := range head {
		head[i], print[i] = byte(i*5+1), byte(255-i)
	}
	hist := &cachedHistory{
		Stamp: model.FileStamp{Size: 99, ModTime: 1787572834000000001, ChangeTime: 3, ID: model.FileID{Dev: 7, Ino: 1 << 50, Known: true}, Head: head, HeadLen: 99},
		Tail: model.TailState{Offset: 90, Lines: 4, Size: 99, ModTime: time.Date(2026, 11, 30, 15, 0, 0, 7, time.FixedZone("", 5400)),
			ID: model.FileID{Dev: 7, Ino: 8, Known: true}, Head: head, HeadLen: 90, Skip: 1 << 33},
		Entries: 3, Problems: []model.Problem{{File: "history.jsonl", Line: 2, Kind: model.ProblemMalformed, Reason: "bad ✗"}},
		Refs: map[model.PasteHash]int{"0123456789abcdef": 2, "ü": -1}, Inline: 5,
	}
	mem := map[string]cachedMemory{
		"projects/-w-p/memory": {Print: print, Exists: true, Files: 3, Invalid: 1, Team: 2, IndexFiles: 1, IndexLines: 40, IndexEntries: 12,
			Problems: []model.Problem{{File: "projects/-w-p/memory/MEMORY.md", Kind: model.ProblemUnreadable, Reason: "denied"}, {}}},
		"projects/-w-q/memory": {},
	}
	for _, c := range []struct {
		name string
		h    *cachedHistory
		m    map[string]cachedMemory
	}{
		{"all", hist, mem},
		{"empty", &cachedHistory{Refs: map[model.PasteHash]int{}, Problems: []model.Problem{}}, map[string]cachedMemory{}},
		{"nil", nil, nil},
	} {
		got := packTrip(t, statCache{History: c.h, Memory: c.m})
		want := gobTrip(t, struct {
			History *cachedHistory
			Memory  map[string]cachedMemory
		}{c.h, c.m})
		if !reflect.DeepEqual(got.History, want.History) {
			t.Errorf("%s: history\n%#v\ngob's own form\n%#v", c.name, got.History, want.History)
		}
		if !reflect.DeepEqual(got.Memory, want.Memory) {
			t.Errorf("%s: memory\n%#v\ngob's own form\n%#v", c.name, got.Memory, want.Memory)
		}
	}
	refusesDamage(t, statCache{History: hist, Memory: mem})
}

// TestKeptPackFields: the packed forms write every field of the types
// they pack. A field added to one of them fails this until it is packed
// too (cache_pack.go) and the cache's kind bumped.
func TestKeptPackFields(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{model.TranscriptSummary{}, "Path SessionID CWD Bytes Lines BlankLines Records Types Subtypes CompactBoundaries MicrocompactBoundaries Usage Responses First Last Problems"},
		{model.Usage{}, "InputTokens OutputTokens CacheCreationInputTokens CacheReadInputTokens"},
		{model.Problem{}, "File Line Kind Reason"},
		{cachedTranscript{}, "Stamp Value Settled"},
		{model.FileStamp{}, "Size ModTime ChangeTime ID Head HeadLen"},
		{model.FileID{}, "Dev Ino Known"},
		{model.PasteVerdict{}, "Path Stamp Status Verified Actual Reason"},
		{model.PasteFolder{}, "ID ModTime Full Files"},
		{model.PasteFolderFile{}, "Name Size ModTime ChangeTime Dev Ino"},
		{statCache{}, "Transcripts History Pastes PasteFolder Memory"},
		{cachedHistory{}, "Stamp Tail Entries Problems Refs Inline"},
		{model.TailState{}, "Offset Lines Size ModTime ID Head HeadLen Skip"},
		{cachedMemory{}, "Print Exists Files Invalid Team IndexFiles IndexLines IndexEntries Problems"},
	} {
		ty := reflect.TypeOf(c.v)
		var names []string
		for i := range ty.NumField() {
			names = append(names, ty.Field(i).Name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("%s has the fields %s; cache_pack.go packs %s", ty, got, c.want)
		}
	}
}
