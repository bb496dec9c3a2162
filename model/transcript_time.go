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
	// The fourteen digits of the date and time, each checked and read
	// on its own (a loop over them cost more than the rest of the parse).
	digits := true
	dig := func(i int) int {
		c := b[i] - '0'
		if c > 9 {
			digits = false
		}
		return int(c)
	}
	y := dig(0)*1000 + dig(1)*100 + dig(2)*10 + dig(3)
	mo := dig(5)*10 + dig(6)
	d := dig(8)*10 + dig(9)
	h := dig(11)*10 + dig(12)
	mi := dig(14)*10 + dig(15)
	sec := dig(17)*10 + dig(18)
	if !digits || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
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
		for _, c := range frac[1:] {
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
			nsec = nsec*10 + int(c-'0')
		}
		nsec *= pow10[10-len(frac)]
	}
	// time.Date(y, mo, d, h, mi, sec, nsec, time.UTC), without its
	// normalizing and its zone lookup: the same Time (the tests hold
	// the two to ==), at a fraction of the cost, for each line of every
	// transcript a cold start reads.
	unix := daysFromCivil(y, mo, d)*86400 + int64(h*3600+mi*60+sec)
	return time.Unix(unix, int64(nsec)).UTC(), true
}

// pow10 are the powers of ten up to 10^8, the scale of a fraction of
// 1 to 9 digits to nanoseconds.
var pow10 = [...]int{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}

// daysFromCivil is the number of days from 1970-01-01 to the date y-m-d
// of the proleptic Gregorian calendar, for years 0 to 9999 (Howard
// Hinnant's days_from_civil): years counted from March, so that the leap
// day ends one, and four centuries (an era, 146097 days) added to keep
// them positive.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	y += 400
	era := y / 400
	yoe := y - era*400 // [0, 399]
	doe := yoe*365 + yoe/4 - yoe/100 + marchDays[m] + d - 1
	return int64(era-1)*146097 + int64(doe) - 719468
}

// marchDays are the days from March 1st to the first of each month
// (1-12) of a year counted from March.
var marchDays = [13]int{0, 306, 337, 0, 31, 61, 92, 122, 153, 184, 214, 245, 275}

func monthDays(m time.Month, year int) int {
	if m == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31 - int(m-1)%7%2
}
