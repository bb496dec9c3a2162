package model

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"testing/fstest"
)

// countsView is what a count reads of a history read: the entries' line
// numbers, formats, times and pastes (their content aside), and every
// problem.
func countsView(entries []HistoryEntry, probs []Problem) string {
	var b []byte
	for _, e := range entries {
		b = fmt.Appendf(b, "%d %s %v [", e.Line, e.Format, e.Timestamp.UnixNano())
		ids := slices.Collect(maps.Keys(e.PastedContents))
		slices.Sort(ids)
		for _, id := range ids {
			p := e.PastedContents[id]
			p.Content = ""
			b = fmt.Appendf(b, "%v=%+v ", id, p)
		}
		b = append(b, "]\n"...)
	}
	return fmt.Sprintf("%s%+v", b, probs)
}

// readCounts reads history.jsonl of fsys as stat does (Read, then the
// pending line) with or without Counts.
func readCounts(t *testing.T, fsys fstest.MapFS, counts bool) string {
	t.Helper()
	tail := &HistoryTail{Counts: counts}
	r, err := tail.Read(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	pend, probs, err := tail.Pending(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	return countsView(append(r.Entries, pend...), append(r.Problems, probs...))
}

// FuzzHistoryCounts holds HistoryTail.Counts to the whole read: any
// history gives the same entries (line, format, time, pastes but their
// content) and the same problems, whether its strings are made or only
// checked. A counting read that skipped a check (a display that is not
// a string, a bad escape, a paste content of the wrong type) gives
// another entry or problem list.
func FuzzHistoryCounts(f *testing.F) {
	f.Add([]byte(`{"display":"[Pasted text #1 +39 lines] x","pastedContents":{"1":{"id":1,"type":"text","contentHash":"6726f7554468d737"}},"timestamp":1795345790406,"project":"/home/me/app","sessionId":"s"}` + "\n"))
	f.Add([]byte(`{"display":"a\nb \u00e9","pastedContents":{"1":{"id":1,"type":"text","content":"x\ty"}},"timestamp":1795345790406,"project":"/p"}` + "\n" + `{"prompt":"old","projectName":"p","timestamp":"2025-01-01T00:00:00Z"}` + "\n"))
	f.Add([]byte(`{"display":3,"timestamp":1}` + "\n" + `{"display":"x","project":7,"timestamp":1}` + "\n" + `{"display":"x","pastedContents":{"1":{"content":5}},"timestamp":1}` + "\n"))
	f.Add([]byte(`{"display":"\x","timestamp":1}` + "\n" + "{\"display\":\"\xff\",\"timestamp\":1}\n" + `{"display":"ok","sessionId":null,"timestamp":1}` + "\n" + `{"display":"cut`))
	f.Add([]byte(`{"display":"x","pastedContent":[{"type":"text","content":"a"},{"content":"b"}],"timestamp":1}` + "\n\n  \n" + `{"Display":"x","timestamp":1}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{HistoryPath: {Data: data}}
		whole, counted := readCounts(t, fsys, false), readCounts(t, fsys, true)
		if whole != counted {
			t.Fatalf("a counting read differs:\ncounts %s\nwhole  %s", counted, whole)
		}
	})
}
