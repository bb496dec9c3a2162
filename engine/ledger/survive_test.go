package ledger

import (
	"testing"

	"github.com/memscope/memscope/model"
)

// survivalCase is an instruction and a summary, labelled by hand: does the
// summary still tell the model the rule?
type survivalCase struct {
	rule, summary string
	survives      bool
}

// survivalSet was written for this test: summaries in the client's style
// that keep a rule word for word, reworded, in part, or not at all.
var survivalSet = []survivalCase{
	{"Never mock the database in tests.", "The user asked never to mock the database in tests.", true},
	{"Use pnpm, not npm.", "The user wants pnpm, not npm, for installs.", true},
	{"From now on, run gofmt before every commit.", "Going forward the user wants gofmt run before every commit.", true},
	{"Always write table tests for rounding.", "Rounding tests are written as table tests, as the user asked.", true},
	{"Make sure every migration is reversible.", "Every migration must be reversible (user requirement).", true},
	{"Don't add a retry loop around the order insert.", "The user rejected a retry loop around the order insert.", true},
	{"Prefer errors.Is over comparing error strings.", "Compare errors with errors.Is rather than by their strings.", true},
	{"Avoid global variables in the handlers package.", "No global variables in the handlers package.", true},
	{"Tests must not hit the network.", "Tests must stay offline and not hit the network.", true},
	{"Ask before deleting any file under migrations/.", "The user wants to be asked before anything under migrations/ is deleted.", true},
	{"Never mock the database in tests.", "Work on the pricing service continues; tests were added for rounding.", false},
	{"Use pnpm, not npm.", "Installed dependencies and fixed the lockfile.", false},
	{"From now on, run gofmt before every commit.", "Commits so far: three, all on main.", false},
	{"Always write table tests for rounding.", "Open: write the bundles table migration. Rounding per line is done.", false},
	{"Make sure every migration is reversible.", "The bundles migration was written in migrations/0042_bundles.sql.", false},
	{"Don't add a retry loop around the order insert.", "The order insert now returns 500 on failure.", false},
	{"Prefer errors.Is over comparing error strings.", "Errors are wrapped with context in the store package.", false},
	{"Avoid global variables in the handlers package.", "The handlers package was split into three files.", false},
	{"Tests must not hit the network.", "Network retries were tuned; tests pass.", false},
	{"Ask before deleting any file under migrations/.", "Deleted two unused files under internal/util.", false},
	{"Keep answers short, no recap at the end.", "The user prefers terse answers and no recap.", true},
	{"Put new endpoints behind the feature flag.", "New endpoints go behind the feature flag.", true},
}

// TestSurvivalRates measures the survival test (containment, else one
// sentence of the after-text with SurviveShare of the rule's content
// words) on the set above; docs/LEDGER.md gives the figures. A false
// survival hides a lost rule; a false loss lists one the summary kept.
func TestSurvivalRates(t *testing.T) {
	falseKept, falseLost, kept, lost := 0, 0, 0, 0
	for _, c := range survivalSet {
		rec := &model.Record{Type: model.RecordUser, IsCompactSummary: true, Message: &model.Message{Content: []model.ContentBlock{{Type: model.BlockText, Text: c.summary}}}}
		got := newAfterText([]*model.Record{rec}).survives(c.rule)
		if c.survives {
			kept++
		} else {
			lost++
		}
		switch {
		case got && !c.survives:
			falseKept++
			t.Logf("false survival: %q in %q", c.rule, c.summary)
		case !got && c.survives:
			falseLost++
			t.Logf("false loss: %q in %q", c.rule, c.summary)
		}
	}
	t.Logf("%d pairs: false survival %d of %d lost, false loss %d of %d kept", len(survivalSet), falseKept, lost, falseLost, kept)
	if falseKept > 1 {
		t.Errorf("%d false survivals: a lost rule must not be hidden", falseKept)
	}
	if float64(falseLost) > 0.5*float64(kept) {
		t.Errorf("%d of %d kept rules reported lost", falseLost, kept)
	}
}
