package cleanup

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
)

// DefaultCleanupPeriodDays is the client's cleanupPeriodDays when no
// settings file sets it.
const DefaultCleanupPeriodDays = 30

// DefaultHorizonDays is how far ahead a forecast looks when the
// caller does not say.
const DefaultHorizonDays = 30

// Kind names a store the client's cleanup sweeps.
type Kind string

// The stores cleanupPeriodDays sweeps, by mtime.
const (
	// KindTranscript is projects/<slug>/<session>.jsonl.
	KindTranscript Kind = "transcript"
	// KindSessionFile is a file in projects/<slug>/<session>/
	// (subagents/, tool-results/), swept by its own mtime.
	KindSessionFile Kind = "session-file"
	// KindPaste is paste-cache/<hash>.txt.
	KindPaste Kind = "paste-cache"
	// KindFileHistory is a file-history/<session> folder, swept whole
	// by the folder's mtime.
	KindFileHistory Kind = "file-history"
	// KindDebug is a file under debug/.
	KindDebug Kind = "debug"
	// KindShellSnapshot is a file under shell-snapshots/.
	KindShellSnapshot Kind = "shell-snapshots"
	// KindPlan is a file under plans/.
	KindPlan Kind = "plans"
	// KindTodo is a file under todos/.
	KindTodo Kind = "todos"
	// KindBackup is a file under backups/.
	KindBackup Kind = "backups"
	// KindImageCache is an image-cache/<session> folder: 2.1.331 removes
	// every one but the folder of the session that runs the sweep,
	// whatever its age.
	KindImageCache Kind = "image-cache"
	// KindSkillArchive is a file under mcp-skill-archives/, which 2.1.331
	// empties on every sweep.
	KindSkillArchive Kind = "skill-archive"
	// KindGrowthTest is a state/growth-test-<name>.json file, swept by
	// its mtime (2.1.331).
	KindGrowthTest Kind = "growth-test"
	// KindRepeatDays is state/repeat-command-days.json, swept when older
	// than min(15, cleanupPeriodDays) days (2.1.332).
	KindRepeatDays Kind = "repeat-command-days"
	// KindRepeatMark is state/repeat-command-mark.json, swept by the
	// period (2.1.332); repeat-command-never.json stays.
	KindRepeatMark Kind = "repeat-command-mark"
)

// repeatDaysCap caps the period of state/repeat-command-days.json.
const repeatDaysCap = 15

// PeriodDays is the age in days at which the sweep deletes an item of
// kind k, for a sweep period of days.
func (k Kind) PeriodDays(days int) int {
	if k == KindRepeatDays {
		return min(repeatDaysCap, days)
	}
	return days
}

// Kinds lists the swept kinds in report order.
func Kinds() []Kind {
	return []Kind{KindTranscript, KindSessionFile, KindPaste, KindFileHistory,
		KindDebug, KindShellSnapshot, KindPlan, KindTodo, KindBackup,
		KindImageCache, KindSkillArchive, KindGrowthTest, KindRepeatDays, KindRepeatMark}
}

// EverySweep reports whether the sweep deletes items of kind k whatever
// their age (image caches of other sessions, skill archives): they are
// eligible now.
func (k Kind) EverySweep() bool { return k == KindImageCache || k == KindSkillArchive }

// State says whether the client's sweep runs at all.
type State string

// The sweep states.
const (
	// StateActive: the sweep runs when the client starts and deletes
	// what is older than the period.
	StateActive State = "active"
	// StateDisabled: nothing is swept (a --days 0 what-if).
	StateDisabled State = "disabled"
	// StateSkipped: a settings file cannot be read or parsed, or sets
	// cleanupPeriodDays below 1 (the settings schema requires at least 1,
	// so the settings are invalid), and the client skips the sweep rather
	// than guess the period.
	StateSkipped State = "skipped"
)

// Bucket places an item on the forecast's time line.
type Bucket string

// The buckets of a forecast.
const (
	// BucketNow: already older than the period; the next sweep deletes it.
	BucketNow Bucket = "now"
	// BucketSoon: eligible within the horizon.
	BucketSoon Bucket = "soon"
	// BucketLater: eligible after the horizon.
	BucketLater Bucket = "later"
	// BucketNever: the sweep is disabled or skipped.
	BucketNever Bucket = "never"
)

