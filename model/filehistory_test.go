package model

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestParseFileHistoryRecordRealTranscript(t *testing.T) {
	f, err := os.Open("testdata/transcripts/transcript-interactive-pastes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lr := NewLineReader(f)
	var recs []FileHistoryRecord
	others := 0
	for {
		ln, ok := lr.Next()
		if !ok {
			break
		}
		rec, isFH, err := ParseFileHistoryRecord(ln.Bytes)
		if err != nil {
			t.Fatalf("line %d: %v", ln.Number, err)
		}
		if !isFH {
			others++
			continue
		}
		rec.Line = ln.Number
		recs = append(recs, rec)
	}
	if others != 37 || len(recs) != 4 {
		t.Fatalf("records = %d, others = %d; want 4 and 37", len(recs), others)
	}
	wantIDs := []string{"55629524-62ec-492b-a2f2-17b735401876", "a5db7eda-5428-4ac7-a8a8-d26bc987d208", "2706424c-a239-4dec-bcac-a0d15803cf35", "9f003366-48e4-4b0f-b044-af743cd8e4d9"}
	wantLines := []int{4, 28, 33, 39}
	for i, r := range recs {
		if r.Kind != FileHistorySnapshotRecord || r.MessageID != wantIDs[i] || r.Line != wantLines[i] || r.IsSnapshotUpdate || len(r.Files) != 0 {
			t.Errorf("record %d = %+v", i, r)
		}
	}
	if want := time.Date(2026, 11, 22, 11, 37, 23, 526e6, time.UTC); !recs[0].Timestamp.Equal(want) {
		t.Errorf("timestamp = %v, want %v", recs[0].Timestamp, want)
	}
	h := BuildFileHistory(recs)
	if len(h.Snapshots) != 4 || h.Snapshot(wantIDs[3]) == nil || len(h.TrackedPaths()) != 0 {
		t.Errorf("snapshots = %d, tracked %v", len(h.Snapshots), h.TrackedPaths())
	}
}

func TestParseFileHistoryRecordShapes(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		wantOK bool
		err    bool
		check  func(r FileHistoryRecord) bool
	}{
		{"snapshot", `{"type":"file-history-snapshot","messageId":"u1","snapshot":{"messageId":"u1","trackedFileBackups":{"src/app.txt":{"backupFileName":"4cc29875db509bba@v2","version":2,"backupTime":"2026-11-22T11:00:00Z","realParentDir":"/home/me/app/src"}},"timestamp":"2026-11-22T11:00:01Z"},"isSnapshotUpdate":false}`, true, false,
			func(r FileHistoryRecord) bool {
				b := r.Files["src/app.txt"]
				return r.Kind == FileHistorySnapshotRecord && r.MessageID == "u1" && b.BackupFileName == "4cc29875db509bba@v2" && b.Version == 2 &&
					!b.FileAbsent && b.RealParentDir == "/home/me/app/src" && b.BackupTime.Equal(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)) &&
					r.Timestamp.Equal(time.Date(2026, 11, 22, 11, 0, 1, 0, time.UTC))
			}},
		{"delta", `{"type":"file-history-delta","messageId":"a1","snapshotMessageId":"u1","trackingPath":"README.md","backup":{"backupFileName":"a308e70ddba4eca0@v1","version":1,"backupTime":"2026-11-22T11:00:02Z","realParentDir":"/home/me/app"},"timestamp":"2026-11-22T11:00:03Z"}`, true, false,
			func(r FileHistoryRecord) bool {
				return r.Kind == FileHistoryDeltaRecord && r.MessageID == "a1" && r.SnapshotMessageID == "u1" && r.TrackingPath == "README.md" &&
					r.Backup.BackupFileName == "a308e70ddba4eca0@v1" && r.Backup.Version == 1
			}},
		{"null backup", `{"type":"file-history-delta","messageId":"a1","snapshotMessageId":"u1","trackingPath":"new.txt","backup":{"backupFileName":null,"version":1,"backupTime":"x"}}`, true, false,
			func(r FileHistoryRecord) bool {
				return r.Backup.FileAbsent && r.Backup.BackupFileName == "" && r.Backup.BackupTime.IsZero() && r.Timestamp.IsZero()
			}},
		{"snapshot update, id only inside", `{"type":"file-history-snapshot","snapshot":{"messageId":"u9","trackedFileBackups":{}},"isSnapshotUpdate":true}`, true, false,
			func(r FileHistoryRecord) bool { return r.IsSnapshotUpdate && r.MessageID == "u9" && r.Files != nil }},
		{"other record", `{"type":"user","message":{"content":"what is file-history-snapshot?"},"snapshot":"not an object"}`, false, false, nil},
		{"no marker", `{"type":"assistant"}`, false, false, nil},
		{"no marker, not JSON", `garbage`, false, false, nil},
		{"broken JSON with marker", `{"type":"file-history-snapshot",`, false, true, nil},
		{"snapshot without snapshot", `{"type":"file-history-snapshot","messageId":"u1"}`, false, true, nil},
		{"snapshot without id", `{"type":"file-history-snapshot","snapshot":{"trackedFileBackups":{}}}`, false, true, nil},
		{"delta without backup", `{"type":"file-history-delta","messageId":"a","snapshotMessageId":"u","trackingPath":"x"}`, false, true, nil},
		{"delta with wrong types", `{"type":"file-history-delta","messageId":"a","snapshotMessageId":"u","trackingPath":"x","backup":{"version":"one"}}`, false, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok, err := ParseFileHistoryRecord([]byte(tt.line))
			if ok != tt.wantOK || (err != nil) != tt.err {
				t.Fatalf("ok=%v err=%v, want ok=%v err=%v", ok, err, tt.wantOK, tt.err)
			}
			if ok && !tt.check(r) {
				t.Errorf("record = %+v", r)
			}
		})
	}
}

