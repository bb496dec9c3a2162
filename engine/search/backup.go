package search

import (
	"context"
	"path"
	"sync"

	"github.com/memscope/memscope/model"
)

// A file-history backup is named by the hash of the path it backs up;
// the session's transcript says which path that is, in its
// file-history-snapshot and file-history-delta records. A hit in a
// backup names that file: the transcript is read for those records once
// per session, and only for sessions with a hit.

// backupPaths are the paths each session's backups are of, by
// transcript then backup name.
type backupPaths struct {
	mu sync.Mutex
	by map[string]map[string]string
}

// historyFinder finds the lines that may be file-history records.
var historyFinder = newFinder([]byte("file-history-"), false)

// backupOf is the path of the file backup unit u backs up ("" when its
// transcript does not say): absolute, or relative to the session's
// project folder when the client tracked it so and the folder is not
// known.
func (w *worker) backupOf(ctx context.Context, u *unit) string {
	if u.transcript == "" || w.backups == nil {
		return ""
	}
	b := w.backups
	b.mu.Lock()
	names, ok := b.by[u.transcript]
	b.mu.Unlock()
	if !ok {
		names = map[string]string{}
		add := func(tracking string, fb model.FileBackup) {
			if fb.BackupFileName == "" {
				return
			}
			if !path.IsAbs(tracking) && path.IsAbs(u.project) {
				tracking = path.Join(u.project, tracking)
			}
			names[fb.BackupFileName] = tracking
		}
		var res result
		t := &unit{fsys: u.fsys, name: u.transcript, file: u.transcript}
		w.scanLines(ctx, t, &res, lineScan{finds: []anchor{historyFinder}}, func(line []byte, _ int) {
			rec, ok, _ := model.ParseFileHistoryRecord(line)
			if !ok {
				return
			}
			for p, fb := range rec.Files {
				add(p, fb)
			}
			if rec.TrackingPath != "" {
				add(rec.TrackingPath, rec.Backup)
			}
		})
		b.mu.Lock()
		b.by[u.transcript] = names
		b.mu.Unlock()
	}
	return model.SanitizeLine(names[u.backup])
}
