package retention

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/model"
)

// ForecastLoaded carries a forecast to the pane (SetForecast).
type ForecastLoaded struct {
	Forecast cleanup.Forecast
}

// Load is a Cmd that reads the cleanup settings (root is an fs.FS rooted
// at "/", for the managed policy file) and forecasts the home's sweeps as
// of now, as memscope cleanup --forecast does.
func Load(home *model.Home, root fs.FS, now time.Time) tea.Cmd {
	return func() tea.Msg {
		st, probs := cleanup.Settings(root, home)
		return ForecastLoaded{Forecast: cleanup.BuildForecast(cleanup.Options{
			Home: home, Settings: st, SettingsProblems: probs, Now: now})}
	}
}

// RunArchive is a Cmd that carries out an ArchiveRequest with
// engine.Archive (a leading ~/ is the user's home folder; a relative
// destination is taken from the current folder) and reports ArchiveDone.
func RunArchive(home *model.Home, req ArchiveRequest) tea.Cmd {
	return func() tea.Msg {
		to := req.To
		if to == "~" || strings.HasPrefix(to, "~/") {
			if h, err := os.UserHomeDir(); err == nil {
				to = filepath.Join(h, to[1:])
			}
		}
		if abs, err := filepath.Abs(to); err == nil {
			to = abs
		}
		rep, err := cleanup.Archive(cleanup.ArchiveOptions{Home: home, Items: req.Items, To: to})
		return ArchiveDone{Report: rep, Err: err}
	}
}
