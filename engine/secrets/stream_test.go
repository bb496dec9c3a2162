package secrets

import (
	"encoding/json"
	"math"
	"testing"
)

// A scan that holds no finding between Begin and Each (every file read
// again by Each) reports exactly what a scan that holds them all does:
// the same findings in the same order with their turns, times, history
// owners and first sightings, the same counts, and the same scrub plan.
func TestScanReadAgainEqualsHeld(t *testing.T) {
	l, h := plantedHome(t)
	plantUndoCopy(t, l, h) // an undo journal too: its findings come from the entries' copies
	o := Options{Home: h}
	busy := BusyOptions{Now: now}
	held := Scan(o)
	heldPlan := PlanScrub(o, held, nil, busy)

	// Scan keeps every finding, so it reads no file twice, whatever the
	// budget Begin has.
	old := heldMax
	heldMax = 0
	for i, res := range begin(o, math.MaxInt64).results {
		if res.rescan {
			t.Fatalf("%s: Scan would read it again", begin(o, math.MaxInt64).units[i].file)
		}
	}
	t.Cleanup(func() { heldMax = old })
	s := Begin(o)
	for i, res := range s.results {
		if res.kept > 0 && (!res.rescan || res.findings != nil) {
			t.Fatalf("%s: %d findings held with a budget of none", s.units[i].file, len(res.findings))
		}
	}
	if s.Count() != len(held.Findings) {
		t.Errorf("Begin counts %d findings, the held scan has %d", s.Count(), len(held.Findings))
	}
	again := s.Report
	again.Findings = []Finding{}
	var secretsSeen []string
	s.Each(func(f *Finding) {
		again.Findings = append(again.Findings, *f)
		secretsSeen = append(secretsSeen, f.secret)
	})
	same := func(what string, a, b any) {
		t.Helper()
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s differs:\nheld  %s\nagain %s", what, ja, jb)
		}
	}
	same("the report", held, again)
	for i, f := range held.Findings {
		if secretsSeen[i] != f.secret {
			t.Errorf("%s: secret differs read again", f.ID)
		}
	}
	turns := 0
	for _, f := range held.Findings {
		if f.Turn > 0 {
			turns++
		}
	}
	if turns == 0 || held.Distinct() == len(held.Findings) {
		t.Errorf("the home has %d findings with a turn and %d repeats: the comparison shows nothing", turns, len(held.Findings)-held.Distinct())
	}
	s = Begin(o)
	same("the plan", heldPlan, PlanScrubEach(o, s.Each, nil, busy))
}
