package extract

import (
	"testing"
	"time"
)

func TestExResolveDates(t *testing.T) {
	sat := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	fri := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	newYearsEve := time.Date(2026, 12, 31, 9, 0, 0, 0, time.UTC)
	pacific := time.FixedZone("PST", -8*3600)
	lateMondayPacific := time.Date(2026, 11, 23, 23, 30, 0, 0, pacific) // already Tuesday in UTC
	tests := []struct {
		in   string
		ts   time.Time
		want string
	}{
		{"ship it today", monday, "ship it 2026-11-23"},
		{"due tomorrow", monday, "due 2026-11-24"},
		{"due the day after tomorrow", monday, "due 2026-11-25"},
		{"it broke yesterday", monday, "it broke 2026-11-22"},
		{"by Friday", monday, "by Friday 2026-11-27"},
		{"reconciled every Monday", monday, "reconciled every Monday"},
		{"each Friday and every other Tuesday", monday, "each Friday and every other Tuesday"},
		{"every week, by Friday", monday, "every week, by Friday 2026-11-27"},
		{"by Fri", monday, "by Friday 2026-11-27"},
		{"on Monday", monday, "on Monday 2026-11-23"},
		{"this Thursday", monday, "Thursday 2026-11-26"},
		{"next Friday", monday, "Friday 2026-12-04"},
		{"next Friday", sat, "Friday 2026-12-04"},
		{"next Friday", fri, "Friday 2026-12-04"},
		{"by Friday", fri, "by Friday 2026-11-27"},
		{"by Friday", sat, "by Friday 2026-12-04"},
		{"until Tuesday", sat, "until Tuesday 2026-12-01"},
		{"end of the week", monday, "2026-11-27"},
		{"by the end of this week", monday, "by 2026-11-27"},
		{"EOW", sat, "2026-12-04"},
		{"end of next week", monday, "2026-12-04"},
		{"next week", monday, "the week of 2026-11-30"},
		{"next week", sat, "the week of 2026-11-30"},
		{"end of the month", monday, "2026-11-30"},
		{"end of the month", newYearsEve, "2026-12-31"},
		{"tomorrow", newYearsEve, "2027-01-01"},
		{"next month", monday, "December 2026"},
		{"next month", newYearsEve, "January 2027"},
		{"this weekend", monday, "2026-11-28"},
		{"in 3 days", monday, "2026-11-26"},
		{"in two weeks", monday, "2026-12-07"},
		{"in a week", monday, "2026-11-30"},
		{"tomorrow", lateMondayPacific, "2026-11-24"},
		{"tomorrow", lateMondayPacific.UTC(), "2026-11-25"},
		{"Friday, Dec 4", monday, "Friday, Dec 4"},
		{"Friday 2026-12-04", monday, "Friday 2026-12-04"},
		{"we deploy on Tuesdays", monday, "we deploy on Tuesdays"},
		{"c'mon, wed the two", monday, "c'mon, wed the two"},
		{"no dates here", monday, "no dates here"},
		{"by Friday", time.Time{}, "by Friday"},
	}
	for _, tc := range tests {
		got, _ := exResolveDates(tc.in, tc.ts)
		if got != tc.want {
			t.Errorf("exResolveDates(%q, %s) = %q, want %q", tc.in, tc.ts.Format(time.RFC3339), got, tc.want)
		}
	}
}

func TestExResolveDatesReturnsDates(t *testing.T) {
	_, dates := exResolveDates("freeze on Thursday, release by end of next week", monday)
	want := []string{"2026-11-26", "2026-12-04"}
	if len(dates) != len(want) {
		t.Fatalf("dates %v, want %v", dates, want)
	}
	for i, d := range dates {
		if d.Format(exISODate) != want[i] {
			t.Errorf("date %d = %s, want %s", i, d.Format(exISODate), want[i])
		}
	}
}
