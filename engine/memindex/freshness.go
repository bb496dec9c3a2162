package memindex

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// dayMillis is the client's day length for memory ages.
const dayMillis = 86_400_000

// FreshnessWarnAfterDays: a recalled memory this many days old or more is
// preceded by the freshness warning.
const FreshnessWarnAfterDays = 2

// MemoryClock says which time an age was measured from.
type MemoryClock string

// The clocks, best first.
const (
	// ClockModified is metadata.modified.
	ClockModified MemoryClock = "metadata.modified"
	// ClockMtime is the file's modification time.
	ClockMtime MemoryClock = "mtime"
)

// MemoryTime returns the time a memory was last written: metadata.modified
// when present (the better clock: copies and checkouts reset mtimes),
// else the file's mtime.
func MemoryTime(f *model.MemoryFile) (time.Time, MemoryClock) {
	if f.Modified != nil {
		return *f.Modified, ClockModified
	}
	return f.ModTime, ClockMtime
}

// AgeDays is floor((now − t) / 86 400 000 ms), never below 0 (a time in the
// future counts as today).
func AgeDays(t, now time.Time) int {
	ms := now.Sub(t).Milliseconds()
	if ms < 0 {
		return 0
	}
	return int(ms / dayMillis)
}

// FreshnessWarning is the text the client puts before a recalled memory
// that is 2 or more days old; empty for younger memories.
func FreshnessWarning(ageDays int) string {
	if ageDays < FreshnessWarnAfterDays {
		return ""
	}
	return fmt.Sprintf("This memory is %d days old. Memories are point-in-time observations, not live state — "+
		"claims about code behavior or file:line citations may be outdated. Verify against current code before asserting as fact.", ageDays)
}

// Staleness is a badge class for a memory's age.
type Staleness string

// The staleness classes.
const (
	StalenessFresh Staleness = "fresh"
	StalenessAging Staleness = "aging"
	StalenessStale Staleness = "stale"
)

// StalenessLimit holds the ages (in days) at which a memory of one type
// becomes aging and then stale.
type StalenessLimit struct {
	AgingDays int `json:"agingDays"`
	StaleDays int `json:"staleDays"`
}

// StalenessThresholds maps memory types to their limits. A type without an
// entry uses the untyped one.
type StalenessThresholds map[model.MemoryType]StalenessLimit

// DefaultStaleness is memscope's choice (the client has no such classes):
// project facts (deadlines, in-flight work) decay fast; user and feedback
// memories (preferences, corrections) slowly; references in between.
// Aging starts at 2 days for project memories, where the client's own
// freshness warning starts.
func DefaultStaleness() StalenessThresholds {
	return StalenessThresholds{
		model.TypeProject:   {AgingDays: 2, StaleDays: 14},
		model.TypeReference: {AgingDays: 30, StaleDays: 90},
		model.TypeFeedback:  {AgingDays: 60, StaleDays: 180},
		model.TypeUser:      {AgingDays: 90, StaleDays: 365},
		model.TypeUntyped:   {AgingDays: 7, StaleDays: 30},
	}
}

// ParseStaleness reads user thresholds "type=aging:stale,..." (for
// example "project=3:10,user=120:400") over the defaults. Types are the
// four memory types and "untyped".
func ParseStaleness(spec string) (StalenessThresholds, error) {
	return ParseStalenessOver(DefaultStaleness(), spec)
}

// ParseStalenessOver is ParseStaleness over base (the settings file's
// thresholds) instead of the defaults; base is not changed.
func ParseStalenessOver(base StalenessThresholds, spec string) (StalenessThresholds, error) {
	th := StalenessThresholds{}
	for t, l := range base {
		th[t] = l
	}
	if strings.TrimSpace(spec) == "" {
		return th, nil
	}
	for _, part := range strings.Split(spec, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		t := model.MemoryType(strings.TrimSpace(name))
		if _, known := th[t]; !ok || !known {
			return nil, fmt.Errorf("staleness %q: want type=aging:stale with type one of %s", part, staleTypeNames(th))
		}
		a, s, ok := strings.Cut(val, ":")
		ad, err1 := strconv.Atoi(strings.TrimSpace(a))
		sd, err2 := strconv.Atoi(strings.TrimSpace(s))
		if !ok || err1 != nil || err2 != nil || ad < 0 || sd < ad {
			return nil, fmt.Errorf("staleness %q: want two whole numbers of days, aging ≤ stale", part)
		}
		th[t] = StalenessLimit{AgingDays: ad, StaleDays: sd}
	}
	return th, nil
}

func staleTypeNames(th StalenessThresholds) string {
	var names []string
	for t := range th {
		names = append(names, string(t))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// Age is how old a memory is and what that makes it.
type Age struct {
	// Written is when the memory was last written, by Clock.
	Written   time.Time   `json:"written"`
	Clock     MemoryClock `json:"clock"`
	Days      int         `json:"days"`
	Staleness Staleness   `json:"staleness"`
}

// Age measures f at now: MemoryTime, AgeDays, then Classify by f's type.
// It is the one place a memory's age and staleness are computed, so lint,
// prune, recall, export and the Memories pane agree. Nil thresholds are
// the defaults.
func (th StalenessThresholds) Age(f *model.MemoryFile, now time.Time) Age {
	if th == nil {
		th = DefaultStaleness()
	}
	t, clock := MemoryTime(f)
	days := AgeDays(t, now)
	return Age{Written: t, Clock: clock, Days: days, Staleness: th.Classify(f.Type, days)}
}

// Classify returns the staleness class of a memory of type t and age days.
func (th StalenessThresholds) Classify(t model.MemoryType, ageDays int) Staleness {
	lim, ok := th[t]
	if !ok {
		lim = th[model.TypeUntyped]
	}
	switch {
	case lim.StaleDays > 0 && ageDays >= lim.StaleDays:
		return StalenessStale
	case lim.AgingDays > 0 && ageDays >= lim.AgingDays:
		return StalenessAging
	}
	return StalenessFresh
}
