package filehist

import (
	"bytes"
	"sort"
	"testing"

	"github.com/memscope/memscope/model"
)

// FuzzSessionFileHistory builds a session's file history from arbitrary
// transcripts: no panic; every touched file is a tracked file; versions
// are sorted; a missing backup is one the folder lacks; every turn has a
// restore plan whose steps cover every tracked path once.
func FuzzSessionFileHistory(f *testing.F) {
	f.Add([]byte(`{"type":"file-history-delta","messageId":"a","snapshotMessageId":"u","trackingPath":"x","backup":{"backupFileName":"0123456789abcdef@v1","version":1}}`), "0123456789abcdef@v2")
	f.Add([]byte(`{"type":"file-history-snapshot","messageId":"u","snapshot":{"messageId":"u","trackedFileBackups":{"/abs/y":{"backupFileName":null,"version":1}}}}`), "")
	f.Fuzz(func(t *testing.T, data []byte, backupName string) {
		tr, err := model.ReadFileHistoryTranscript(bytes.NewReader(data), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		folder := &model.FileHistorySession{SessionID: "s"}
		if h, v, ok := model.ParseBackupFileName(backupName); ok {
			folder.Backups = []model.FileHistoryBackup{{Name: backupName, Path: "file-history/s/" + backupName, PathHash: h, Version: v}}
		}
		s := BuildSessionFileHistory("s", "t.jsonl", tr, folder)
		tracked := map[string]bool{}
		for _, f := range s.Files {
			tracked[f.TrackingPath] = true
			if !sort.SliceIsSorted(f.Versions, func(i, j int) bool { return f.Versions[i].Version < f.Versions[j].Version }) {
				t.Fatalf("versions of %s not sorted: %+v", f.TrackingPath, f.Versions)
			}
		}
		for _, turn := range s.Turns {
			for _, tf := range turn.Touched {
				if !tracked[tf.TrackingPath] {
					t.Fatalf("turn %s touched untracked %q", turn.MessageID, tf.TrackingPath)
				}
			}
			steps, err := s.History.RestorePlan(s.SessionID, turn.MessageID, s.CWD)
			if err != nil {
				t.Fatalf("turn %s has no plan: %v", turn.MessageID, err)
			}
			if len(steps) != len(tracked) {
				t.Fatalf("plan covers %d of %d files", len(steps), len(tracked))
			}
		}
		for _, m := range s.Missing {
			if m.BackupFileName == backupName {
				t.Fatalf("backup %s is on disk but reported missing", backupName)
			}
		}
		if len(s.Turns) != len(s.History.Snapshots) {
			t.Fatalf("%d turns for %d snapshots", len(s.Turns), len(s.History.Snapshots))
		}
	})
}
