package model

import (
	"time"

	"github.com/memscope/memscope/internal/jsonscan"
)

// ParseTimestamp reads the raw JSON value of a record's "timestamp" with
// time.Parse(time.RFC3339Nano, ...); ok is false when v is not a string or
// does not parse. The client's own form, 2026-11-11T05:00:57.454Z, is read
// by hand, which spares a string and most of time.Parse on every line.
func ParseTimestamp(v []byte) (time.Time, bool) {
	if len(v) >= 2 && v[0] == '"' {
		if t, ok := parseClientStamp(v[1 : len(v)-1]); ok {
			return t, true
		}
	}
	text, ok := jsonscan.Text(v)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(text))
	return t, err == nil
}

// parseClientStamp parses YYYY-MM-DDTHH:MM:SS[.fff…]Z in UTC. It reports false
// for anything else, including dates time.Parse would reject (February
// 30th), so that the caller falls back to time.Parse and its verdict.
func parseClientStamp(b []byte) (time.Time, bool) {
	const n = len("2006-01-02T15:04:05")
	if len(b) < n+1 || b[len(b)-1] != 'Z' || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	num := func(i, w int) (int, bool) {
		v := 0
		for _, c := range b[i : i+w] {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	h, ok4 := num(11, 2)
	mi, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	if d > monthDays(time.Month(mo), y) {
		return time.Time{}, false
	}
	frac := b[n : len(b)-1]
	nsec := 0
	if len(frac) > 0 {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		v, ok := num(n+1, len(frac)-1)
		if !ok {
			return time.Time{}, false
		}
		nsec = v
		for range 10 - len(frac) {
			nsec *= 10
		}
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, nsec, time.UTC), true
}

func monthDays(m time.Month, year int) int {
	if m == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31 - int(m-1)%7%2
}
