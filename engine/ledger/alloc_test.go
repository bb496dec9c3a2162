package ledger

import (
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// TestAfterTextOneAllocation checks the after-text of many records is
// made in one allocation of its text (and one of its normalised copy, one
// of its window table, made with the copy, and the struct), not grown
// piece by piece (main: 18 allocations here).
func TestAfterTextOneAllocation(t *testing.T) {
	var after []*model.Record
	for i := range 40 {
		r := &model.Record{Message: &model.Message{Content: []model.ContentBlock{{Text: strings.Repeat("Kept the Parser ", 20+i), Input: `{"file_path":"/W/x.go"}`}}}}
		if i%4 == 0 {
			r.EarlierMessages = []model.EarlierMessage{{Text: "Earlier Text"}}
		}
		after = append(after, r)
	}
	if n := testing.AllocsPerRun(20, func() { newAfterText(after) }); n > 4 {
		t.Errorf("newAfterText: %v allocations, want 4 (the text, its normalised copy, its window table, the struct)", n)
	}
}

// TestNamesFileNormalisesOnce checks namesFile normalises a base name
// that needs a copy (capitals) once, not once to test it and again to
// search for it (main: 2 allocations).
func TestNamesFileNormalisesOnce(t *testing.T) {
	text := "Worked on internal/store/Journal.go."
	at := &afterText{raw: text, norm: normalize(text)}
	at.names("warm") // the window set is made on the first name
	if !at.namesFile("/w/internal/store/Journal.go") {
		t.Fatal("Journal.go not named")
	}
	if n := testing.AllocsPerRun(20, func() { at.namesFile("/w/internal/store/Journal.go") }); n != 1 {
		t.Errorf("namesFile: %v allocations, want 1 (the normalised base name)", n)
	}
}
