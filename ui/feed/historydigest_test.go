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

// heldView is what the Overview's lines take from each held entry (the
// cleanup forecast, stat's counts): the prompt only for the first entry
// of a session (a lost session's first words).
func heldView(r *model.HistoryRead) []string {
	var out []string
	first := map[model.SessionID]bool{}
	for _, e := range r.Entries {
		display := ""
		if e.SessionID != "" && !first[e.SessionID] {
			first[e.SessionID], display = true, e.Display
		}
		var ps []string
		for _, p := range e.SortedPastes() {
			ps = append(ps, fmt.Sprint(p.ID, p.Inline, p.Hash))
		}
		out = append(out, fmt.Sprint(e.Line, e.Timestamp.Format(time.RFC3339Nano), e.Timestamp.Location(), e.Project, e.SessionID, display, ps))
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
	if n < size() || cold.History() == nil {
		t.Fatalf("the cold start read %d of %d bytes (history %v)", n, size(), cold.History() != nil)
	}
	want := heldView(cold.Held())

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
	for _, e := range warm.Held().Entries {
		for _, p := range e.PastedContents {
			if p.Content != "" {
				t.Errorf("the digest keeps a paste's content: %q", p.Content)
			}
		}
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
	whole, _ := digestStart(t, dir, nil)
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
