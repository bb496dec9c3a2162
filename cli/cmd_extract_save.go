package cli

import (
	"errors"
	"time"

	"github.com/memscope/memscope/engine/extract"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// saveCandidates creates each candidate in the store, with its index
// line, one journaled change each (so `memscope undo` takes them back one
// by one). A write the security scan blocks, or that fails, is reported
// and the others still go ahead.
func saveCandidates(store *memstore.Store, cs []extract.Candidate, now time.Time, force bool) savedMemories {
	out := savedMemories{Written: []writtenMemory{}, Failed: []failedWrite{}}
	for _, c := range cs {
		m := memstore.NewMemory{Name: c.Name, Type: c.Type.MemoryType(), Description: c.Description, Body: c.Body}
		ch, err := store.Create(m, memstore.WriteOptions{Now: now, SessionID: c.Provenance.SessionID, Force: force})
		if err != nil {
			f := failedWrite{Name: c.Name, Reason: err.Error()}
			var blocked *memstore.ScanBlockedError
			if errors.As(err, &blocked) {
				f.Blocked, f.Findings = true, blocked.Findings
			}
			out.Failed = append(out.Failed, f)
			continue
		}
		wm := writtenMemory{Name: c.Name, Type: m.Type, Change: ch.ID, Findings: ch.Findings}
		for _, f := range ch.Files {
			if f.Action == memstore.FileCreated && f.Path != model.MemoryIndexName {
				wm.Path = f.Path
			}
		}
		out.Written = append(out.Written, wm)
	}
	return out
}
