package cleanup

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"
)

// TestPlaceItemsOrder: placeItems orders the items as sort.SliceStable
// with the forecast's rule did (eligibility, else the mtime, then the
// path; ties kept in listing order), on items with many ties, a disabled
// sweep (no eligibility) and a mix.
func TestPlaceItemsOrder(t *testing.T) {
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(1, 2))
	for _, days := range []int{0, 30} {
		var items []Item
		for i := range 3000 {
			items = append(items, Item{Path: fmt.Sprintf("p/%03d", r.IntN(400)), Kind: KindPaste, Files: i,
				ModTime: base.Add(time.Duration(r.IntN(50)) * time.Hour)})
		}
		f := Forecast{State: StateActive, PeriodDays: days, Now: base.AddDate(0, 0, 40), HorizonDays: 7}
		if days == 0 {
			f.State = StateDisabled
		}
		got := slices.Clone(items)
		placeItems(got, f)
		want := slices.Clone(items)
		for i := range want {
			placeItem(&want[i], f)
		}
		sort.SliceStable(want, func(i, j int) bool {
			a, b := want[i].Eligible, want[j].Eligible
			if a.IsZero() {
				a, b = want[i].ModTime, want[j].ModTime
			}
			if !a.Equal(b) {
				return a.Before(b)
			}
			return want[i].Path < want[j].Path
		})
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("period %d: item %d is %+v, want %+v", days, i, got[i], want[i])
			}
		}
	}
}

func BenchmarkPlaceItems(b *testing.B) {
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(1, 2))
	items := make([]Item, 15000)
	for i := range items {
		items[i] = Item{Path: fmt.Sprintf("paste-cache/%08x.txt", r.Uint32()), Kind: KindPaste, ModTime: base.Add(time.Duration(r.IntN(1e6)) * time.Second)}
	}
	f := Forecast{State: StateActive, PeriodDays: 30, Now: base.AddDate(0, 0, 40), HorizonDays: 7}
	work := make([]Item, len(items))
	for b.Loop() {
		copy(work, items)
		placeItems(work, f)
	}
}
