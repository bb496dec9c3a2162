package cleanup

import (
	"strconv"
	"time"
)

// Group is one step of a forecast's time line: the items that
// become eligible on the same day (or all that already are, or all after
// the horizon).
type Group struct {
	Bucket Bucket `json:"bucket"`
	// DaysLeft is the calendar day of the group (0 for now and today).
	DaysLeft int `json:"daysLeft"`
	// Date is that day's date in now's time zone (the first eligible
	// time of the group for later).
	Date time.Time `json:"date"`
	// Kinds has one total per kind present, in RetentionKinds order; only
	// the bucket's own count is filled.
	Kinds []KindCount `json:"kinds"`
	Total Count       `json:"total"`
	// Items are indexes into the forecast's Items, in its order.
	Items []int `json:"items"`
}

// KindCount is the count of one kind in a group.
type KindCount struct {
	Kind  Kind  `json:"kind"`
	Count Count `json:"count"`
}

func dayOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}

// Label names the group for people: "now", "later today", "tomorrow",
// "in 5 days", "after 30 days".
func (g Group) Label(horizon int) string {
	switch g.Bucket {
	case BucketNow:
		return "now"
	case BucketLater:
		return "after " + strconv.Itoa(horizon) + " days"
	case BucketNever:
		return "never"
	case BucketSoon:
	}
	switch g.DaysLeft {
	case 0:
		return "later today"
	case 1:
		return "tomorrow"
	}
	return "in " + strconv.Itoa(g.DaysLeft) + " days"
}

// Timeline groups the forecast's items by the day they become eligible:
// one group for what is eligible now, one per day within the horizon, one
// for everything later. A disabled or skipped sweep has no time line.
func (f Forecast) Timeline() []Group {
	var out []Group
	pos := map[[2]int]int{}
	for i, it := range f.Items {
		var key [2]int
		switch it.Bucket {
		case BucketNever:
			continue
		case BucketNow:
			key = [2]int{0, -1}
		case BucketSoon:
			key = [2]int{1, it.DaysLeft}
		case BucketLater:
			key = [2]int{2, 0}
		}
		gi, ok := pos[key]
		if !ok {
			g := Group{Bucket: it.Bucket, DaysLeft: it.DaysLeft}
			switch it.Bucket {
			case BucketNow:
				g.DaysLeft, g.Date = 0, dayOf(f.Now)
			case BucketSoon:
				g.Date = dayOf(f.Now).AddDate(0, 0, it.DaysLeft)
			case BucketLater, BucketNever:
				g.Date = it.Eligible.In(f.Now.Location())
			}
			out = append(out, g)
			gi = len(out) - 1
			pos[key] = gi
		}
		g := &out[gi]
		g.Items = append(g.Items, i)
		g.Total.add(it)
		g.addKind(it)
	}
	// Items are sorted by eligibility, so groups already come in time order.
	return out
}

func (g *Group) addKind(it Item) {
	for i := range g.Kinds {
		if g.Kinds[i].Kind == it.Kind {
			g.Kinds[i].Count.add(it)
			return
		}
	}
	g.Kinds = append(g.Kinds, KindCount{Kind: it.Kind})
	g.Kinds[len(g.Kinds)-1].Count.add(it)
	order := map[Kind]int{}
	for i, k := range Kinds() {
		order[k] = i
	}
	for i := len(g.Kinds) - 1; i > 0 && order[g.Kinds[i].Kind] < order[g.Kinds[i-1].Kind]; i-- {
		g.Kinds[i], g.Kinds[i-1] = g.Kinds[i-1], g.Kinds[i]
	}
}