// Item is one thing the sweep deletes: a file, or a folder swept
// whole (file-history/<session>).
type Item struct {
	// Path is slash-separated and relative to the home.
	Path string `json:"path"`
	Kind Kind   `json:"kind"`
	// Dir is set for a folder swept whole.
	Dir bool `json:"dir,omitempty"`
	// Files counts the files the item holds (1 for a file).
	Files int   `json:"files"`
	Size  int64 `json:"size"`
	// ModTime is what the sweep goes by (the folder's own mtime for Dir).
	ModTime time.Time `json:"modTime"`
	// Eligible is ModTime plus the period: from then on the sweep
	// deletes the item. Zero when the sweep is disabled or skipped.
	Eligible time.Time `json:"eligible,omitzero"`
	// DaysLeft counts calendar days (in now's time zone) from now to
	// Eligible; 0 for today or already eligible.
	DaysLeft int    `json:"daysLeft"`
	Bucket   Bucket `json:"bucket"`
	// Session is the session the item belongs to, when known.
	Session model.SessionID `json:"session,omitempty"`
	// Project is the project folder (slug) for transcripts and session files.
	Project string `json:"project,omitempty"`
	// Vaulted is set when memscope's rescue vault holds the file as it
	// is (CoverVault): the sweep may delete it, a restore brings it back.
	Vaulted bool `json:"vaulted,omitempty"`
}

