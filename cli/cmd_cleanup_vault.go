package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// coverVault says in f which of the files the sweep deletes the rescue
// vault (the default one: $MEMSCOPE_VAULT, else the data folder) holds.
// Without a vault, f is left as it is.
func coverVault(e *env, o *opened, f *cleanup.Forecast) {
	overview.CoverVault(f, e.root, overview.FindPlaces(e.getenv, e.userHome, o.home, o.demo != nil).VaultDir)
}

// printVaultCoverage says which transcripts the sweep deletes are safe
// in the vault.
func printVaultCoverage(w io.Writer, c *cleanup.VaultCoverage, loc *time.Location) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "\nrescue vault %s (last sync %s)\n", model.SanitizeLine(c.Dir), c.LastSync.In(loc).Format("2006-01-02 15:04"))
	fmt.Fprintf(w, "  kept as they are: %d of the %s the sweep deletes now or within the horizon\n", c.Kept, format.Count(c.Sessions, "transcript", "transcripts"))
	if len(c.NotKept) > 0 {
		fmt.Fprintln(w, "  memscope vault sync keeps the others")
	}
}
