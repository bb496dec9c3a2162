package model

import (
	"testing"
	"time"
)

func TestParseClientStamp(t *testing.T) {
	for _, tc := range []struct {
		in   string
		fast bool // read by hand; otherwise left to time.Parse
	}{
		{"2026-11-11T05:00:57.454Z", true},
		{"2026-11-11T05:00:57Z", true},
		{"2026-11-11T05:00:57.1Z", true},
		{"2026-11-11T05:00:57.123456789Z", true},
		{"2024-02-29T23:59:59.999Z", true},
		{"2000-02-29T00:00:00Z", true},
		{"1900-02-29T00:00:00Z", false},
		{"2026-02-29T00:00:00Z", false},
		{"2026-04-31T00:00:00Z", false},
		{"2026-13-01T00:00:00Z", false},
		{"2026-11-11T24:00:00Z", false},
		{"2026-11-11T05:60:00Z", false},
		{"2026-11-11T05:00:60Z", false},
		{"2026-11-11T05:00:57.Z", false},
		{"2026-11-11T05:00:57.1234567890Z", false},
		{"2026-11-11T05:00:57+01:00", false},
		{"2026-11-11 05:00:57Z", false},
		{"2026-1a-11T05:00:57Z", false},
		{"", false},
	} {
		got, ok := parseClientStamp([]byte(tc.in))
		want, err := time.Parse(time.RFC3339Nano, tc.in)
		if ok != tc.fast {
			t.Errorf("%q: read by hand %v, want %v", tc.in, ok, tc.fast)
		}
		if ok && (err != nil || !got.Equal(want) || got.Location() != want.Location()) {
			t.Errorf("%q: %v, time.Parse %v (%v)", tc.in, got, want, err)
		}
	}
}

// FuzzTranscriptTimestamp holds the hand-read timestamps to time.Parse.
func FuzzTranscriptTimestamp(f *testing.F) {
	f.Add("2026-11-11T05:00:57.454Z")
	f.Add("2024-02-29T23:59:59Z")
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseClientStamp([]byte(s))
		if !ok {
			return
		}
		want, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || !got.Equal(want) || got.Location() != want.Location() {
			t.Fatalf("%q: %v, time.Parse %v (%v)", s, got, want, err)
		}
	})
}

func TestParseTimestamp(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`"2026-11-11T05:00:57.454Z"`, "2026-11-11T05:00:57.454Z", true},
		{`"2026-11-11T05:00:57+01:00"`, "2026-11-11T04:00:57Z", true},
		{`"2026-11-11T05:00:57.454\u005a"`, "2026-11-11T05:00:57.454Z", true},
		{`"yesterday"`, "", false},
		{`1795345790406`, "", false},
		{`null`, "", false},
	} {
		got, ok := ParseTimestamp([]byte(tc.in))
		if ok != tc.ok || ok && got.UTC().Format(time.RFC3339Nano) != tc.want {
			t.Errorf("ParseTimestamp(%s) = %v, %v; want %s, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestClientStampIsTimeDate holds parseClientStamp's own arithmetic to
// time.Date (in UTC), value for value (==, not only Equal), on every day
// of years around each rule of the calendar and at the ends of the
// four-digit years, at a few times of day.
func TestClientStampIsTimeDate(t *testing.T) {
	clock := []struct{ h, mi, s, ns int }{{0, 0, 0, 0}, {23, 59, 59, 999999999}, {5, 0, 57, 454000000}, {12, 30, 1, 1}}
	for _, span := range [][2]int{{0, 3}, {399, 401}, {1599, 1601}, {1899, 1901}, {1968, 1972}, {1999, 2001}, {2023, 2029}, {2099, 2101}, {9996, 9999}} {
		for y := span[0]; y <= span[1]; y++ {
			for m := time.January; m <= time.December; m++ {
				for d := 1; d <= monthDays(m, y); d++ {
					for i, c := range clock {
						want := time.Date(y, m, d, c.h, c.mi, c.s, c.ns, time.UTC)
						s := want.Format("2006-01-02T15:04:05.000000000Z")
						if i == 0 {
							s = want.Format("2006-01-02T15:04:05Z")
						}
						got, ok := parseClientStamp([]byte(s))
						if !ok || got != want {
							t.Fatalf("%s: %#v, %v; time.Date %#v", s, got, ok, want)
						}
					}
				}
			}
		}
	}
}

func BenchmarkParseClientStamp(b *testing.B) {
	s := []byte("2026-11-11T05:00:57.454Z")
	for b.Loop() {
		parseClientStamp(s)
	}
}
