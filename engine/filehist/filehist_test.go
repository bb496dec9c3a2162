package filehist

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/model"
)

var fhT0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// genFileHistory writes the generated home and reads its session.
func genFileHistory(t *testing.T) (filehistgen.Layout, *model.Home, SessionFileHistory) {
	t.Helper()
	l, err := filehistgen.Write(t.TempDir(), fhT0)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSessionFileHistory(home.FS, filehistgen.SessionID, l.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	return l, home, s
}

func touchedString(ts []TurnFile) string {
	var parts []string
	for _, f := range ts {
		v := fmt.Sprintf("v%d", f.Version)
		if f.Absent {
			v += "(null)"
		}
		parts = append(parts, fmt.Sprintf("%s %s %s", f.How, f.TrackingPath, v))
	}
	return strings.Join(parts, ", ")
}

func TestSessionFileHistoryTurns(t *testing.T) {
	_, _, s := genFileHistory(t)
	want := []struct {
		id, prompt  string
		synthesized bool
		tracked     int
		touched     string
	}{
		{filehistgen.U1, "Fix the README", false, 2, "edited README.md v1, edited new.txt v1(null)"},
		{filehistgen.U2, "Now edit the app", false, 3, "backed-up README.md v2, backed-up new.txt v2, edited src/app.go v1"},
		{filehistgen.U3, "Take notes in app2", true, 4, "edited ../app2/notes.txt v1, edited README.md v3"},
		{filehistgen.U4, "One more pass", false, 4, "backed-up src/app.go v2"},
	}
	if len(s.Turns) != len(want) {
		t.Fatalf("turns = %+v", s.Turns)
	}
	for i, w := range want {
		got := s.Turns[i]
		if got.MessageID != w.id || got.Prompt != w.prompt || got.Synthesized != w.synthesized || got.Tracked != w.tracked {
			t.Errorf("turn %d = %+v, want %+v", i, got, w)
		}
		if g := touchedString(got.Touched); g != w.touched {
			t.Errorf("turn %d touched = %s\nwant %s", i, g, w.touched)
		}
		if got.PromptLine == 0 || got.Time.IsZero() {
			t.Errorf("turn %d has no prompt line or time: %+v", i, got)
		}
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems = %v", s.Problems)
	}
}

func versionsString(f TrackedFile) string {
	var parts []string
	for _, v := range f.Versions {
		p := fmt.Sprintf("v%d", v.Version)
		switch {
		case v.Absent:
			p += ":null"
		case !v.BackupExists:
			p += ":missing"
		case v.Unreferenced:
			p += fmt.Sprintf(":unreferenced:%d", v.Size)
		default:
			p += fmt.Sprintf(":%d", v.Size)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func TestSessionFileHistoryFiles(t *testing.T) {
	l, _, s := genFileHistory(t)
	want := map[string]string{
		"../app2/notes.txt": fmt.Sprintf("v1:%d", len(filehistgen.Versions["../app2/notes.txt"][1])),
		"README.md":         fmt.Sprintf("v1:%d v2:%d v3:missing", len(filehistgen.Versions["README.md"][1]), len(filehistgen.Versions["README.md"][2])),
		"new.txt":           fmt.Sprintf("v1:null v2:%d", len(filehistgen.Versions["new.txt"][2])),
		"src/app.go": fmt.Sprintf("v1:%d v2:%d v3:unreferenced:%d", len(filehistgen.Versions["src/app.go"][1]),
			len(filehistgen.Versions["src/app.go"][2]), len(filehistgen.Versions["src/app.go"][3])),
	}
	if len(s.Files) != len(want) {
		t.Fatalf("files = %+v", s.Files)
	}
	for _, f := range s.Files {
		if got := versionsString(f); got != want[f.TrackingPath] {
			t.Errorf("%s versions = %s, want %s", f.TrackingPath, got, want[f.TrackingPath])
		}
		if f.Target != l.Abs(f.TrackingPath) {
			t.Errorf("%s target = %s, want %s", f.TrackingPath, f.Target, l.Abs(f.TrackingPath))
		}
	}
	if len(s.Missing) != 1 || s.Missing[0].TrackingPath != "README.md" || s.Missing[0].Version != 3 || s.Missing[0].Turn != filehistgen.U3 {
		t.Errorf("missing = %+v", s.Missing)
	}
	if len(s.Unreferenced) != 1 || s.Unreferenced[0].Name != l.BackupName("src/app.go", 3) {
		t.Errorf("unreferenced = %+v", s.Unreferenced)
	}
	if !s.BackupDirExists {
		t.Error("backup folder not seen")
	}
	readme, _ := s.File("README.md")
	if v, _ := readme.Version(2); strings.Join(v.Turns, ",") != filehistgen.U2 {
		t.Errorf("README v2 turns = %v, want only U2 (U3 and U4 hold v3)", v.Turns)
	}
}

func TestSessionFileHistoryLookups(t *testing.T) {
	l, _, s := genFileHistory(t)
	tests := []struct {
		turn string
		ok   bool
	}{
		{filehistgen.U2, true},
		{"a0000002", true},
		{"a000000", false}, // ambiguous
		{"zzz", false},
		{"", false},
	}
	for _, tt := range tests {
		if _, ok := s.Turn(tt.turn); ok != tt.ok {
			t.Errorf("Turn(%q) ok = %v", tt.turn, ok)
		}
	}
	if f, ok := s.File(l.Abs("src/app.go")); !ok || f.TrackingPath != "src/app.go" {
		t.Errorf("File by absolute path = %+v %v", f, ok)
	}
	if _, ok := s.File("nope"); ok {
		t.Error("File(nope) found")
	}
}

func TestFileVersionDiff(t *testing.T) {
	_, home, s := genFileHistory(t)
	tests := []struct {
		file     string
		from, to VersionRef
		want     string
	}{
		{"README.md", VersionRef{Version: 1}, VersionRef{Version: 2}, "--- a/README.md@v1\n+++ b/README.md@v2\n@@ -1,2 +1,2 @@\n # App\n-old line\n+new line\n"},
		{"README.md", VersionRef{Version: 2}, DiskRef, "--- a/README.md@v2\n+++ b/README.md@disk\n@@ -1,2 +1,2 @@\n # App\n-new line\n+newest line\n"},
		{"new.txt", VersionRef{Version: 1}, VersionRef{Version: 2}, "--- /dev/null\n+++ b/new.txt@v2\n@@ -0,0 +1 @@\n+created\n"},
		{"new.txt", VersionRef{Version: 2}, VersionRef{Version: 2}, ""},
	}
	for _, tt := range tests {
		f, _ := s.File(tt.file)
		got, err := FileVersionDiff(home.FS, f, tt.from, tt.to)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s %v..%v:\n%s\nwant:\n%s", tt.file, tt.from, tt.to, got, tt.want)
		}
	}
	f, _ := s.File("README.md")
	if _, err := FileVersionDiff(home.FS, f, VersionRef{Version: 3}, DiskRef); err == nil {
		t.Error("diff of a missing backup: no error")
	}
	if _, err := FileVersionDiff(home.FS, f, VersionRef{Version: 9}, DiskRef); err == nil {
		t.Error("diff of an unknown version: no error")
	}
}

func TestParseVersionRange(t *testing.T) {
	_, _, s := genFileHistory(t)
	readme, _ := s.File("README.md")
	tests := []struct {
		in       string
		from, to VersionRef
		err      bool
	}{
		{"1..2", VersionRef{Version: 1}, VersionRef{Version: 2}, false},
		{"v1..disk", VersionRef{Version: 1}, DiskRef, false},
		{"1", VersionRef{Version: 1}, VersionRef{Version: 2}, false},
		{"3", VersionRef{Version: 3}, DiskRef, false},
		{"disk..1", DiskRef, VersionRef{Version: 1}, false},
		{"x..1", VersionRef{}, VersionRef{}, true},
		{"1..-2", VersionRef{Version: 1}, VersionRef{}, true},
	}
	for _, tt := range tests {
		from, to, err := ParseVersionRange(tt.in, readme)
		if (err != nil) != tt.err || !tt.err && (from != tt.from || to != tt.to) {
			t.Errorf("%q = %v %v %v", tt.in, from, to, err)
		}
	}
}

func TestFileHistoryRealTranscript(t *testing.T) {
	f, err := os.Open("../../model/testdata/transcripts/transcript-interactive-pastes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := model.ReadFileHistoryTranscript(f, "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := BuildSessionFileHistory("sid", "t.jsonl", tr, nil)
	// The session edited no file: four empty snapshots, three keyed by a
	// prompt in the transcript; the last snapshot's prompt was never
	// saved (the client writes records asynchronously).
	if len(s.Turns) != 4 || len(s.Files) != 0 || len(s.Missing) != 0 || s.BackupDirExists {
		t.Fatalf("history = %+v", s)
	}
	wantLines := []int{5, 29, 34, 0}
	for i, turn := range s.Turns {
		if (turn.Prompt == "") != (wantLines[i] == 0) || turn.PromptLine != wantLines[i] || len(turn.Touched) != 0 {
			t.Errorf("turn %d = %+v, want prompt on line %d", i, turn, wantLines[i])
		}
	}
	if s.Turns[3].SnapshotLine != 39 || s.Turns[3].Time.IsZero() {
		t.Errorf("last turn = %+v, want the snapshot's line and time", s.Turns[3])
	}
	if s.Turns[0].Prompt != "lorem ipsum dolor" {
		t.Errorf("first prompt = %q", s.Turns[0].Prompt)
	}
}

// The file on disk is read for a diff only when it is a regular file: a
// link or a device could stand for anything.
func TestFileVersionDiffOddDiskFiles(t *testing.T) {
	l, home, s := genFileHistory(t)
	os.Remove(l.Abs("README.md"))
	if err := os.Symlink("/dev/zero", l.Abs("README.md")); err != nil {
		t.Fatal(err)
	}
	f, _ := s.File("README.md")
	if _, err := FileVersionDiff(home.FS, f, VersionRef{Version: 1}, DiskRef); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("symlink: %v", err)
	}
	os.Remove(l.Abs("README.md"))
	d, err := FileVersionDiff(home.FS, f, VersionRef{Version: 1}, DiskRef)
	if err != nil || !strings.Contains(d, "+++ /dev/null") {
		t.Errorf("deleted file: %q %v", d, err)
	}
}

// Turns go by time, not by place in the file (records are written
// asynchronously); a snapshot without a time stays after the one before it.
func TestFileTurnsOrder(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 11, 22, 10, m, 0, 0, time.UTC) }
	snap := func(id string, ts time.Time) model.FileHistoryRecord {
		return model.FileHistoryRecord{Kind: model.FileHistorySnapshotRecord, MessageID: id, Timestamp: ts, Files: map[string]model.FileBackup{}}
	}
	tr := model.FileHistoryTranscript{
		Records: []model.FileHistoryRecord{snap("c", at(3)), snap("a", at(1)), snap("x", time.Time{}), snap("b", at(2))},
		Prompts: map[string]model.UserPrompt{"b": {UUID: "b", Time: at(0)}},
	}
	s := BuildSessionFileHistory("s", "", tr, nil)
	var got []string
	for _, turn := range s.Turns {
		got = append(got, turn.MessageID)
	}
	// b's prompt time (10:00) wins over its snapshot's (10:02); x has no
	// time and follows a.
	if strings.Join(got, "") != "baxc" {
		t.Errorf("order = %v, want b a x c", got)
	}
}
