package feed

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/history"
)

// readCountFS counts the bytes read from history.jsonl.
type readCountFS struct {
	fs.FS
	n *atomic.Int64
}

func (c readCountFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil || name != model.HistoryPath {
		return f, err
	}
	return countedFile{f, c.n}, nil
}

type countedFile struct {
	fs.File
	n *atomic.Int64
}

func (f countedFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.n.Add(int64(n))
	return n, err
}

func (f countedFile) ReadAt(b []byte, off int64) (int, error) {
	ra, ok := f.File.(io.ReaderAt)
	if !ok {
		return 0, fmt.Errorf("no ReadAt")
	}
	n, err := ra.ReadAt(b, off)
	f.n.Add(int64(n))
	return n, err
}

// digestStart starts a feed on dir with cache, counting what it reads of
// history.jsonl, and settles its start (no pane that shows history
// shown).
func digestStart(t *testing.T, dir string, cache *diskcache.Store) (*History, int64) {
	t.Helper()
	home := testHome(t, dir)
	var n atomic.Int64
	home.FS = readCountFS{home.FS, &n}
	h := NewHistory(home, cache)
	settle(t, h, h.Init())
	return h, n.Load()
}

// heldView is what the Overview's lines take from the held history (the
// cleanup forecast, stat's counts): the sums of its entries
// (model.HistorySums; a whole read's entries summed), its problems and
// where the reads stopped.
func heldView(r *model.HistoryRead) []string {
	sums := r.Sums
	if sums == nil {
		sums = model.SumHistory(r.Entries)
	}
	when := func(t time.Time) string { return t.Format(time.RFC3339Nano) + " " + t.Location().String() }
	out := []string{fmt.Sprint(sums.Entries, sums.Unattributed, sums.Inline)}
	for _, s := range sums.Sessions {
		out = append(out, fmt.Sprint(s.ID, s.Project, s.Display, s.Line, when(s.First), when(s.Last), s.Prompts))
	}
	for _, p := range sums.Pastes {
		out = append(out, fmt.Sprint(p.Line, p.ID, p.Hash, p.Project, p.SessionID, when(p.Time)))
	}
	for _, p := range r.Problems {
		out = append(out, fmt.Sprint(p))
	}
	return append(out, fmt.Sprint(r.Tail.State.Offset, r.Tail.State.Lines))
}

// appendHistory appends lines to dir's history.jsonl.
func appendHistory(t *testing.T, dir string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, model.HistoryPath), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		fmt.Fprintln(f, l)
	}
	f.Close()
}

// A warm start with the digest kept reads none of an unchanged
// history.jsonl but its head (the stamp's check), only the appended
// lines of one that grew, and hands the Overview what a whole read
// would; the History pane's entries come from the whole file once a
// pane that shows them is shown. (On the old code every start read the
// whole file.)
func TestHistoryDigestWarmStart(t *testing.T) {
	dir, _ := pasteHome(t, 300)
	appendHistory(t, dir, `{"display":"inline [Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","content":"secret text"}},"timestamp":1763632900000,"project":"/w/other","sessionId":"t"}`, `not json`,
		`{"display":"zoned","timestamp":"2026-11-20T10:00:00.5+02:00","project":"/w/app","sessionId":"z"}`, `{"display":"no time","project":"/w/app"}`)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	size := func() int64 {
		st, err := os.Stat(filepath.Join(dir, model.HistoryPath))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}

	cold, n := digestStart(t, dir, cache)
	if n < size() || cold.History() != nil || !cold.Digested() {
		t.Fatalf("the cold start read %d of %d bytes (history %v, digested %v)", n, size(), cold.History() != nil, cold.Digested())
	}
	whole, _ := digestStart(t, dir, nil)
	want := heldView(whole.Held())
	if got := heldView(cold.Held()); !slices.Equal(got, want) {
		t.Errorf("the cold start's held history differs from a whole read's:\n got %q\nwant %q", got, want)
	}

	warm, n := digestStart(t, dir, cache)
	if n > model.TailHeadMax {
		t.Errorf("a warm start read %d bytes of an unchanged history.jsonl (%d), want at most its head (%d)", n, size(), model.TailHeadMax)
	}
	if warm.History() != nil || !warm.Digested() {
		t.Error("a warm start decoded the history the panes show before one of them was shown")
	}
	if got := heldView(warm.Held()); !slices.Equal(got, want) {
		t.Errorf("the warm start's held history differs from a whole read's:\n got %q\nwant %q", got[len(got)-3:], want[len(want)-3:])
	}

	// Showing the pane reads the whole file and gives the panes its
	// entries.
	hist, _ := settle(t, warm, warm.ShowPastes())
	if em, ok := hist.(history.EntriesMsg); !ok || len(em.Entries) != 302 || warm.History() == nil || warm.Digested() {
		t.Fatalf("the pane shown after a warm start: %T (history %v)", hist, warm.History() != nil)
	}

	// Grown: only the new lines are read.
	before := size()
	appendHistory(t, dir, `{"display":"later","pastedContents":{},"timestamp":1763633000000,"project":"/w/app","sessionId":"u"}`)
	grown, n := digestStart(t, dir, cache)
	whole, _ = digestStart(t, dir, nil)
	if n > model.TailHeadMax+(size()-before) {
		t.Errorf("a warm start after an append read %d bytes, want at most the head and the %d appended", n, size()-before)
	}
	if got, want := heldView(grown.Held()), heldView(whole.Held()); !slices.Equal(got, want) {
		t.Errorf("after an append the held history differs from a whole read's: %d vs %d lines", len(got), len(want))
	}
	again, n := digestStart(t, dir, cache)
	if n > model.TailHeadMax || !slices.Equal(heldView(again.Held()), heldView(whole.Held())) {
		t.Errorf("the start after the append's read %d bytes (the grown digest not kept?)", n)
	}
}

