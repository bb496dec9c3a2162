// Package format writes sizes and ids for people, one function per style,
// so the command line, the panes and the engine's reports that share a
// style print it the same way. It is a leaf: it imports only model, for
// the terminal sanitizer.
package format

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// Bytes is a size in the command line's reports: "512 B", "4.1 KiB",
// "12.0 MiB", "1.23 GiB" (binary units, spelled as such).
func Bytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
}

// CompactBytes is a size in a pane's column: "512B", "4.1K", "12.0M",
// "1.2G" (binary units, at most six characters below 1000G).
func CompactBytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1fK", float64(n)/1024)
	case n < 1<<30:
		return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1fG", float64(n)/(1<<30))
}

// ClientFileSize is a size as Claude Code writes it (its formatFileSize,
// in the MEMORY.md cap warning the model reads): under 1024 "N bytes";
// else the value in KB, MB or GB with one decimal (JavaScript toFixed(1),
// which rounds half up) and a trailing ".0" dropped: "24.4KB", "1MB".
// Text meant to match the client's byte for byte uses it.
func ClientFileSize(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	units := []string{"KB", "MB", "GB"}
	div := int64(1024)
	for i, u := range units {
		if int64(n) < div*1024 || i == len(units)-1 {
			tenths := (int64(n)*20 + div) / (2 * div)
			if tenths%10 == 0 {
				return fmt.Sprintf("%d%s", tenths/10, u)
			}
			return fmt.Sprintf("%d.%d%s", tenths/10, tenths%10, u)
		}
		div *= 1024
	}
	return ""
}

// Ago is how long before now t was, in every "ago" column of the panes
// and the command line: "now", "12m ago", "5h ago", "3d ago" — the unit
// is the largest whole one (days from 24 hours), so a column never puts
// "47h ago" beside "2d ago"; "—" for an unknown time, "in the future"
// for a clock ahead of now.
func Ago(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < -time.Minute:
		return "in the future"
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

// Clock is when t was, in local time, as short as reads unambiguously
// beside now: "11:06" on now's day, "Nov 12 11:06" in now's year,
// "2025-11-12 11:06" before; "—" for an unknown time.
func Clock(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	t, now = t.Local(), now.Local()
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return t.Format("15:04")
	case t.Year() == now.Year():
		return t.Format("Jan 2 15:04")
	}
	return t.Format("2006-01-02 15:04")
}

// shortIDLen is how much of an id ShortID keeps: a uuid's first block.
const shortIDLen = 8

// ShortID is an id cut for a table or a heading: its first 8 characters
// (a session or message uuid's first block, enough to find it again),
// with terminal controls removed first, since ids come from transcripts
// and may hold anything.
func ShortID(id string) string {
	id = model.SanitizeForTerminal(id)
	if utf8.RuneCountInString(id) <= shortIDLen {
		return id
	}
	return string([]rune(id)[:shortIDLen])
}

// Timestamp is a time for a column of file-history times: UTC to the
// second, or "(no time)" padded to the same width when t is zero.
func Timestamp(t time.Time) string {
	if t.IsZero() {
		return "(no time)          "
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// USD writes a cost in US dollars for people: cents ("$12.34"), thousands
// grouped ("$1,234.56"), a positive cost under a cent as "<$0.01".
func USD(x float64) string {
	if x > 0 && x < 0.005 {
		return "<$0.01"
	}
	s := fmt.Sprintf("%.2f", x)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, cents, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return sign + "$" + whole + "." + cents
}

// Count is a number with its noun for people: "1 session", "3 sessions".
func Count(n int, one, many string) string {
	if many == "" {
		many = one + "s"
	}
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
