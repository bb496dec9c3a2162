package model

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"testing/fstest"
	"time"
)

// sumsView prints sums with every time's location.
func sumsView(s *HistorySums, probs []Problem) string {
	when := func(t time.Time) string { return t.Format(time.RFC3339Nano) + " " + t.Location().String() }
	b := fmt.Appendf(nil, "%d %d %d\n", s.Entries, s.Unattributed, s.Inline)
	for _, x := range s.Sessions {
		b = fmt.Appendf(b, "%q %q %q %d %s %s %d\n", x.ID, x.Project, x.Display, x.Line, when(x.First), when(x.Last), x.Prompts)
	}
	for _, p := range s.Pastes {
		b = fmt.Appendf(b, "%d %d %q %q %q %s\n", p.Line, p.ID, p.Hash, p.Project, p.SessionID, when(p.Time))
	}
	return fmt.Sprintf("%s%+v", b, probs)
}

// readSums reads history.jsonl of fsys whole, with HistoryTail.Sums or
// summing a whole read's entries.
func readSums(t *testing.T, fsys fstest.MapFS, sums bool) string {
	t.Helper()
	tail := &HistoryTail{Sums: sums}
	r, err := tail.Read(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	if !sums {
		if r.Sums != nil {
			t.Fatal("a read without Sums gave sums")
		}
		r.Sums = SumHistory(r.Entries)
	} else if len(r.Entries) != 0 {
		t.Fatalf("a read with Sums kept %d entries", len(r.Entries))
	}
	return sumsView(r.Sums, r.Problems) + fmt.Sprint(tail.State)
}

// FuzzHistorySums holds HistoryTail.Sums to the whole read: any history
// sums to what its entries sum to (SumHistory), with the same problems
// and the same place to go on from, though the summing read makes a
// prompt only for each session's first entry and no paste's content.
func FuzzHistorySums(f *testing.F) {
	f.Add([]byte(`{"display":"[Pasted text #1 +39 lines] x","pastedContents":{"2":{"id":2,"type":"text","contentHash":"b"},"1":{"id":1,"type":"text","contentHash":"6726f7554468d737"}},"timestamp":1795345790406,"project":"/home/me/app","sessionId":"s"}` + "\n" +
		`{"display":"second","timestamp":1795345790000,"project":"/other","sessionId":"s"}` + "\n"))
	f.Add([]byte(`{"display":"a\nb \u00e9","pastedContents":{"1":{"id":1,"type":"text","content":"x\ty"}},"timestamp":1795345790406,"project":"/p"}` + "\n" + `{"prompt":"old","projectName":"p","timestamp":"2025-01-01T00:00:00Z","sessionId":"o"}` + "\n"))
	f.Add([]byte(`{"display":"x","prompt":"y","timestamp":"2025-01-01T01:00:00+02:00","sessionId":"z"}` + "\n" + `{"prompt":"y","display":"x","timestamp":1,"sessionId":"w"}` + "\n" + `{"display":"x","timestamp":"2025-01-01T00:00:00+01:00","sessionId":"z"}` + "\n"))
	f.Add([]byte(`{"display":"\x","timestamp":1,"sessionId":"q"}` + "\n" + "{\"display\":\"\xff\",\"timestamp\":1,\"sessionId\":\"q\"}\n" + `{"display":"ok","sessionId":null,"timestamp":1}` + "\n" + `{"display":"cut`))
	f.Add([]byte(`{"display":"x","pastedContent":[{"type":"text","contentHash":"a"},{"contentHash":"b"}],"timestamp":1,"sessionId":"p"}` + "\n\n  \n" + `{"Display":"x","timestamp":1,"sessionId":"p"}` + "\n" + `{"display":"late","sessionId":"p"}` + "\n"))
	f.Add([]byte(historyLines(rand.New(rand.NewPCG(5, 6)), 0, 200)))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{HistoryPath: {Data: data}}
		whole, summed := readSums(t, fsys, false), readSums(t, fsys, true)
		if whole != summed {
			t.Fatalf("a summing read differs:\nsums  %s\nwhole %s", summed, whole)
		}
	})
}