// Count is a number of items and their bytes.
type Count struct {
	Items int   `json:"items"`
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// Total sums the items of one kind (or all kinds) per bucket.
type Total struct {
	// Kind is empty for the overall total.
	Kind  Kind  `json:"kind,omitempty"`
	All   Count `json:"all"`
	Now   Count `json:"now"`
	Soon  Count `json:"soon"`
	Later Count `json:"later"`
}

// DanglingPaste is a history line whose paste lives in a paste-cache
// file the sweep will delete: afterwards the line points at nothing.
type DanglingPaste struct {
	// File is the history file, Line its 1-based line.
	File      string          `json:"file"`
	Line      int             `json:"line"`
	PasteID   model.PasteID   `json:"pasteId"`
	Hash      model.PasteHash `json:"hash"`
	PastePath string          `json:"pastePath"`
	Project   string          `json:"project,omitempty"`
	SessionID model.SessionID `json:"sessionId,omitempty"`
	// Eligible, DaysLeft and Bucket are the paste file's.
	Eligible time.Time `json:"eligible"`
	DaysLeft int       `json:"daysLeft"`
	Bucket   Bucket    `json:"bucket"`
}

// NeverSweptKind names a store the sweep leaves alone.
type NeverSweptKind string

// The stores cleanup never deletes.
const (
	// NeverSweptHistory is history.jsonl: no cleanupPeriodDays sweep
	// deletes it, but an organisation's retention policy (a HIPAA
	// configuration of the Claude organisation, applied by the client and
	// not visible in any local file) prunes it; see HistoryKeptNote.
	NeverSweptHistory NeverSweptKind = "history"
	NeverSweptMemory  NeverSweptKind = "memory"
	// NeverSweptMemscope is memscope's own folder in the home (the bytes
	// file-history restores replaced, for their undo): the client's sweep
	// only deletes the folders it names.
	NeverSweptMemscope NeverSweptKind = "memscope"
)

// HistoryKeptNote says how far "never swept" holds for history.jsonl:
// memscope cannot see an organisation's retention policy.
const HistoryKeptNote = "kept unless your organisation's retention policy (a HIPAA configuration) prunes it"

// NeverSwept is a store the sweep leaves alone, with its size.
type NeverSwept struct {
	Path  string         `json:"path"`
	Kind  NeverSweptKind `json:"kind"`
	Files int            `json:"files"`
	Size  int64          `json:"size"`
}

// Forecast is what the client's next sweeps delete and when.
type Forecast struct {
	Home string    `json:"home"`
	Now  time.Time `json:"now"`
	// State says whether the sweep runs; Reason explains a state other
	// than active.
	State  State  `json:"state"`
	Reason string `json:"reason,omitempty"`
	// PeriodDays is cleanupPeriodDays in effect; PeriodFrom says where it
	// came from ("default", a settings file, or "--days").
	PeriodDays  int    `json:"periodDays"`
	PeriodFrom  string `json:"periodFrom"`
	HorizonDays int    `json:"horizonDays"`
	// Items are sorted by Eligible (ModTime when never), then Path.
	Items []Item `json:"items"`
	// Totals has one entry per kind in RetentionKinds order.
	Totals  []Total `json:"totals"`
	Overall Total   `json:"overall"`
	// Dangling are the history lines that will point at a swept paste,
	// by Eligible then line.
	Dangling []DanglingPaste `json:"dangling"`
	// AlreadyMissing counts history references whose paste is gone now
	// (Lost.Pastes lists them).
	AlreadyMissing int `json:"alreadyMissing"`
	// Lost is what earlier sweeps already deleted that history still
	// names: sessions without a transcript, pastes without their text.
	Lost       Lost         `json:"lost"`
	NeverSwept []NeverSwept `json:"neverSwept"`
	// Problems are the files and lines that could not be read.
	Problems []model.Problem `json:"problems"`
	// Cut, when set, says the lists above were cut to their first
	// entries (Forecast.Cut) and how long each was.
	Cut *ListLengths `json:"cut,omitempty"`
	// Vault is what memscope's rescue vault holds of what the sweep
	// deletes; nil when there is no vault.
	Vault *VaultCoverage `json:"vault,omitempty"`

	// scanProblems are the listing's problems, hist where the read of
	// history.jsonl stopped (nil when it could not be read): what Refresh
	// goes on from.
	scanProblems []model.Problem
	hist         *historyRead
}

// ListLengths are the lengths of a forecast's lists before Cut.
type ListLengths struct {
	Limit        int `json:"limit"`
	Items        int `json:"items"`
	Dangling     int `json:"dangling"`
	LostSessions int `json:"lostSessions"`
	LostPastes   int `json:"lostPastes"`
}

// CutLists keeps the first limit entries of each list (items, dangling
// history lines, lost sessions and pastes) and records their lengths in
// Cut: a summary, whose totals stay whole. On a home with years of
// history the lists are most of the forecast (tens of MB of JSON, most
// of it lost sessions); limit 0 keeps everything.
func (f Forecast) CutLists(limit int) Forecast {
	if limit <= 0 {
		return f
	}
	f.Cut = &ListLengths{Limit: limit, Items: len(f.Items), Dangling: len(f.Dangling), LostSessions: len(f.Lost.Sessions), LostPastes: len(f.Lost.Pastes)}
	f.Items = f.Items[:min(limit, len(f.Items))]
	f.Dangling = f.Dangling[:min(limit, len(f.Dangling))]
	f.Lost.Sessions = f.Lost.Sessions[:min(limit, len(f.Lost.Sessions))]
	f.Lost.Pastes = f.Lost.Pastes[:min(limit, len(f.Lost.Pastes))]
	return f
}

// Options say which home to forecast and with which settings.
type Options struct {
	Home *model.Home
	// Settings are the settings files the client reads (user, managed).
	Settings model.SettingsStack
	// SettingsProblems are the problems reading them; any one makes the
	// client skip the sweep.
	SettingsProblems []model.Problem
	// Days, when set, replaces cleanupPeriodDays (a what-if); the
	// settings are then not consulted.
	Days *int
	// HorizonDays is how far ahead "soon" reaches (default
	// DefaultRetentionHorizonDays).
	HorizonDays int
	Now         time.Time
	// History, when set, is history.jsonl as a reader already holds it
	// (the app's History feed): the entries and problems of its complete
	// lines, read whole (Full) and then as appended, up to Tail.State.
	// The forecast reads only what follows Tail.State (HistoryTail.Pending)
	// instead of the whole file, and answers as a whole read would. nil:
	// it reads history.jsonl itself.
	History *model.HistoryRead
}

// BuildForecast works out what the client's cleanup sweeps delete:
// everything of a swept kind whose mtime is older than the period is
// deleted at the next start of the client, the rest on the day it gets
// that old. Nothing is written.
func BuildForecast(o Options) Forecast {
	f := Forecast{Home: o.Home.Dir, Now: o.Now, HorizonDays: o.HorizonDays}
	if f.HorizonDays <= 0 {
		f.HorizonDays = DefaultHorizonDays
	}
	f.State, f.PeriodDays, f.PeriodFrom, f.Reason = retentionPeriod(o)

	items, never, probs := scanRetention(o.Home.FS)
	// Empty lists print as [] in JSON, not null.
	if items == nil {
		items = []Item{}
	}
	if never == nil {
		never = []NeverSwept{}
	}
	placeItems(items, f)
	f.Items, f.NeverSwept = items, never
	f.Totals, f.Overall = retentionTotals(items)
	var hp []model.Problem
	f.Dangling, f.Lost, hp, f.hist = danglingPastes(o.Home.FS, items, o.History)
	f.AlreadyMissing = len(f.Lost.Pastes)
	f.scanProblems = probs
	f.Problems = forecastProblems(f, o, probs, hp)
	return f
}

// BuildSessionsForecast is BuildForecast of the transcripts alone: what
// the Overview's Cleanup, Vault and Lost lines take of a forecast. It
// lists projects/ and each project's folder, and nothing else of the
// home (no session folder, memory folder, paste, backup or other swept
// store is walked), and reads history.jsonl (o.History and what follows
// it) only for the sessions it names without a transcript. Items are the
// transcripts, placed as BuildForecast places them; Totals hold them
// alone; Lost.Sessions and Lost.Unattributed are BuildForecast's;
// Dangling, Lost.Pastes and NeverSwept are empty (not looked for), and
// Problems are those of what was read.
func BuildSessionsForecast(o Options) Forecast {
	f := Forecast{Home: o.Home.Dir, Now: o.Now, HorizonDays: o.HorizonDays}
	if f.HorizonDays <= 0 {
		f.HorizonDays = DefaultHorizonDays
	}
	f.State, f.PeriodDays, f.PeriodFrom, f.Reason = retentionPeriod(o)
	var probs []model.Problem
	items, _ := scanProjects(o.Home.FS, &probs, []Item{}, nil, true)
	placeItems(items, f)
	f.Items, f.NeverSwept, f.Dangling = items, []NeverSwept{}, []DanglingPaste{}
	f.Totals, f.Overall = retentionTotals(items)
	var hp []model.Problem
	f.Lost, hp = lostOnly(o.Home.FS, items, o.History)
	f.scanProblems = probs
	f.Problems = forecastProblems(f, o, probs, hp)
	return f
}

// ForecastSessionsWith is ForecastHomeWith for BuildSessionsForecast.
func ForecastSessionsWith(root fs.FS, o Options) Forecast {
	if o.Days == nil {
		o.Settings, o.SettingsProblems = Settings(root, o.Home)
	}
	return BuildSessionsForecast(o)
}

// placeItems places every item for f's period and now, and sorts them by
// Eligible (ModTime when never), then Path.
func placeItems(items []Item, f Forecast) {
	for i := range items {
		placeItem(&items[i], f)
	}
	// slices' stable sort is sort.SliceStable's algorithm on the items
	// themselves, without the reflection that swapped them (15 000 items
	// of 160 bytes on W: a third of the forecast's time): the same order.
	slices.SortStableFunc(items, func(x, y Item) int {
		a, b := x.Eligible, y.Eligible
		if a.IsZero() {
			a, b = x.ModTime, y.ModTime
		}
		if !a.Equal(b) {
			if a.Before(b) {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Path, y.Path)
	})
}

// forecastProblems are the listing's and history's problems, and the
// settings' when they made the client skip the sweep, sorted.
func forecastProblems(f Forecast, o Options, scan, hist []model.Problem) []model.Problem {
	probs := sessions.SortProblems(append(slices.Clone(scan), hist...))
	if f.State == StateSkipped {
		probs = sessions.SortProblems(append(probs, o.SettingsProblems...))
	}
	return probs
}

// Settings loads the settings files the sweep depends on: the
// home's settings.json and the managed policy file (root is an fs.FS
// rooted at "/"; the home is read through its own FS). The sweep runs for
// the whole home whatever folder the client starts in, so a project's own
// settings are left out.
func Settings(root fs.FS, home *model.Home) (model.SettingsStack, []model.Problem) {
	return model.LoadSettings(model.MountFS(root, home.Dir, home.FS), home.Dir, "", model.ManagedDir)
}

// ForecastHome forecasts the sweeps of home as `memscope cleanup
// --forecast` does: with the settings that decide them (Settings, read
// through root) or, when days is set, that what-if period; within is how
// many days ahead "soon" reaches.
func ForecastHome(root fs.FS, home *model.Home, days *int, within int, now time.Time) Forecast {
	return ForecastHomeWith(root, Options{Home: home, HorizonDays: within, Now: now, Days: days})
}

// ForecastHomeWith is ForecastHome for the options o (Home, Days,
// HorizonDays, Now, History): the settings are read through root unless
// o.Days is set.
func ForecastHomeWith(root fs.FS, o Options) Forecast {
	if o.Days == nil {
		o.Settings, o.SettingsProblems = Settings(root, o.Home)
	}
	return BuildForecast(o)
}

// SweepPeriod is the sweep's state and cleanupPeriodDays for home as its
// settings decide them (Settings, read through root), without listing
// the home as ForecastHome does.
func SweepPeriod(root fs.FS, home *model.Home) (State, int) {
	o := Options{Home: home}
	o.Settings, o.SettingsProblems = Settings(root, home)
	state, days, _, _ := retentionPeriod(o)
	return state, days
}

// retentionPeriod decides the sweep's state and period from the options.
func retentionPeriod(o Options) (state State, days int, from, reason string) {
	if o.Days != nil {
		days, from = max(*o.Days, 0), "--days"
	} else {
		if len(o.SettingsProblems) > 0 {
			return StateSkipped, DefaultCleanupPeriodDays, "default",
				"the settings cannot be read (" + o.SettingsProblems[0].Error() + "); the client skips the sweep until they are fixed"
		}
		days, from = DefaultCleanupPeriodDays, "default"
		for i := len(o.Settings) - 1; i >= 0; i-- {
			if v := o.Settings[i].CleanupPeriodDays; v != nil {
				days, from = *v, o.Settings[i].Path
				break
			}
		}
	}
	switch {
	case days < 1 && from == "--days":
		return StateDisabled, 0, from, "--days 0: nothing is swept"
	case days < 1:
		return StateSkipped, days, from, fmt.Sprintf("cleanupPeriodDays is %d in %s: the settings schema requires at least 1, so the client finds the settings invalid and skips the sweep (nothing is deleted) until it is fixed", days, from)
	}
	return StateActive, days, from, ""
}

// placeItem sets an item's eligibility from the forecast's period.
func placeItem(it *Item, f Forecast) {
	if f.State != StateActive {
		it.Bucket = BucketNever
		return
	}
	if it.Kind.EverySweep() {
		it.Eligible, it.DaysLeft, it.Bucket = f.Now, 0, BucketNow
		return
	}
	it.Eligible = it.ModTime.Add(time.Duration(it.Kind.PeriodDays(f.PeriodDays)) * 24 * time.Hour)
	it.DaysLeft, it.Bucket = placeTime(it.Eligible, f.Now, f.HorizonDays)
}

// placeTime buckets an eligibility time. The client deletes what has an
// mtime before now minus the period, so an item is eligible now once its
// Eligible time has passed.
func placeTime(eligible, now time.Time, horizon int) (int, Bucket) {
	if eligible.Before(now) {
		return 0, BucketNow
	}
	days := calendarDays(now, eligible)
	if !eligible.After(now.Add(time.Duration(horizon) * 24 * time.Hour)) {
		return days, BucketSoon
	}
	return days, BucketLater
}

// calendarDays counts the dates from a to b in a's time zone.
func calendarDays(a, b time.Time) int {
	b = b.In(a.Location())
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}

func retentionTotals(items []Item) ([]Total, Total) {
	kinds := Kinds()
	idx := make(map[Kind]int, len(kinds))
	totals := make([]Total, len(kinds))
	for i, k := range kinds {
		idx[k] = i
		totals[i].Kind = k
	}
	var all Total
	for _, it := range items {
		totals[idx[it.Kind]].add(it)
		all.add(it)
	}
	return totals, all
}

func (c *Count) add(it Item) {
	c.Items++
	c.Files += it.Files
	c.Bytes += it.Size
}

func (t *Total) add(it Item) {
	t.All.add(it)
	switch it.Bucket {
	case BucketNow:
		t.Now.add(it)
	case BucketSoon:
		t.Soon.add(it)
	case BucketLater:
		t.Later.add(it)
	case BucketNever:
	}
}
