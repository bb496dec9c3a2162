package format

import (
	"strings"
	"testing"
	"time"
)

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB",
		1<<20 - 1: "1024.0 KiB", 1 << 20: "1.0 MiB", 5 << 29: "2.50 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCompactBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0B", 1023: "1023B", 1024: "1.0K", 4200: "4.1K",
		12 << 20: "12.0M", 5 << 29: "2.5G"} {
		if got := CompactBytes(n); got != want {
			t.Errorf("CompactBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestClientFileSize(t *testing.T) {
	// Expected values were printed by node with the client's formula:
	// kb.toFixed(1).replace(/\.0$/, "") + "KB" and so on.
	want := map[int]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1KB", 1075: "1KB", 1126: "1.1KB",
		1280: "1.3KB", 1331: "1.3KB", 25000: "24.4KB", 30009: "29.3KB", 1048575: "1024KB",
		1048576: "1MB", 1572864: "1.5MB", 1073741824: "1GB", 5000000000: "4.7GB"}
	for n, w := range want {
		if got := ClientFileSize(n); got != w {
			t.Errorf("ClientFileSize(%d) = %q, want %q", n, got, w)
		}
	}
}

func TestShortID(t *testing.T) {
	for id, want := range map[string]string{
		"fedcb1e2-dbe4-5555-90b5-52df88de5bed": "fedcb1e2",
		"u1":                                   "u1",
		"":                                     "",
		"big-session":                          "big-sess",
		// Characters, not bytes: a cut never splits one.
		"été-ça-über": "été-ça-ü",
		// Controls go before the cut, so 8 visible characters remain.
		"\x1b[31mabcdefghij": "abcdefgh",
	} {
		if got := ShortID(id); got != want {
			t.Errorf("ShortID(%q) = %q, want %q", id, got, want)
		}
	}
	if got := ShortID("ab\u202ecdefghij"); strings.ContainsRune(got, '\u202e') {
		t.Errorf("ShortID kept a bidi control: %q", got)
	}
}

func TestTimestamp(t *testing.T) {
	at := time.Date(2026, 11, 22, 13, 4, 5, 0, time.FixedZone("X", 3600))
	if got := Timestamp(at); got != "2026-11-22 12:04:05" {
		t.Errorf("Timestamp = %q", got)
	}
	if got := Timestamp(time.Time{}); got != "(no time)          " || len(got) != len(Timestamp(at)) {
		t.Errorf("zero Timestamp = %q, want the column's width", got)
	}
}

func TestUSD(t *testing.T) {
	for x, want := range map[float64]string{
		0: "$0.00", 0.001: "<$0.01", 0.005: "$0.01", 0.258492: "$0.26", 12.346: "$12.35",
		1234.5: "$1,234.50", 1234567.891: "$1,234,567.89", -3.2: "-$3.20",
	} {
		if got := USD(x); got != want {
			t.Errorf("USD(%v) = %q, want %q", x, got, want)
		}
	}
}

// One unit style: the largest whole unit, days from 24 hours (never
// "47h ago" beside "2d ago").
func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	cases := map[time.Duration]string{
		30 * time.Second: "now", 5 * time.Minute: "5m ago", 3 * time.Hour: "3h ago",
		23*time.Hour + 59*time.Minute: "23h ago", 24 * time.Hour: "1d ago", 47 * time.Hour: "1d ago",
		72 * time.Hour: "3d ago", -time.Hour: "in the future",
	}
	for d, want := range cases {
		if got := Ago(now, now.Add(-d)); got != want {
			t.Errorf("Ago(-%v) = %q, want %q", d, got, want)
		}
	}
	if Ago(now, time.Time{}) != "—" {
		t.Error("zero time should be —")
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 sessions", 1: "1 session", 2: "2 sessions", 1200: "1200 sessions"} {
		if got := Count(n, "session", "sessions"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Count(3, "file", ""); got != "3 files" {
		t.Errorf("an empty plural adds s: %q", got)
	}
}

func TestClock(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.Local)
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "—"},
		{now.Add(-11 * time.Hour), "01:00"},
		{now.Add(-13 * time.Hour), "Nov 21 23:00"},
		{time.Date(2025, 12, 31, 9, 5, 0, 0, time.Local), "2025-12-31 09:05"},
	} {
		if got := Clock(now, c.t); got != c.want {
			t.Errorf("Clock(%v) = %q, want %q", c.t, got, c.want)
		}
	}
}
