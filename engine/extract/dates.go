package extract

import (
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/scan"
)

const exISODate = "2006-01-02"

var (
	// exRelDate is one relative date expression; longer forms come first
	// so "end of next week" is not read as "next week".
	exRelDate = scan.NewLazyRegexp(`(?i)\b(?:` +
		`(?P<dat>the day after tomorrow|day after tomorrow)` +
		`|(?P<today>today|tonight|this evening|this afternoon|this morning|eod|end of (?:the )?day)` +
		`|(?P<tomorrow>tomorrow)` +
		`|(?P<yesterday>yesterday)` +
		`|(?P<eonw>end of next week)` +
		`|(?P<eow>(?:the )?end of (?:the |this )?week|eow)` +
		`|(?P<nextweek>next week)` +
		`|(?P<eom>(?:the )?end of (?:the |this )?month|eom)` +
		`|(?P<nextmonth>next month)` +
		`|(?P<weekend>this weekend)` +
		`|(?P<in>in (?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten) (?P<unit>days?|weeks?))` +
		`|(?:(?P<mod>this|next|coming|on|by|until|before)\s+)?(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday|tue|tues|thu|thur|thurs|fri)` +
		`)\b(?P<after>\s*,?\s*(?:\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)?\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b))?`)
	// exAbsDate is a date already written out.
	exAbsDate = scan.NewLazyRegexp(`(?i)\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b`)
	// exRecurring ends the text before a weekday that names a schedule,
	// not a date: "every Monday", "each Friday", "every other Tuesday".
	exRecurring = scan.NewLazyRegexp(`(?i)\b(?:every|each)(?:\s+other|\s+second)?\s+$`)
	// exDateWords are the words of date expressions, removed before the
	// in-progress check of a project memory.
	exDateWords = scan.NewLazyRegexp(`(?i)\b(?:today|tonight|tomorrow|this (?:evening|afternoon|morning|weekend))\b`)
)

var exWeekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "tue": time.Tuesday, "tues": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "thu": time.Thursday,
	"thur": time.Thursday, "thurs": time.Thursday, "friday": time.Friday, "fri": time.Friday,
	"saturday": time.Saturday, "sunday": time.Sunday,
}

var exSmallNumbers = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// exHasDate reports whether s names a date, relative or absolute.
func exHasDate(s string) bool {
	return exAbsDate.MatchString(s) || exRelDate.MatchString(s)
}

// exResolveDates rewrites the relative dates in s as absolute ones, counted
// from the day of ts in ts's location, and returns the dates it wrote.
//   - today, tonight, EOD → that day; tomorrow, the day after tomorrow,
//     yesterday; in N days/weeks;
//   - a weekday alone or with this/on/by/until/before/coming → its next
//     occurrence on or after that day ("by Friday" said on a Friday means
//     that day); "next Friday" → the occurrence after the coming one when
//     the coming one falls in the same week (Monday to Sunday), so "next
//     Friday" said on a Monday is eleven days later;
//   - end of the week → the Friday on or after that day; end of next week →
//     the Friday after it; next week → "the week of" its Monday;
//   - end of the month → its last day; next month → its name and year;
//     this weekend → the Saturday on or after that day.
//
// A weekday already followed by a date ("Friday, Dec 4"), or naming a
// schedule ("every Monday"), is left alone.
func exResolveDates(s string, ts time.Time) (string, []time.Time) {
	if ts.IsZero() {
		return s, nil
	}
	y, mo, d := ts.Date()
	day := time.Date(y, mo, d, 0, 0, 0, 0, ts.Location())
	names := exRelDate.SubexpNames()
	var dates []time.Time
	var b strings.Builder
	last := 0
	for _, loc := range exRelDate.FindAllStringSubmatchIndex(s, -1) {
		group := map[string]string{}
		for i, name := range names {
			if name != "" && loc[2*i] >= 0 {
				group[name] = s[loc[2*i]:loc[2*i+1]]
			}
		}
		if group["after"] != "" || group["wd"] != "" && exRecurring.MatchString(s[:loc[0]]) {
			continue
		}
		text, date, ok := exResolveOne(group, day)
		if !ok {
			continue
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(text)
		last = loc[1]
		dates = append(dates, date)
	}
	b.WriteString(s[last:])
	return b.String(), dates
}

// exResolveOne turns one matched expression into its absolute text.
func exResolveOne(g map[string]string, day time.Time) (string, time.Time, bool) {
	iso := func(t time.Time) (string, time.Time, bool) { return t.Format(exISODate), t, true }
	switch {
	case g["dat"] != "":
		return iso(day.AddDate(0, 0, 2))
	case g["today"] != "":
		return iso(day)
	case g["tomorrow"] != "":
		return iso(day.AddDate(0, 0, 1))
	case g["yesterday"] != "":
		return iso(day.AddDate(0, 0, -1))
	case g["eonw"] != "":
		return iso(exOnOrAfter(day, time.Friday).AddDate(0, 0, 7))
	case g["eow"] != "":
		return iso(exOnOrAfter(day, time.Friday))
	case g["nextweek"] != "":
		monday := exOnOrAfter(day.AddDate(0, 0, 1), time.Monday)
		return "the week of " + monday.Format(exISODate), monday, true
	case g["eom"] != "":
		return iso(time.Date(day.Year(), day.Month()+1, 0, 0, 0, 0, 0, day.Location()))
	case g["nextmonth"] != "":
		first := time.Date(day.Year(), day.Month()+1, 1, 0, 0, 0, 0, day.Location())
		return first.Format("January 2006"), first, true
	case g["weekend"] != "":
		return iso(exOnOrAfter(day, time.Saturday))
	case g["in"] != "":
		n, ok := exSmallNumbers[strings.ToLower(g["n"])]
		if !ok {
			n, _ = strconv.Atoi(g["n"])
		}
		if strings.HasPrefix(strings.ToLower(g["unit"]), "week") {
			n *= 7
		}
		return iso(day.AddDate(0, 0, n))
	case g["wd"] != "":
		wd := exWeekdays[strings.ToLower(g["wd"])]
		t := exOnOrAfter(day, wd)
		mod := strings.ToLower(g["mod"])
		if mod == "next" {
			if !t.After(day) {
				t = t.AddDate(0, 0, 7)
			}
			if exSameWeek(t, day) {
				t = t.AddDate(0, 0, 7)
			}
		}
		prefix := ""
		if mod != "" && mod != "this" && mod != "next" && mod != "coming" {
			prefix = g["mod"] + " "
		}
		return prefix + t.Format("Monday 2006-01-02"), t, true
	}
	return "", time.Time{}, false
}

// exOnOrAfter returns the first day on or after day that is wd.
func exOnOrAfter(day time.Time, wd time.Weekday) time.Time {
	return day.AddDate(0, 0, (int(wd)-int(day.Weekday())+7)%7)
}

// exSameWeek reports whether a and b fall in the same Monday-to-Sunday week.
func exSameWeek(a, b time.Time) bool {
	ay, aw := a.ISOWeek()
	by, bw := b.ISOWeek()
	return ay == by && aw == bw
}
