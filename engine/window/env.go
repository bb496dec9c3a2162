package window

import (
	"strconv"
	"strings"
)

// EnvAutocompactPct is the client's variable that lowers the autocompact
// threshold to a percentage of the effective window.
const EnvAutocompactPct = "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"

// WithEnv returns w with the autocompact override read through getenv
// (nil reads nothing), applied as the client applies it: a whole number
// from 1 to 99; anything else is ignored (see AutocompactAt).
func (w Config) WithEnv(getenv func(string) string) Config {
	if getenv == nil {
		return w
	}
	pct, _ := strconv.Atoi(strings.TrimSpace(getenv(EnvAutocompactPct)))
	w.AutocompactPct = pct
	return w
}
