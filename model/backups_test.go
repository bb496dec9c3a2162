package model

import (
	"testing"
	"testing/fstest"
	"time"
)

func TestListConfigBackups(t *testing.T) {
	fsys := fstest.MapFS{
		"backups/.claude.json.backup.1795345790406": {Data: []byte("{}")},
		"backups/.claude.json.backup.1795345850000": {Data: []byte(`{"a":1}`)},
		"backups/.claude.json.backup.soon":          {Data: []byte("{}")},
		"backups/other":                             {Data: []byte("{}")},
	}
	got, probs := ListConfigBackups(fsys)
	if len(got) != 2 || got[0].Size != 7 || !got[0].Taken.Equal(time.Date(2026, 11, 22, 11, 10, 50, 0, time.UTC)) || got[1].Path != "backups/.claude.json.backup.1795345790406" {
		t.Errorf("backups = %+v", got)
	}
	if len(probs) != 2 || probs[0].File != "backups/.claude.json.backup.soon" || probs[1].File != "backups/other" {
		t.Errorf("problems = %+v", probs)
	}
	if g, p := ListConfigBackups(fstest.MapFS{}); g != nil || p != nil {
		t.Errorf("no folder: %v %v", g, p)
	}
}
