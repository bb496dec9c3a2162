package cli

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/engine/ledger"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// keepLost writes the items --keep names (B:ID, as --lost lists them)
// where --to says, through the store; `memscope undo` takes each back.
func keepLost(e *env, opts replayOptions, sf *sessionFile, tr *model.Transcript, l ledger.Ledger) ([]keptOut, error) {
	to, err := ledger.ParseTarget(opts.lost.to)
	if err != nil {
		return nil, usageError(err.Error())
	}
	items := make([]ledger.Item, 0, len(opts.lost.keep))
	for _, ref := range opts.lost.keep {
		it, err := lostItem(l, ref)
		if err != nil {
			return nil, usageError(err.Error())
		}
		items = append(items, it)
	}
	mt, done, err := openSessionMemory(e, &opts.home, sf, tr, "")
	if err != nil {
		return nil, err
	}
	defer done()
	in := ledger.KeepInput{Session: tr.Summary.SessionID, Project: mt.project, Memory: mt.store, Root: mt.root,
		HomeDir: mt.home.Dir, Writes: e.writer(), Options: memstore.WriteOptions{Now: e.now(), SessionID: tr.Summary.SessionID}}
	var out []keptOut
	for i, it := range items {
		k, err := ledger.Keep(it, to, in)
		if err != nil {
			return out, fmt.Errorf("keep %s: %w", opts.lost.keep[i], err)
		}
		out = append(out, keptOut{Ref: opts.lost.keep[i], Path: k.Path, Note: "undo with memscope undo (" + k.Change.ID + ")"})
	}
	return out, nil
}

// lostItem finds the item ref ("2:r1") names in l.
func lostItem(l ledger.Ledger, ref string) (ledger.Item, error) {
	bi, id, ok := strings.Cut(ref, ":")
	var n int
	if _, err := fmt.Sscanf(bi, "%d", &n); !ok || err != nil || n < 1 || n > len(l.Boundaries) {
		return ledger.Item{}, fmt.Errorf("--keep %s: want BOUNDARY:ID as --lost lists them (1:r2), with a boundary from 1 to %d", ref, len(l.Boundaries))
	}
	it, found := l.Boundaries[n-1].Item(id)
	if !found {
		return ledger.Item{}, fmt.Errorf("--keep %s: boundary %d lists no item %s", ref, n, id)
	}
	return it, nil
}
