package feed

import (
	"io/fs"
	"maps"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/retention"
)

// Retention feeds the Retention pane the cleanup forecast. The forecast
// walks the whole home, so it is read only while the pane is focused
// (Load), one read at a time; after a file change it is brought up to
// date from the files named (cleanup.Refresh reads those, and the whole
// home only when it must).
type Retention struct {
	// stale says the next Load reads the home again.
	stale   bool
	running bool
	// forecast is the last forecast read; names the files changed since,
	// for a refresh.
	forecast *cleanup.Forecast
	names    map[string]bool
	// vaultDir is the rescue vault whose coverage the forecast shows
	// ("" for none: the demo, or no vault folder).
	vaultDir string
}

// SetVaultDir names the rescue vault whose coverage each forecast shows
// (overview.FindPlaces).
func (r *Retention) SetVaultDir(dir string) { r.vaultDir = dir }

// MaxRefreshNames bounds the file names kept for a refresh: past it the
// next Load reads the home again.
const MaxRefreshNames = 4096

// RetentionLoaded is a forecast read by a Load.
type RetentionLoaded struct {
	forecast cleanup.Forecast
	earlier  model.EarlierCopies
}

// NewRetention returns a feed with nothing read: its first Load reads
// the home.
func NewRetention() *Retention { return &Retention{stale: true, names: map[string]bool{}} }

// Invalidate makes the next Load read the home again (ctrl+r).
func (r *Retention) Invalidate() {
	r.stale = true
	clear(r.names)
}

// Changed notes the files a batch of events named (relative to the
// home); all says the events could not be named. It reports whether the
// names overflowed the bound, so the next Load reads the home again.
func (r *Retention) Changed(names map[string]bool, all bool) (overflow bool) {
	if all || len(r.names)+len(names) > MaxRefreshNames {
		r.Invalidate()
		return true
	}
	if !r.stale {
		for n := range names {
			r.names[n] = true
		}
	}
	return false
}

// Running reports whether a read is under way.
func (r *Retention) Running() bool { return r.running }

// Forecast is the last forecast read (nil before the first).
func (r *Retention) Forecast() *cleanup.Forecast { return r.forecast }

// Load returns the read the pane needs now: the whole home when stale or
// never read, a refresh from the files changed since the last read, or
// nil (a read is running, or nothing changed). root is an fs.FS rooted
// at "/", for the managed policy file.
func (r *Retention) Load(home *model.Home, root fs.FS, now time.Time) tea.Cmd {
	if r.running {
		return nil
	}
	switch {
	case r.stale || r.forecast == nil:
		r.stale = false
		clear(r.names)
		r.running = true
		return forecastCmd(home, root, now, nil, nil, r.vaultDir)
	case len(r.names) > 0:
		names := slices.Sorted(maps.Keys(r.names))
		clear(r.names)
		r.running = true
		return forecastCmd(home, root, now, r.forecast, names, r.vaultDir)
	}
	return nil
}

// Loaded takes a read's result and returns the pane's message.
func (r *Retention) Loaded(msg RetentionLoaded) retention.ForecastMsg {
	r.running = false
	f := msg.forecast
	r.forecast = &f
	return retention.ForecastMsg{Forecast: msg.forecast, Earlier: msg.earlier}
}

// forecastCmd forecasts the home's sweeps as of now, as memscope cleanup
// --forecast does: from prev (an earlier forecast) and the files that
// changed since, when cleanup.Refresh can, else by reading the home;
// with what the rescue vault in vaultDir holds of it.
func forecastCmd(home *model.Home, root fs.FS, now time.Time, prev *cleanup.Forecast, changed []string, vaultDir string) tea.Cmd {
	return func() tea.Msg {
		st, probs := cleanup.Settings(root, home)
		o := cleanup.Options{Home: home, Settings: st, SettingsProblems: probs, Now: now}
		f, ok := cleanup.Forecast{}, false
		if prev != nil {
			f, ok = cleanup.Refresh(*prev, o, changed)
		}
		if !ok {
			f = cleanup.BuildForecast(o)
		}
		f.Vault = nil
		overview.CoverVault(&f, root, vaultDir)
		sf, _ := model.FindSessionFiles(home.FS)
		return RetentionLoaded{forecast: f, earlier: model.CountEarlierCopies(sf)}
	}
}

// Stale reports whether the next Load reads the home again.
func (r *Retention) Stale() bool { return r.stale }