// Sums added in two runs (a digest, then what was appended) are the sums
// of the whole run; a Clone added to leaves the original as it was.
func TestHistorySumsAddInParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	fsys := fstest.MapFS{HistoryPath: {Data: []byte(historyLines(rng, 0, 400))}}
	var tail HistoryTail
	r, err := tail.Read(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	whole := sumsView(SumHistory(r.Entries), nil)
	for _, cut := range []int{0, 1, 150, len(r.Entries)} {
		s := SumHistory(r.Entries[:cut])
		before := sumsView(s, nil)
		c := s.Clone()
		c.Add(r.Entries[cut:])
		if got := sumsView(c, nil); got != whole {
			t.Errorf("summed in two at %d:\n%s\nwant\n%s", cut, got, whole)
		}
		if got := sumsView(s, nil); got != before {
			t.Errorf("adding to a clone changed the sums it was cloned from (cut %d)", cut)
		}
	}
}

// A summing read of lines without pastes allocates the same whatever
// their number: no entry is kept and no prompt made past each session's
// first (a whole read allocates each entry's prompt, and the entries).
func TestHistorySumsReadAllocations(t *testing.T) {
	file := func(n int) fstest.MapFS {
		var b []byte
		for i := range n {
			b = fmt.Appendf(b, `{"display":"prompt number %d","pastedContents":{},"timestamp":%d,"project":"/home/me/p%d","sessionId":"s%d"}`+"\n", i, 1795340000000+int64(i), i%3, i%4)
		}
		return fstest.MapFS{HistoryPath: {Data: b}}
	}
	small, big := sumsReadAllocs(t, file(200)), sumsReadAllocs(t, file(4000))
	if big > small+20 {
		t.Errorf("a summing read of 4000 lines allocated %.0f times, of 200 lines %.0f: it grows with the entries", big, small)
	}
}

// A summing read allocates one string per paste kept by hash (its hash)
// and nothing more per line: a paste's type is one of the client's kinds
// without a string made for it (on the old decoder, two per paste).
func TestHistorySumsReadPasteAllocations(t *testing.T) {
	file := func(n int) fstest.MapFS {
		var b []byte
		for i := range n {
			b = fmt.Appendf(b, `{"display":"[Pasted text #1] %d","pastedContents":{"1":{"id":1,"type":"text","contentHash":"%016x"}},"timestamp":%d,"project":"/home/me/p","sessionId":"s%d"}`+"\n", i, i, 1795340000000+int64(i), i%4)
		}
		return fstest.MapFS{HistoryPath: {Data: b}}
	}
	small, big := sumsReadAllocs(t, file(200)), sumsReadAllocs(t, file(4000))
	// The sums' slice of pastes grows by doubling: a few dozen more.
	if per := (big - small) / 3800; per > 1.05 {
		t.Errorf("a summing read allocated %.2f times per pasted line (%.0f for 4000 lines, %.0f for 200), want 1 (the hash)", per, big, small)
	}
}

// sumsReadAllocs is what a summing read of fsys's history allocates.
func sumsReadAllocs(t *testing.T, fsys fstest.MapFS) float64 {
	return testing.AllocsPerRun(5, func() {
		tail := HistoryTail{Sums: true}
		if _, err := tail.Read(fsys, HistoryPath); err != nil {
			t.Fatal(err)
		}
	})
}

