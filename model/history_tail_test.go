package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// historyLines makes n history lines spread over a few projects, some
// with pastes, one malformed and one blank now and then.
func historyLines(rng *rand.Rand, first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		switch rng.IntN(40) {
		case 0:
			b.WriteString("{not json\n")
			continue
		case 1:
			b.WriteString("\n")
			continue
		}
		p := fmt.Sprintf("/home/me/p%d", rng.IntN(4))
		paste := ""
		if rng.IntN(5) == 0 {
			paste = fmt.Sprintf(`"1":{"id":1,"type":"text","contentHash":"%016x"}`, rng.IntN(30))
		}
		fmt.Fprintf(&b, `{"display":"prompt %d","pastedContents":{%s},"timestamp":%d,"project":%q,"sessionId":"s%d"}`+"\n", i, paste, 1795340000000+int64(i), p, rng.IntN(3))
	}
	return b.String()
}

// The history built from incremental reads and Append equals the one
// ReadHistory builds from the whole file, after every append: entries,
// problems, projects, per-project order and the up-arrow window (which
// needs more than HistoryUpArrowLimit prompts in a project to move).
func TestHistoryTailEqualsWholeRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fsys := fstest.MapFS{}
	var content strings.Builder
	var tail HistoryTail
	var h *History
	line := 0
	for round := 0; round < 30; round++ {
		n := 1 + rng.IntN(40)
		if round == 0 {
			n = 300
		}
		content.WriteString(historyLines(rng, line, n))
		line += n
		data := content.String()
		// Half the rounds end with half a line: a write in progress.
		if round%2 == 1 {
			data += `{"display":"half`
		}
		fsys[HistoryPath] = &fstest.MapFile{Data: []byte(data), ModTime: time.Unix(int64(round), 0)}
		r, err := tail.Read(fsys, HistoryPath)
		if err != nil {
			t.Fatal(err)
		}
		if r.Full != (round == 0) {
			t.Fatalf("round %d: Full = %v", round, r.Full)
		}
		if h == nil {
			h = NewHistory(HistoryPath, r.Entries, r.Problems)
		} else {
			h.Append(r.Entries, r.Problems)
		}
		whole, err := ReadHistory(fstest.MapFS{HistoryPath: &fstest.MapFile{Data: []byte(content.String())}}, HistoryPath)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(h.Entries, whole.Entries) {
			t.Fatalf("round %d: entries differ from a whole read", round)
		}
		if !reflect.DeepEqual(h.Problems, whole.Problems) {
			t.Fatalf("round %d: problems %v, whole read %v", round, h.Problems, whole.Problems)
		}
		if !reflect.DeepEqual(h.Projects(), whole.Projects()) {
			t.Fatalf("round %d: projects %v, whole read %v", round, h.Projects(), whole.Projects())
		}
		for _, p := range whole.Projects() {
			got, want := h.ForProject(p), whole.ForProject(p)
			if len(got) != len(want) {
				t.Fatalf("round %d: %s has %d entries, whole read %d", round, p, len(got), len(want))
			}
			for i := range got {
				if got[i].Line != want[i].Line {
					t.Fatalf("round %d: %s entry %d is line %d, whole read line %d", round, p, i, got[i].Line, want[i].Line)
				}
			}
		}
	}
	if n := len(h.ForProject("/home/me/p0")); n <= HistoryUpArrowLimit {
		t.Fatalf("the test never moved the up-arrow window: %d prompts in p0", n)
	}
}

// A history file that shrank or was replaced by a different one is read
// again whole, and Reset says why.
func TestHistoryTailRereadsAReplacedFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	first := historyLines(rng, 0, 50)
	fsys := fstest.MapFS{HistoryPath: {Data: []byte(first)}}
	var tail HistoryTail
	if _, err := tail.Read(fsys, HistoryPath); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		data  string
		reset TailReset
	}{
		{"truncated", first[:len(first)/2], TailTruncated},
		{"rewritten", strings.Replace(first, "prompt 0", "prompt X", 1) + historyLines(rng, 50, 5), TailRewritten},
	} {
		fsys[HistoryPath] = &fstest.MapFile{Data: []byte(c.data)}
		r, err := tail.Read(fsys, HistoryPath)
		if err != nil {
			t.Fatal(err)
		}
		whole, _ := ReadHistory(fsys, HistoryPath)
		if !r.Full || r.Reset != c.reset || !reflect.DeepEqual(NewHistory(HistoryPath, r.Entries, r.Problems).Entries, whole.Entries) {
			t.Fatalf("%s: full %v reset %q, %d entries (whole read %d)", c.name, r.Full, r.Reset, len(r.Entries), len(whole.Entries))
		}
	}
	delete(fsys, HistoryPath)
	if _, err := tail.Read(fsys, HistoryPath); err == nil {
		t.Fatal("a missing history file is no error")
	}
	fsys[HistoryPath] = &fstest.MapFile{Data: []byte(first)}
	if r, err := tail.Read(fsys, HistoryPath); err != nil || !r.Full {
		t.Fatalf("after the file came back: full %v, err %v", r.Full, err)
	}
}