func snap(id string, update bool, files map[string]FileBackup) FileHistoryRecord {
	return FileHistoryRecord{Kind: FileHistorySnapshotRecord, MessageID: id, IsSnapshotUpdate: update, Files: files}
}

func delta(snapID, p string, b FileBackup) FileHistoryRecord {
	return FileHistoryRecord{Kind: FileHistoryDeltaRecord, MessageID: "a-" + snapID, SnapshotMessageID: snapID, TrackingPath: p, Backup: b}
}

func backup(name string, v int, dir string) FileBackup {
	return FileBackup{BackupFileName: name, Version: v, RealParentDir: dir}
}

func absent(v int, dir string) FileBackup {
	return FileBackup{FileAbsent: true, Version: v, RealParentDir: dir}
}

// sessionRecords is a session in /home/me/app: prompt m1 edits README.md
// and creates new.txt; m2 edits src/app.txt; m3's snapshot never reached
// the file but its delta did (../app2/x created); late.txt lost its v1.
func sessionRecords() []FileHistoryRecord {
	return []FileHistoryRecord{
		snap("m1", false, nil),
		delta("m1", "README.md", backup("r@v1", 1, "/home/me/app")),
		delta("m1", "new.txt", absent(1, "/home/me/app")),
		snap("m2", false, map[string]FileBackup{
			"README.md": backup("r@v2", 2, "/home/me/app"),
			"new.txt":   backup("n@v2", 2, "/home/me/app"),
		}),
		delta("m2", "src/app.txt", backup("s@v1", 1, "/home/me/app/src")),
		delta("m3", "../app2/x", absent(1, "/home/me/app2")),
		delta("m3", "late.txt", backup("l@v2", 2, "")),
	}
}