// TestHistorySumsMakeNoProjectTheyDoNotKeep: a read for the sums makes a
// project's string only for an entry whose project they keep (a
// session's first, one with a paste): 2 000 entries of one session, each
// in a project of its own, allocate no string each. Interning every
// entry's project made a string (and a slot in the pool) for each.
func TestHistorySumsMakeNoProjectTheyDoNotKeep(t *testing.T) {
	const n = 2000
	var b []byte
	for i := range n {
		b = fmt.Appendf(b, `{"display":"p","pastedContents":{},"timestamp":%d,"project":"/w/project-%d","sessionId":"s1"}`+"\n", 1787572834000+i, i)
	}
	fsys := fstest.MapFS{HistoryPath: {Data: b}}
	var r HistoryRead
	allocs := testing.AllocsPerRun(3, func() {
		var err error
		if r, err = (&HistoryTail{Sums: true}).Read(fsys, HistoryPath); err != nil {
			t.Fatal(err)
		}
	})
	if r.Sums.Entries != n || len(r.Sums.Sessions) != 1 || r.Sums.Sessions[0].Project != "/w/project-0" {
		t.Fatalf("sums %+v", r.Sums)
	}
	if allocs > n/4 {
		t.Errorf("a read for the sums of %d entries allocated %.0f times: a project made for each", n, allocs)
	}
	if got, want := readSums(t, fsys, true), readSums(t, fsys, false); got != want {
		t.Errorf("sums read:\n%s\nwhole read summed:\n%s", got, want)
	}
}

// TestHistorySumsOfAnAppendedRead: a read for the sums that goes on from
// an earlier one sums what was appended as its entries sum, the display
// and project of a session the earlier read had seen included. The
// decoder knew a session's first entry from every read it had made, so
// such a session's sum had no display or project.
func TestHistorySumsOfAnAppendedRead(t *testing.T) {
	line := func(i int, session string) string {
		return fmt.Sprintf(`{"display":"prompt %d","pastedContents":{},"timestamp":%d,"project":"/w/p%d","sessionId":%q}`+"\n", i, 1787572834000+i, i, session)
	}
	first := line(1, "s1") + line(2, "s2")
	appended := line(3, "s1") + line(4, "s3") + line(5, "s1")
	fsys := fstest.MapFS{HistoryPath: {Data: []byte(first)}}
	tail := &HistoryTail{Sums: true}
	if _, err := tail.Read(fsys, HistoryPath); err != nil {
		t.Fatal(err)
	}
	plain := &HistoryTail{State: tail.State}
	fsys[HistoryPath] = &fstest.MapFile{Data: []byte(first + appended)}
	got, err := tail.Read(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plain.Read(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := sumsView(got.Sums, got.Problems), sumsView(SumHistory(want.Entries), want.Problems); g != w {
		t.Errorf("appended read's sums:\n%s\nits entries summed:\n%s", g, w)
	}
}

// TestHistorySumsRefsSizeTheirMapOnce: counting the pastes of sums into
// empty refs (stat on a held history: thousands of pastes) makes the map
// once, at its size, not grown entry by entry (twice the bytes).
func TestHistorySumsRefsSizeTheirMapOnce(t *testing.T) {
	s := &HistorySums{}
	for i := range 4000 {
		s.Pastes = append(s.Pastes, HistoryPasteRef{Hash: PasteHash(fmt.Sprintf("%016x", i))})
	}
	sized := allocBytes(func() {
		m := make(map[PasteHash]int, len(s.Pastes))
		for i := range s.Pastes {
			m[s.Pastes[i].Hash]++
		}
	})
	got := allocBytes(func() {
		r := PasteRefs{Counts: map[PasteHash]int{}}
		s.Refs(&r)
		if len(r.Counts) != len(s.Pastes) {
			t.Fatalf("%d hashes counted, want %d", len(r.Counts), len(s.Pastes))
		}
	})
	if got > sized*5/4 {
		t.Errorf("Refs allocated %d bytes; a map made at its size takes %d", got, sized)
	}
}

// allocBytes is the fewest bytes f allocated in three runs.
func allocBytes(f func()) uint64 {
	least := ^uint64(0)
	for range 3 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		least = min(least, b.TotalAlloc-a.TotalAlloc)
	}
	return least
}
