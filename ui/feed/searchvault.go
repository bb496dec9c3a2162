package feed

import (
	"context"
	"errors"
	"io/fs"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/model"
)

// The Search overlay (ctrl+f) covers the rescue vault as `memscope
// search --in transcripts,vault` does: after the home's stores, the
// sessions only the vault holds (those the sweep deleted) are searched
// with the same engine call (vault.SearchLost), their hits labelled
// "only in the vault".

// searchHomeAndVault runs the search o over the home, then over what only
// the vault in vaultDir ("" none) holds; send gets the hits of both in
// that order. No vault there is not a problem; a vault that cannot be
// read is one (the home's hits stand).
func searchHomeAndVault(ctx context.Context, o engsearch.Options, vaultDir string, home fs.FS, send func(engsearch.Batch) error) (engsearch.Summary, error) {
	sum, err := engsearch.Run(ctx, o, send)
	if err != nil || sum.Cancelled || vaultDir == "" || ctx.Err() != nil {
		return sum, err
	}
	vs, err := vault.Open(vaultDir, o.Root, nil).SearchLost(ctx, home, o, send)
	switch {
	case errors.Is(err, vault.ErrNoVault):
		return sum, nil
	case err != nil:
		sum.Problems = append(sum.Problems, model.Problem{File: vaultDir, Kind: model.ProblemUnreadable, Reason: "rescue vault: " + err.Error()})
		return sum, nil
	}
	sum.Add(vs)
	return sum, nil
}
