package cli

import (
	"github.com/memscope/memscope/engine/loads"
)

// projectLoads reads what the transcripts of t's project (its startup
// folder's projects/ folder) say was loaded, against the next session's
// rules and imports, over the last days days (loads.DefaultDays when 0).
func projectLoads(t *memoryTarget, days int) loads.Report {
	return t.engine().Loads(days)
}
