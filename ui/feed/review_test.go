package feed

import (
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
	reviewpane "github.com/memscope/memscope/views/review"
)

// The Project feed's review inbox on provgen's home (the model wrote
// memory through tool calls; one file is hand-written): the four
// model-written memories wait, the hand-written one does not; the
// whole-home count agrees; an older load does not replace a newer one;
// an accept is written and the next read has one fewer. (The Review
// pane's tests check the same through the whole app; this one reads
// the feed alone.)
func TestReviewFeedReadsTheInbox(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHome(home, nil)
	slug := model.Slug(l.Project)
	h.Listed(h.Init()().(HomeListed), "", l.Project, testNow)
	p := NewProject(ProjectEnv{Home: home, Machine: testroot.New(t), Writes: testroot.Writer(t), Getenv: func(string) string { return "" },
		Now: func() time.Time { return testNow }}, h)
	p.Switched()
	if p.Unreviewed() != -1 {
		t.Fatalf("before its inbox is read, %d to review", p.Unreviewed())
	}
	old := p.ReviewCmd(slug)
	msg := p.ReviewCmd(slug)().(ReviewLoaded)
	if _, ok := p.ReviewDone(old().(ReviewLoaded), slug, testNow); ok {
		t.Error("an older review load was taken after a newer one started")
	}
	if _, ok := p.ReviewDone(msg, "-other", testNow); ok {
		t.Error("a review load of a project not open was taken")
	}
	out, ok := p.ReviewDone(msg, slug, testNow)
	data, isData := out.Review.(reviewpane.DataMsg)
	if !ok || !isData || out.Origins == nil || out.Counts == nil {
		t.Fatalf("the review load: ok %v, %T", ok, out.Review)
	}
	var paths []string
	for _, it := range data.Data.Items {
		paths = append(paths, it.Path)
	}
	if len(paths) != 4 || strings.Contains(strings.Join(paths, " "), "reference_dashboards.md") || p.Unreviewed() != 4 {
		t.Fatalf("the inbox: %v (%d to review)", paths, p.Unreviewed())
	}
	// The whole-home count, which only the Projects pane shows, is made
	// once the pane is shown; showing it again hands the last count.
	if p.CountsCmd() != nil {
		t.Error("the whole home was counted before the Projects pane was shown")
	}
	show, _ := p.ShowCounts()
	if show == nil {
		t.Fatal("showing the Projects pane counted nothing")
	}
	counts := p.Counted(show().(ReviewCounts), slug)
	if counts.Counts[slug] != 4 {
		t.Errorf("the whole-home count: %v", counts.Counts)
	}
	if again, last := p.ShowCounts(); again != nil || last == nil || last.Counts[slug] != 4 {
		t.Errorf("showing the pane again: counted %v, handed %v", again != nil, last)
	}
	saved := p.AcceptCmd(slug, msgs.AcceptReview{Path: data.Data.Items[0].Path, Content: data.Data.Items[0].Content})().(ReviewSaved)
	if saved.Err != nil {
		t.Fatal(saved.Err)
	}
	if out, _ := p.ReviewDone(p.ReviewCmd(slug)().(ReviewLoaded), slug, testNow); len(out.Review.(reviewpane.DataMsg).Data.Items) != 3 {
		t.Errorf("after an accept: %d to review, want 3", p.Unreviewed())
	}
}