// A history.jsonl truncated, rewritten in place (same size) or replaced
// since the digest was kept is read whole: the held history is the new
// file's.
func TestHistoryDigestInvalidated(t *testing.T) {
	line := func(i int, session string) string {
		return fmt.Sprintf(`{"display":"prompt %03d","pastedContents":{},"timestamp":1763632800000,"project":"/w/app","sessionId":%q}`, i, session)
	}
	write := func(t *testing.T, dir string, session string, n int) {
		var s string
		for i := range n {
			s += line(i, session) + "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, model.HistoryPath), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
	}{
		{"truncated", func(t *testing.T, dir string) {
			if err := os.Truncate(filepath.Join(dir, model.HistoryPath), int64(len(line(0, "a"))+1)*3); err != nil {
				t.Fatal(err)
			}
		}},
		{"rewritten", func(t *testing.T, dir string) {
			f, err := os.OpenFile(filepath.Join(dir, model.HistoryPath), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			var s string
			for i := range 10 {
				s += line(i, "b") + "\n"
			}
			f.WriteAt([]byte(s), 0)
			f.Close()
		}},
		{"replaced", func(t *testing.T, dir string) {
			p := filepath.Join(dir, model.HistoryPath)
			tmp := p + ".new"
			var s string
			for i := range 12 {
				s += line(i, "c") + "\n"
			}
			os.WriteFile(tmp, []byte(s), 0o600)
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "a", 10)
			cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
			digestStart(t, dir, cache)
			tc.change(t, dir)
			got, _ := digestStart(t, dir, cache)
			whole, _ := digestStart(t, dir, nil)
			if g, w := heldView(got.Held()), heldView(whole.Held()); !slices.Equal(g, w) {
				t.Errorf("held after the file was %s:\n got %q\nwant %q", tc.name, g, w)
			}
			if got.Digested() {
				t.Errorf("the digest of the old file is still held after it was %s", tc.name)
			}
		})
	}
}

// historyFile writes n history lines to dir, spread over five sessions,
// each with a paste kept by hash when pasted.
func historyFile(t testing.TB, dir string, n int, pasted bool) {
	t.Helper()
	var b []byte
	for i := range n {
		paste := ""
		if pasted {
			paste = fmt.Sprintf(`"1":{"id":1,"type":"text","contentHash":"%016x"}`, i)
		}
		b = fmt.Appendf(b, `{"display":"prompt %d","pastedContents":{%s},"timestamp":%d,"project":"/w/app","sessionId":"s%d"}`+"\n", i, paste, 1763632800000+int64(i), i%5)
	}
	if err := os.WriteFile(filepath.Join(dir, model.HistoryPath), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A warm start's read of the digest allocates what its sessions cost,
// not its entries: 2 000 prompts with a paste each allocate as 200 do.
// (The digest of history-digest.2 unpacked every entry, and a map for
// each entry's pastes: 2 000 more allocations.)
func TestHistoryDigestReadAllocations(t *testing.T) {
	allocs := func(n int) float64 {
		dir := t.TempDir()
		historyFile(t, dir, n, true)
		cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
		if h, _ := digestStart(t, dir, cache); h.Held() == nil {
			t.Fatal("nothing held")
		}
		home := testHome(t, dir)
		return testing.AllocsPerRun(3, func() {
			h := NewHistory(home, cache)
			if msg, ok := h.Init()().(HistoryRead); !ok || !msg.digest {
				t.Fatalf("the warm start did not read the digest: %#v", msg)
			}
		})
	}
	small, big := allocs(200), allocs(2000)
	if big > small+100 {
		t.Errorf("reading the digest of 2000 prompts allocated %.0f times, of 200 prompts %.0f: it grows with the entries", big, small)
	}
}

// A cold start (no digest kept) reads history.jsonl for the Overview's
// sums alone: prompts without pastes allocate nothing each (no entry
// kept, no prompt made past a session's first). (A cold start read the
// whole file for the History pane: each entry's prompt, the entries,
// and their index by project.)
func TestHistoryColdStartAllocations(t *testing.T) {
	allocs := func(n int) float64 {
		dir := t.TempDir()
		historyFile(t, dir, n, false)
		home := testHome(t, dir)
		caches := t.TempDir()
		i := 0
		return testing.AllocsPerRun(3, func() {
			i++
			cache := diskcache.New(filepath.Join(caches, fmt.Sprint(i)), testroot.New(t), model.OSWriteFS{})
			h := NewHistory(home, cache)
			if _, ok := h.Init()().(HistoryRead); !ok {
				t.Fatal("no read")
			}
		})
	}
	small, big := allocs(200), allocs(2000)
	if big > small+100 {
		t.Errorf("a cold start over 2000 prompts allocated %.0f times, over 200 %.0f: it grows with the entries", big, small)
	}
}

// Lines appended while the feed holds the digest (a cold or warm start,
// no pane that shows history shown) are added to its sums: Held is then
// what a whole read holds, and the sums an earlier Held gave a reader do
// not change under it.
func TestHistoryDigestAppendedInRun(t *testing.T) {
	dir := t.TempDir()
	historyFile(t, dir, 40, true)
	cache := diskcache.New(filepath.Join(t.TempDir(), "cache"), testroot.New(t), model.OSWriteFS{})
	h, _ := digestStart(t, dir, cache)
	if !h.Digested() {
		t.Fatal("the cold start holds no digest")
	}
	before := h.Held()
	was := heldView(before)
	appendHistory(t, dir, `{"display":"new session","pastedContents":{"1":{"id":1,"type":"text","contentHash":"feedfeedfeedfeed"}},"timestamp":1763640000000,"project":"/w/new","sessionId":"n"}`,
		`{"display":"again","pastedContents":{},"timestamp":1763630000000,"project":"/w/app","sessionId":"s1"}`, `{"display":"nobody","timestamp":1763640000001}`)
	settle(t, h, h.Changed(map[string]bool{model.HistoryPath: true}))
	whole, _ := digestStart(t, dir, nil)
	if got, want := heldView(h.Held()), heldView(whole.Held()); !slices.Equal(got, want) {
		t.Errorf("after lines appended in the run the held sums differ from a whole read's:\n got %q\nwant %q", got, want)
	}
	if !slices.Equal(heldView(before), was) {
		t.Error("the sums handed out before the append changed")
	}
}

// The digest's packing gives back the sums it packed, times in any zone,
// before 1970 or past what UnixNano holds and negative paste ids
// included; a digest cut short or with counts it does not hold does not
// decode.
func TestHistoryDigestPacking(t *testing.T) {
	zone := time.FixedZone("", 2*3600)
	sums := &model.HistorySums{Entries: 7, Unattributed: 2, Inline: 3,
		Sessions: []model.HistorySession{
			{ID: "a", Project: "/w/app", Display: "first é", Line: 1, First: time.Unix(-5, 7).UTC(), Last: time.Unix(100, 0).UTC(), Prompts: 3},
			{ID: "b", Project: "/w/app", Line: 4, First: time.Date(2026, 11, 20, 10, 0, 0, 0, zone), Last: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), Prompts: 2},
			{ID: "c", Project: "p"},
		},
		Pastes: []model.HistoryPasteRef{
			{Line: 1, ID: -3, Hash: "abc", Project: "/w/app", SessionID: "a", Time: time.Unix(-5, 7).UTC()},
			{Line: 4, ID: 2, Hash: "abc", Project: "/w/app", SessionID: "b", Time: time.Date(2026, 11, 20, 10, 0, 0, 0, zone)},
			{Line: 6, ID: 1 << 40, Hash: "def"},
		}}
	state := model.TailState{Offset: 99, Lines: 7}
	d := packDigest(state, sums, nil)
	got, ok := d.sums()
	if !ok {
		t.Fatal("the digest does not decode")
	}
	view := func(s *model.HistorySums) []string {
		return heldView(&model.HistoryRead{Sums: s, Tail: model.TailResult{State: state}})
	}
	if g, w := view(got), view(sums); !slices.Equal(g, w) {
		t.Errorf("unpacked:\n got %q\nwant %q", g, w)
	}
	cut := d
	cut.Packed = d.Packed[:len(d.Packed)-1]
	if _, ok := cut.sums(); ok {
		t.Error("a digest cut short decodes")
	}
	more := d
	more.Pastes++
	if _, ok := more.sums(); ok {
		t.Error("a digest counting a paste it does not hold decodes")
	}
	huge := d
	huge.Sessions = 1 << 40
	if _, ok := huge.sums(); ok {
		t.Error("a digest counting 2^40 sessions decodes")
	}
}
