package feed

import (
	"testing"

	engsearch "github.com/memscope/memscope/engine/search"
)

// finish pumps a search from msg to its end and returns every hit.
func finish(t *testing.T, s *Search, msg SearchBatch) ([]engsearch.Hit, *SearchFinish) {
	t.Helper()
	hits := msg.Hits
	for msg.Fin == nil {
		msg = s.Next(msg)().(SearchBatch)
		hits = append(hits, msg.Hits...)
	}
	return hits, msg.Fin
}

// The Search feed streams a search's hits to its end; a search started
// after it makes its messages stale (Current), and the newer one finds
// its own query's hits only. (Moved from the shell's
// TestSearchCancelAndSupersede, which built the whole app to send a
// stale batch.)
func TestSearchFeedSupersedes(t *testing.T) {
	dir, _ := pasteHome(t, 3)
	s := NewSearch(SearchEnv{Home: testHome(t, dir), Getenv: func(string) string { return "" }})
	q := func(text string) *engsearch.Query {
		t.Helper()
		c, err := engsearch.Compile(text, engsearch.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	first := s.Start(q("pasted text 1"), nil, "")().(SearchBatch)
	if !s.Current(first) || s.Gen() != 1 {
		t.Fatalf("the first search's message is not current (gen %d)", s.Gen())
	}
	hits, fin := finish(t, s, first)
	if fin.Err != nil || len(hits) == 0 {
		t.Fatalf("the first search: %d hits, %v", len(hits), fin.Err)
	}
	second := s.Start(q("p 2"), nil, "")().(SearchBatch)
	if s.Current(first) || !s.Current(second) || s.Gen() != 2 {
		t.Fatal("after a newer search, the older one's messages are still current")
	}
	hits, _ = finish(t, s, second)
	for _, h := range hits {
		if h.Store == engsearch.StoreHistory && h.Line != 3 {
			t.Errorf("the newer search found history line %d (p 2 is line 3)", h.Line)
		}
	}
	if len(hits) == 0 {
		t.Error("the newer search found nothing")
	}
	s.Stop() // a finished search stops without harm
}
