package ui

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	tea "charm.land/bubbletea/v2"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// The Search overlay (ctrl+f) covers the rescue vault as `memscope
// search --in transcripts,vault` does: after the home's stores, the
// sessions only the vault holds (those the sweep deleted) are searched
// with the same engine call (vault.SearchLost), their hits labelled
// "only in the vault". enter on one opens the vault's copy in the Replay
// pane read-only, as enter on a vault row of the Replay list does (r
// puts it back).

// searchHomeAndVault runs the search o over the home, then over what only
// the vault in vaultDir ("" none) holds; send gets the hits of both in
// that order. No vault there is not a problem; a vault that cannot be
// read is one (the home's hits stand).
func searchHomeAndVault(ctx context.Context, o engsearch.Options, vaultDir string, root, home fs.FS, send func(engsearch.Batch) error) (engsearch.Summary, error) {
	sum, err := engsearch.Run(ctx, o, send)
	if err != nil || sum.Cancelled || vaultDir == "" || ctx.Err() != nil {
		return sum, err
	}
	vs, err := vault.Open(vaultDir, root, nil).SearchLost(ctx, home, o, send)
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

// replayVaultAt opens the vault's copy of the transcript r names (a
// session the home lost) in the Replay pane at r's hit, read-only.
func (m *Model) replayVaultAt(r msgs.ReplayAt) tea.Cmd {
	return m.replayFrom(r, m.openLost())
}

// replayFrom is replayAt reading the transcript from what open returns
// (nil: the home; the rescue vault's copy for a search hit only it
// holds, searchvault.go).
func (m *Model) replayFrom(r msgs.ReplayAt, open func() (fs.FS, func(), error)) tea.Cmd {
	var cmds []tea.Cmd
	if parts := strings.Split(r.Path, "/"); len(parts) == 3 && parts[0] == "projects" && parts[1] != m.data.open {
		m.openProject(parts[1])
		cmds = append(cmds, m.loadOpenProject())
	}
	jump := r
	read := m.openTimelineCmd(r.Path, &jump)
	if open != nil {
		read = m.openTimelineFrom(r.Path, &jump, open)
	}
	cmds = append(cmds, read, m.setFocus(paneReplay))
	return tea.Batch(cmds...)
}