func planString(steps []RestoreStep) string {
	var b strings.Builder
	for _, s := range steps {
		fmt.Fprintf(&b, "%s %s %s %s %v\n", s.TrackingPath, s.Action, s.Target, s.BackupPath, s.FromFirstVersion)
	}
	return b.String()
}

func TestFileHistoryRestorePlan(t *testing.T) {
	h := BuildFileHistory(sessionRecords())
	if got := len(h.Snapshots); got != 3 {
		t.Fatalf("snapshots = %d, want 3", got)
	}
	if m3 := h.Snapshot("m3"); !m3.Synthesized || len(m3.Files) != 5 || m3.Files["README.md"].BackupFileName != "r@v2" {
		t.Errorf("m3 should be m2 plus two deltas: %+v", m3)
	}
	tests := []struct {
		target string
		want   string
	}{
		{"m1", `../app2/x delete /home/me/app2/x  true
README.md restore /home/me/app/README.md file-history/sid/r@v1 false
late.txt leave /home/me/app/late.txt  false
new.txt delete /home/me/app/new.txt  false
src/app.txt restore /home/me/app/src/app.txt file-history/sid/s@v1 true
`},
		{"m2", `../app2/x delete /home/me/app2/x  true
README.md restore /home/me/app/README.md file-history/sid/r@v2 false
late.txt leave /home/me/app/late.txt  false
new.txt restore /home/me/app/new.txt file-history/sid/n@v2 false
src/app.txt restore /home/me/app/src/app.txt file-history/sid/s@v1 false
`},
		{"m3", `../app2/x delete /home/me/app2/x  false
README.md restore /home/me/app/README.md file-history/sid/r@v2 false
late.txt restore /home/me/app/late.txt file-history/sid/l@v2 false
new.txt restore /home/me/app/new.txt file-history/sid/n@v2 false
src/app.txt restore /home/me/app/src/app.txt file-history/sid/s@v1 false
`},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			steps, err := h.RestorePlan("sid", tt.target, "/home/me/app")
			if err != nil {
				t.Fatal(err)
			}
			if got := planString(steps); got != tt.want {
				t.Errorf("plan:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
	if _, err := h.RestorePlan("sid", "nope", "/"); err == nil {
		t.Error("unknown snapshot: no error")
	}
}

func TestBuildFileHistoryOrderings(t *testing.T) {
	tests := []struct {
		name string
		recs []FileHistoryRecord
		id   string
		want string // sorted "path=backup" pairs
	}{
		{"update replaces", []FileHistoryRecord{
			snap("m", false, map[string]FileBackup{"a": backup("a@v1", 1, "")}),
			snap("m", true, map[string]FileBackup{"b": backup("b@v1", 1, "")}),
		}, "m", "b=b@v1"},
		{"delta before its snapshot is kept", []FileHistoryRecord{
			delta("m", "a", backup("a@v1", 1, "")),
			snap("m", false, map[string]FileBackup{"b": backup("b@v1", 1, "")}),
		}, "m", "a=a@v1 b=b@v1"},
		{"snapshot entry wins over early delta", []FileHistoryRecord{
			delta("m", "a", backup("a@v1", 1, "")),
			snap("m", false, map[string]FileBackup{"a": backup("a@v2", 2, "")}),
		}, "m", "a=a@v2"},
		{"delta to missing snapshot copies previous", []FileHistoryRecord{
			snap("m1", false, map[string]FileBackup{"a": backup("a@v1", 1, "")}),
			delta("m2", "b", backup("b@v1", 1, "")),
		}, "m2", "a=a@v1 b=b@v1"},
		{"previous is not changed by the copy", []FileHistoryRecord{
			snap("m1", false, map[string]FileBackup{"a": backup("a@v1", 1, "")}),
			delta("m2", "b", backup("b@v1", 1, "")),
		}, "m1", "a=a@v1"},
		{"first delta without any snapshot", []FileHistoryRecord{
			delta("m", "a", absent(1, "")),
		}, "m", "a=<absent>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := BuildFileHistory(tt.recs).Snapshot(tt.id)
			if s == nil {
				t.Fatalf("no snapshot %s", tt.id)
			}
			var pairs []string
			for _, p := range sortedKeys(s.Files) {
				name := s.Files[p].BackupFileName
				if s.Files[p].FileAbsent {
					name = "<absent>"
				}
				pairs = append(pairs, p+"="+name)
			}
			if got := strings.Join(pairs, " "); got != tt.want {
				t.Errorf("files = %s, want %s", got, tt.want)
			}
		})
	}
}

func sortedKeys(m map[string]FileBackup) []string {
	h := &FileHistory{Snapshots: []*FileSnapshot{{Files: m}}}
	return h.TrackedPaths()
}

func TestBackupFileNames(t *testing.T) {
	// printf '/home/me/app/README.md' | sha256sum | cut -c1-16
	if got := BackupFileName("/home/me/app/README.md", 3); got != "652bdbcea5ae37b9@v3" {
		t.Errorf("BackupFileName = %s", got)
	}
	tests := []struct {
		name    string
		hash    string
		version int
		ok      bool
	}{
		{"652bdbcea5ae37b9@v3", "652bdbcea5ae37b9", 3, true},
		{"652bdbcea5ae37b9@v12", "652bdbcea5ae37b9", 12, true},
		{"652bdbcea5ae37b9@v", "", 0, false},
		{"652bdbcea5ae37b9@v03", "", 0, false},
		{"652bdbcea5ae37b@v1", "", 0, false},
		{"652BDBCEA5AE37B9@v1", "", 0, false},
		{"652bdbcea5ae37b9@v-1", "", 0, false},
		{"652bdbcea5ae37b9", "", 0, false},
	}
	for _, tt := range tests {
		h, v, ok := ParseBackupFileName(tt.name)
		if h != tt.hash || v != tt.version || ok != tt.ok {
			t.Errorf("%s: got %q %d %v", tt.name, h, v, ok)
		}
	}
}

func TestListFileHistory(t *testing.T) {
	fsys := fstest.MapFS{
		"file-history/s1/652bdbcea5ae37b9@v1": {Data: []byte("old"), Mode: 0o600},
		"file-history/s1/652bdbcea5ae37b9@v2": {Data: []byte("older!"), Mode: 0o644},
		"file-history/s1/notes.txt":           {Data: []byte("?")},
		"file-history/s2/aaaaaaaaaaaaaaaa@v1": {Data: []byte("x")},
		"file-history/stray":                  {Data: []byte("?")},
	}
	sessions, probs := ListFileHistory(fsys)
	if len(sessions) != 2 || sessions[0].SessionID != "s1" || len(sessions[0].Backups) != 2 || len(sessions[1].Backups) != 1 {
		t.Fatalf("sessions = %+v", sessions)
	}
	b := sessions[0].Backups[1]
	if b.Version != 2 || b.Size != 6 || b.Mode.Perm() != 0o644 || b.PathHash != "652bdbcea5ae37b9" || b.Path != "file-history/s1/652bdbcea5ae37b9@v2" {
		t.Errorf("backup = %+v", b)
	}
	if len(probs) != 2 || probs[0].File != "file-history/s1/notes.txt" || probs[1].File != "file-history/stray" {
		t.Errorf("problems = %+v", probs)
	}
	h := BuildFileHistory([]FileHistoryRecord{snap("m", false, map[string]FileBackup{"README.md": backup("652bdbcea5ae37b9@v1", 1, "")})})
	if un := h.Unreferenced(sessions[0].Backups); len(un) != 1 || un[0].Name != "652bdbcea5ae37b9@v2" {
		t.Errorf("unreferenced = %+v", un)
	}
	if s, p := ListFileHistory(fstest.MapFS{}); s != nil || p != nil {
		t.Errorf("missing folder: %v %v", s, p)
	}
}
