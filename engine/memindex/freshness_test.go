package memindex

import (
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

func TestAgeDaysAndWarning(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		t    time.Time
		age  int
		warn string
	}{
		{"just written", now, 0, ""},
		{"one ms short of a day", now.Add(-24*time.Hour + time.Millisecond), 0, ""},
		{"one day", now.Add(-24 * time.Hour), 1, ""},
		{"one ms short of two days", now.Add(-48*time.Hour + time.Millisecond), 1, ""},
		{"two days", now.Add(-48 * time.Hour), 2, "This memory is 2 days old. Memories are point-in-time observations, not live state — claims about code behavior or file:line citations may be outdated. Verify against current code before asserting as fact."},
		{"a year", now.AddDate(-1, 0, 0), 365, "This memory is 365 days old. Memories are point-in-time observations, not live state — claims about code behavior or file:line citations may be outdated. Verify against current code before asserting as fact."},
		{"future counts as today", now.Add(72 * time.Hour), 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			age := AgeDays(tt.t, now)
			if age != tt.age || FreshnessWarning(age) != tt.warn {
				t.Errorf("age %d warning %q; want %d %q", age, FreshnessWarning(age), tt.age, tt.warn)
			}
		})
	}
}

func TestMemoryTimePrefersModified(t *testing.T) {
	mtime := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	mod := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &model.MemoryFile{ModTime: mtime}
	if got, c := MemoryTime(f); !got.Equal(mtime) || c != ClockMtime {
		t.Errorf("without modified: %v %s", got, c)
	}
	f.Modified = &mod
	if got, c := MemoryTime(f); !got.Equal(mod) || c != ClockModified {
		t.Errorf("with modified: %v %s", got, c)
	}
}

func TestStaleness(t *testing.T) {
	th := DefaultStaleness()
	tests := []struct {
		typ  model.MemoryType
		age  int
		want Staleness
	}{
		{model.TypeProject, 1, StalenessFresh},
		{model.TypeProject, 2, StalenessAging},
		{model.TypeProject, 14, StalenessStale},
		{model.TypeUser, 89, StalenessFresh},
		{model.TypeUser, 90, StalenessAging},
		{model.TypeUser, 365, StalenessStale},
		{"weird", 7, StalenessAging},
	}
	for _, tt := range tests {
		if got := th.Classify(tt.typ, tt.age); got != tt.want {
			t.Errorf("Classify(%s, %d) = %s, want %s", tt.typ, tt.age, got, tt.want)
		}
	}
	user, err := ParseStaleness(" project=5:6 , untyped=0:1")
	if err != nil {
		t.Fatal(err)
	}
	if user[model.TypeProject] != (StalenessLimit{5, 6}) || user[model.TypeUser] != th[model.TypeUser] {
		t.Errorf("parsed %+v", user)
	}
	if got := user.Classify(model.TypeUntyped, 0); got != StalenessFresh {
		t.Errorf("aging 0 means never aging: %s", got)
	}
	for _, bad := range []string{"project", "project=1", "project=a:b", "project=5:4", "opinion=1:2", "project=-1:3"} {
		if _, err := ParseStaleness(bad); err == nil {
			t.Errorf("ParseStaleness(%q) accepted", bad)
		}
	}
}

// TestAge: Age is MemoryTime, AgeDays and Classify in one, with nil
// thresholds meaning the defaults.
func TestAge(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	mod := now.AddDate(0, 0, -20)
	f := &model.MemoryFile{Type: model.TypeProject, ModTime: now, Modified: &mod}
	custom := StalenessThresholds{model.TypeProject: {AgingDays: 30, StaleDays: 60}}
	for _, c := range []struct {
		th   StalenessThresholds
		want Staleness
	}{
		{nil, StalenessStale}, {DefaultStaleness(), StalenessStale}, {custom, StalenessFresh},
	} {
		a := c.th.Age(f, now)
		if !a.Written.Equal(mod) || a.Clock != ClockModified || a.Days != 20 || a.Staleness != c.want {
			t.Errorf("Age with %v = %+v, want 20 days by metadata.modified, %s", c.th, a, c.want)
		}
	}
}

// ParseStalenessOver starts from the settings file's thresholds, lets
// --stale change some, and leaves the base alone.
func TestParseStalenessOver(t *testing.T) {
	base := DefaultStaleness()
	base[model.TypeUser] = StalenessLimit{AgingDays: 1, StaleDays: 2}
	th, err := ParseStalenessOver(base, "project=3:4")
	if err != nil {
		t.Fatal(err)
	}
	if th[model.TypeUser] != (StalenessLimit{AgingDays: 1, StaleDays: 2}) || th[model.TypeProject] != (StalenessLimit{AgingDays: 3, StaleDays: 4}) {
		t.Errorf("thresholds %v", th)
	}
	if base[model.TypeProject] != DefaultStaleness()[model.TypeProject] {
		t.Error("the base was changed")
	}
}
