package cli

import (
	"time"

	"github.com/memscope/memscope/engine/cleanup"
)

// forecastFor forecasts o's sweeps (cleanup.ForecastHome). days < 0
// means "from the settings".
func forecastFor(o *opened, days, within int, now time.Time) cleanup.Forecast {
	var d *int
	if days >= 0 {
		d = &days
	}
	return cleanup.ForecastHome(o.root, o.home, d, within, now)
}
