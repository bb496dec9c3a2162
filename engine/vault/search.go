package vault

import (
	"context"
	"io/fs"

	"github.com/memscope/memscope/engine/search"
)

// OnlyInVault labels what was read from the vault's copy of a file the
// home no longer has.
const OnlyInVault = search.VaultLabel

// SearchLost runs the search o over the session files only the vault
// holds (the home's lost transcripts, subagents and saved tool results:
// Lost(home)), with the search's own code; each hit is marked Vault and
// labelled OnlyInVault. o's Home, Root and Stores are replaced (the
// vault keeps no other store a search reads). `memscope search --in
// vault` and the app's search (ctrl+f) both run it. A folder without a
// vault is ErrNoVault.
func (v *Vault) SearchLost(ctx context.Context, home fs.FS, o search.Options, fn func(search.Batch) error) (search.Summary, error) {
	if err := v.Exists(); err != nil {
		return search.Summary{}, err
	}
	lost, err := v.Lost(home)
	if err != nil {
		return search.Summary{}, err
	}
	defer lost.Close()
	o.Home, o.Root, o.Stores = lost, nil, []search.Store{search.StoreTranscripts}
	return search.Run(ctx, o, func(b search.Batch) error {
		for i := range b.Hits {
			h := &b.Hits[i]
			h.Vault = true
			if h.Label == "" {
				h.Label = OnlyInVault
			} else {
				h.Label = OnlyInVault + ", " + h.Label
			}
		}
		return fn(b)
	})
}
