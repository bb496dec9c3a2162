package ledger

import (
	"slices"
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

// TestAfterTextInRoom checks an after-text made in a worker's room
// (the home's ledger) allocates only its struct once the room has grown
// (main: 4 allocations for every boundary, the text, its normalised
// copy and its window table made anew), and that a room used before for
// a longer text gives the text, copy and table newAfterText gives.
func TestAfterTextInRoom(t *testing.T) {
	recs := func(words int) []*model.Record {
		var after []*model.Record
		for i := range 30 {
			after = append(after, &model.Record{Message: &model.Message{Content: []model.ContentBlock{{Text: strings.Repeat("Kept the Parser ", words+i), Input: `{"file_path":"/W/x.go"}`}}}})
		}
		return after
	}
	long, short := recs(400), recs(3)
	room := new(afterRoom)
	newAfterTextIn(long, room)
	if n := testing.AllocsPerRun(20, func() { newAfterTextIn(long, room) }); n != 1 {
		t.Errorf("newAfterTextIn: %v allocations, want 1 (the struct)", n)
	}
	got, want := newAfterTextIn(short, room), newAfterText(short)
	if got.raw != want.raw || got.norm != want.norm || got.grams.shift != want.grams.shift || !slices.Equal(got.grams.bits, want.grams.bits) {
		t.Errorf("after-text in a used room differs: raw %d/%d bytes, norm %d/%d, table %d/%d words", len(got.raw), len(want.raw), len(got.norm), len(want.norm), len(got.grams.bits), len(want.grams.bits))
	}
}
