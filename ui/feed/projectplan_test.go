package feed

import (
	"encoding/json"
	"testing"

	memstore "github.com/memscope/memscope/engine/store"
)

// planJSON is a plan as `memscope prune --json` prints it.
func planJSON(t *testing.T, p *memstore.Plan) string {
	t.Helper()
	if p == nil {
		return "no plan"
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The prune plan, which only the Health pane shows, is not made by a
// project load until the pane was shown (most starts never show it); then
// it is made for the load in hand, and every load after makes its own.
// The plan made on showing is the one a load makes of the same folder. A
// load started before the pane was shown and landing after makes its plan
// on landing; a plan of a load no longer in hand is dropped.
func TestPruneIsPlannedWhenHealthIsShown(t *testing.T) {
	p := projectFeed(t, homeWithProjects(t))
	if _, next := p.Loaded(p.Request("-w-a")().(ProjectLoaded), "-w-a"); next != nil {
		t.Fatal("a load before Health was shown asked for more")
	}
	if p.Cur().Plan != nil {
		t.Fatal("a load planned the prune before the Health pane was shown")
	}
	cmd := p.ShowPlan()
	if cmd == nil {
		t.Fatal("showing Health made no plan")
	}
	if p.ShowPlan() != nil {
		t.Error("showing Health again while its plan is made made another")
	}
	made := cmd().(PlanMade)
	if !p.PlanMade(made) || p.Cur().Plan == nil || len(p.Cur().Plan.Actions) == 0 {
		t.Fatalf("the plan made on showing Health: %+v", p.Cur().Plan)
	}
	if p.ShowPlan() != nil {
		t.Error("showing Health with a plan in hand made another")
	}
	shown := p.Cur().Plan
	load := p.Request("-w-a")().(ProjectLoaded)
	if planJSON(t, load.Plan) != planJSON(t, shown) {
		t.Fatalf("a load after Health was shown: plan %+v, want the one made on showing %+v", load.Plan, shown)
	}
	p.Loaded(load, "-w-a")
	if p.PlanMade(made) {
		t.Error("a plan of a load no longer in hand was taken")
	}

	// A load requested before the pane is shown, landing after.
	q := projectFeed(t, homeWithProjects(t))
	early := q.Request("-w-a")
	q.ShowPlan()
	_, next := q.Loaded(early().(ProjectLoaded), "-w-a")
	if next == nil || q.Cur().Plan != nil {
		t.Fatal("a load without a plan landing after Health was shown asked for none")
	}
	for _, msg := range runAll(next) {
		if m, ok := msg.(PlanMade); ok && !q.PlanMade(m) {
			t.Error("its plan was not taken")
		}
	}
	if planJSON(t, q.Cur().Plan) != planJSON(t, shown) {
		t.Errorf("the plan made on landing: %+v", q.Cur().Plan)
	}
}
