package model

import (
	"strconv"
	"testing"
	"time"
)

// floatMillis is parseMillisOrISO's reading of a number before
// plainMillis: strconv.ParseFloat, truncated.
func floatMillis(raw []byte) (time.Time, bool) {
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f > 1<<53 || f < -(1<<53) {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(f)).UTC(), true
}

// FuzzPlainMillis holds the integer path of parseMillisOrISO to what
// strconv.ParseFloat made of the same timestamp.
func FuzzPlainMillis(f *testing.F) {
	for _, s := range []string{"1787572834000", "0", "-0", "-1", "007", "999999999999999", "9999999999999999",
		"-999999999999999", "1.5", "1e3", "", "-", "12a", " 12", "9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, ok := plainMillis([]byte(s))
		if !ok {
			return
		}
		want, fok := floatMillis([]byte(s))
		if !fok || !time.UnixMilli(ms).UTC().Equal(want) {
			t.Fatalf("%q: plainMillis %d (%v), ParseFloat %v (%v)", s, ms, ok, want, fok)
		}
		got, err := parseMillisOrISO([]byte(s))
		if err != nil || got != want {
			t.Fatalf("%q: parseMillisOrISO %v %v, want %v", s, got, err, want)
		}
	})
}

// TestPlainMillisTakesTheUsualTimestamps: the client's timestamps (13
// digits) are read without ParseFloat; a fraction, an exponent, a sign
// alone or an integer beyond 2^53 (which a float does not hold exactly)
// are left to it.
func TestPlainMillisTakesTheUsualTimestamps(t *testing.T) {
	for s, want := range map[string]bool{"1787572834000": true, "-5": true, "999999999999999": true,
		"9007199254740992": true, "9007199254740993": false, "1.0": false, "1e3": false, "-": false, "": false, " 1": false} {
		if _, ok := plainMillis([]byte(s)); ok != want {
			t.Errorf("plainMillis(%q) ok %v, want %v", s, ok, want)
		}
	}
}
