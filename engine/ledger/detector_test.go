package ledger

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/memscope/memscope/engine/extract"
)

// labelled is one user message of testdata/instructions.jsonl, labelled by
// hand: rule and correction are instructions; request, question and
// statement are not.
type labelled struct {
	Source string `json:"source"`
	Label  string `json:"label"`
	Text   string `json:"text"`
}

func readLabelled(t *testing.T) []labelled {
	t.Helper()
	f, err := os.Open("testdata/instructions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l labelled
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("instructions.jsonl: %v", err)
		}
		out = append(out, l)
	}
	return out
}

// TestInstructionDetectorPrecisionRecall measures extract.Instructions on
// the labelled set (docs/LEDGER.md gives the figures): a message counts as
// detected when at least one of its sentences is an instruction. Both
// precision and recall must stay at 0.85 or above, and the set must keep
// at least 60 messages of all four kinds.
func TestInstructionDetectorPrecisionRecall(t *testing.T) {
	set := readLabelled(t)
	kinds := map[string]int{}
	tp, fp, fn, tn := 0, 0, 0, 0
	for _, l := range set {
		kinds[l.Label]++
		want := l.Label == "rule" || l.Label == "correction"
		got := len(extract.Instructions(l.Text)) > 0
		switch {
		case want && got:
			tp++
		case !want && got:
			fp++
			t.Logf("false positive (%s, %s): %q", l.Source, l.Label, l.Text)
		case want && !got:
			fn++
			t.Logf("false negative (%s, %s): %q", l.Source, l.Label, l.Text)
		default:
			tn++
		}
	}
	if len(set) < 60 {
		t.Fatalf("labelled set has %d messages, want at least 60", len(set))
	}
	for _, k := range []string{"rule", "correction", "request", "question", "statement"} {
		if kinds[k] == 0 {
			t.Errorf("labelled set has no %s", k)
		}
	}
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	t.Logf("%d messages: tp %d fp %d fn %d tn %d; precision %.3f recall %.3f", len(set), tp, fp, fn, tn, precision, recall)
	if precision < 0.85 || recall < 0.85 {
		t.Errorf("precision %.3f, recall %.3f: want both ≥ 0.85", precision, recall)
	}
}
