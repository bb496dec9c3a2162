package cli

import (
	"time"

	"github.com/memscope/memscope/engine/cleanup"
)

// forecastFor reads the settings that decide the sweep (the home's
// settings.json and the managed policy file, through o.root) and
// forecasts. days < 0 means "from the settings".
func forecastFor(o *opened, days, within int, now time.Time) cleanup.Forecast {
	ro := cleanup.Options{Home: o.home, HorizonDays: within, Now: now}
	if days >= 0 {
		ro.Days = &days
	} else {
		ro.Settings, ro.SettingsProblems = cleanup.Settings(o.root, o.home)
	}
	return cleanup.BuildForecast(ro)
}
