package filehist

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/filehistgen"
	"github.com/memscope/memscope/model"
)

// diskState reads every tracked file of the generated home: its content,
// or "<absent>".
func diskState(t *testing.T, l filehistgen.Layout) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p := range filehistgen.Disk {
		data, err := os.ReadFile(l.Abs(p))
		st, serr := os.Lstat(l.Abs(p))
		switch {
		case serr == nil && st.IsDir():
			out[p] = "<folder>"
		case errors.Is(err, os.ErrNotExist):
			out[p] = "<absent>"
		case err != nil:
			t.Fatal(err)
		default:
			out[p] = string(data)
		}
	}
	return out
}

func sameState(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("%s: %s = %q, want %q", what, k, got[k], want[k])
		}
	}
}

func TestRestoreVersionAndUndo(t *testing.T) {
	v := filehistgen.Versions
	tests := []struct {
		file    string
		version int
		want    string // the file after the restore
		action  store.FileAction
	}{
		{"README.md", 1, v["README.md"][1], store.FileModified},
		{"src/app.go", 3, v["src/app.go"][3], store.FileModified}, // unreferenced backup
		{"new.txt", 1, "<absent>", store.FileDeleted},             // null: deletes
		{"../app2/notes.txt", 1, v["../app2/notes.txt"][1], store.FileModified},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, home, s := genFileHistory(t)
			before := diskState(t, l)
			mode0 := fileMode(t, l.Abs(tt.file))
			p, err := PlanVersionRestore(home.FS, &s, tt.file, tt.version)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Steps) != 1 || p.Steps[0].Refused != "" || p.Steps[0].Unchanged || p.Steps[0].Diff == "" {
				t.Fatalf("plan = %+v", p)
			}
			ch, err := ApplyRestore(home.Dir, home.FS, p, fhT0)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.Files) != 1 || ch.Files[0].Action != tt.action || ch.Files[0].Path != l.Abs(tt.file) || ch.ID == "" {
				t.Errorf("change = %+v", ch)
			}
			after := diskState(t, l)
			if after[tt.file] != tt.want {
				t.Errorf("after restore %s = %q, want %q", tt.file, after[tt.file], tt.want)
			}
			entries, _, err := Restores(home.FS, filehistgen.SessionID)
			if err != nil || len(entries) != 1 || entries[0].Op != OpFileRestore {
				t.Fatalf("journal = %+v %v", entries, err)
			}
			if _, err := UndoRestore(home.Dir, filehistgen.SessionID); err != nil {
				t.Fatal(err)
			}
			sameState(t, "after undo", diskState(t, l), before)
			if m := fileMode(t, l.Abs(tt.file)); m != mode0 {
				t.Errorf("mode after undo = %v, want %v", m, mode0)
			}
			if _, err := UndoRestore(home.Dir, filehistgen.SessionID); !errors.Is(err, store.ErrNothingToUndo) {
				t.Errorf("second undo: %v", err)
			}
		})
	}
}

func fileMode(t *testing.T, name string) os.FileMode {
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode()
}

func TestRewindTurnAndUndo(t *testing.T) {
	v := filehistgen.Versions
	tests := []struct {
		turn string
		want map[string]string
		plan string
	}{
		{filehistgen.U1, map[string]string{"README.md": v["README.md"][1], "new.txt": "<absent>", "src/app.go": v["src/app.go"][1], "../app2/notes.txt": v["../app2/notes.txt"][1]},
			"../app2/notes.txt restore first, README.md restore, new.txt delete, src/app.go restore first"},
		{filehistgen.U2, map[string]string{"README.md": v["README.md"][2], "new.txt": v["new.txt"][2], "src/app.go": v["src/app.go"][1], "../app2/notes.txt": v["../app2/notes.txt"][1]},
			"../app2/notes.txt restore first, README.md restore, new.txt restore, src/app.go restore"},
	}
	for _, tt := range tests {
		t.Run(tt.turn[:8], func(t *testing.T) {
			l, home, s := genFileHistory(t)
			before := diskState(t, l)
			p, err := PlanTurnRestore(home.FS, &s, tt.turn)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, st := range p.Steps {
				x := st.TrackingPath + " " + string(st.Action)
				if st.FromFirstVersion {
					x += " first"
				}
				parts = append(parts, x)
			}
			if got := strings.Join(parts, ", "); got != tt.plan {
				t.Errorf("plan = %s\nwant %s", got, tt.plan)
			}
			if p.Writes() != 4 || len(p.Refusals()) != 0 {
				t.Errorf("writes = %d, refusals %v", p.Writes(), p.Refusals())
			}
			if _, err := ApplyRestore(home.Dir, home.FS, p, fhT0); err != nil {
				t.Fatal(err)
			}
			sameState(t, "after rewind", diskState(t, l), tt.want)
			if _, err := UndoRestore(home.Dir, filehistgen.SessionID); err != nil {
				t.Fatal(err)
			}
			sameState(t, "after undo", diskState(t, l), before)
		})
	}
}

func TestRestoreRefusals(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, l filehistgen.Layout)
		plan    func(home *model.Home, s *SessionFileHistory) (*RestorePlan, error)
		refused string // in the plan
	}{
		{"missing backup stops a whole rewind", nil,
			func(home *model.Home, s *SessionFileHistory) (*RestorePlan, error) {
				return PlanTurnRestore(home.FS, s, filehistgen.U4)
			}, "cannot be read"},
		{"symlink", func(t *testing.T, l filehistgen.Layout) {
			os.Remove(l.Abs("README.md"))
			if err := os.Symlink(l.Abs("new.txt"), l.Abs("README.md")); err != nil {
				t.Fatal(err)
			}
		}, func(home *model.Home, s *SessionFileHistory) (*RestorePlan, error) {
			return PlanVersionRestore(home.FS, s, "README.md", 1)
		}, "is a symlink"},
		{"folder", func(t *testing.T, l filehistgen.Layout) {
			os.Remove(l.Abs("README.md"))
			if err := os.Mkdir(l.Abs("README.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, func(home *model.Home, s *SessionFileHistory) (*RestorePlan, error) {
			return PlanVersionRestore(home.FS, s, "README.md", 1)
		}, "is a folder"},
		{"folder reached through a symlink", func(t *testing.T, l filehistgen.Layout) {
			elsewhere := filepath.Join(filepath.Dir(l.CWD), "elsewhere")
			if err := os.Rename(l.Abs("src"), elsewhere); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, l.Abs("src")); err != nil {
				t.Fatal(err)
			}
		}, func(home *model.Home, s *SessionFileHistory) (*RestorePlan, error) {
			return PlanVersionRestore(home.FS, s, "src/app.go", 1)
		}, "reached through a symlink"},
		{"backup of another path", nil, func(home *model.Home, s *SessionFileHistory) (*RestorePlan, error) {
			// A record that pairs new.txt with README.md's backup.
			f, _ := s.File("new.txt")
			readme, _ := s.File("README.md")
			rv, _ := readme.Version(1)
			f.Versions = append(f.Versions, FileVersion{Version: 7, BackupFileName: rv.BackupFileName, BackupPath: rv.BackupPath, BackupExists: true})
			return PlanVersionRestore(home.FS, s, "new.txt", 7)
		}, "is not a backup of"},
		{"backup is a link", func(t *testing.T, l filehistgen.Layout) {
			b := filepath.Join(l.Home, "file-history", filehistgen.SessionID, l.BackupName("README.md", 1))
			os.Remove(b)
			if err := os.Symlink("/dev/zero", b); err != nil {
				t.Fatal(err)
			}
		}, func(home *model.Home, _ *SessionFileHistory) (*RestorePlan, error) {
			// Read again, so the folder listing sees the link.
			s, err := ReadSessionFileHistory(home.FS, filehistgen.SessionID, transcriptOf(home))
			if err != nil {
				return nil, err
			}
			return PlanVersionRestore(home.FS, &s, "README.md", 1)
		}, "not a regular file"},
		{"relative target", nil, func(home *model.Home, s *SessionFileHistory) (*RestorePlan, error) {
			f, _ := s.File("README.md")
			f.Target = "README.md"
			return PlanVersionRestore(home.FS, s, "README.md", 1)
		}, "not an absolute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, home, s := genFileHistory(t)
			if tt.prepare != nil {
				tt.prepare(t, l)
			}
			before := diskState(t, l)
			p, err := tt.plan(home, &s)
			if err != nil {
				t.Fatal(err)
			}
			if r := strings.Join(p.Refusals(), "; "); !strings.Contains(r, tt.refused) {
				t.Fatalf("refusals = %q, want %q", r, tt.refused)
			}
			if _, err := ApplyRestore(home.Dir, home.FS, p, fhT0); err == nil || !strings.Contains(err.Error(), "nothing was written") {
				t.Errorf("apply: %v", err)
			}
			sameState(t, "after refusal", diskState(t, l), before)
			if _, err := os.Stat(filepath.Join(home.Dir, RestoreJournal(filehistgen.SessionID))); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused restore wrote the journal: %v", err)
			}
		})
	}
}

func TestRestoreRefusedWhenChangedSincePlan(t *testing.T) {
	l, home, s := genFileHistory(t)
	p, err := PlanTurnRestore(home.FS, &s, filehistgen.U2)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, other bytes: only the hash tells.
	changed := strings.Replace(filehistgen.Disk["src/app.go"], "B", "C", 1)
	if err := os.WriteFile(l.Abs("src/app.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	before := diskState(t, l)
	_, err = ApplyRestore(home.Dir, home.FS, p, fhT0)
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.Path != l.Abs("src/app.go") {
		t.Fatalf("apply = %v, want a conflict on src/app.go", err)
	}
	sameState(t, "after conflict", diskState(t, l), before)
}

func TestUndoRefusedWhenChangedSinceRestore(t *testing.T) {
	l, home, s := genFileHistory(t)
	p, err := PlanVersionRestore(home.FS, &s, "README.md", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyRestore(home.Dir, home.FS, p, fhT0); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.Abs("README.md"), []byte("edited after the restore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = UndoRestore(home.Dir, filehistgen.SessionID)
	var ce *store.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("undo = %v, want a conflict", err)
	}
	if got, _ := os.ReadFile(l.Abs("README.md")); string(got) != "edited after the restore\n" {
		t.Errorf("undo wrote despite the conflict: %q", got)
	}
	if entries, _, _ := Restores(home.FS, filehistgen.SessionID); len(entries) != 1 {
		t.Errorf("journal entries = %d, want the entry kept", len(entries))
	}
}

func TestRestoreUnchangedWritesNothing(t *testing.T) {
	l, home, s := genFileHistory(t)
	if err := os.WriteFile(l.Abs("README.md"), []byte(filehistgen.Versions["README.md"][2]), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := PlanVersionRestore(home.FS, &s, "README.md", 2)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Steps[0].Unchanged || p.Writes() != 0 {
		t.Fatalf("plan = %+v", p.Steps[0])
	}
	ch, err := ApplyRestore(home.Dir, home.FS, p, fhT0)
	if err != nil || ch.ID != "" || len(ch.Files) != 0 {
		t.Errorf("change = %+v %v", ch, err)
	}
	if entries, _, _ := Restores(home.FS, filehistgen.SessionID); len(entries) != 0 {
		t.Errorf("journal entries = %d", len(entries))
	}
}

// A session id comes from transcripts and becomes a folder name: one that
// is not a plain name is refused before anything is written.
func TestRestoreRefusesOddSessionID(t *testing.T) {
	for _, sid := range []model.SessionID{"../../evil", "a/b", "..", ""} {
		l, home, s := genFileHistory(t)
		p, err := PlanVersionRestore(home.FS, &s, "README.md", 1)
		if err != nil {
			t.Fatal(err)
		}
		p.SessionID = sid
		before := diskState(t, l)
		if _, err := ApplyRestore(home.Dir, home.FS, p, fhT0); err == nil || !strings.Contains(err.Error(), "not a plain name") {
			t.Errorf("%q: apply = %v", sid, err)
		}
		if _, err := UndoRestore(home.Dir, sid); err == nil || !strings.Contains(err.Error(), "not a plain name") {
			t.Errorf("%q: undo = %v", sid, err)
		}
		sameState(t, string(sid), diskState(t, l), before)
	}
}

// transcriptOf is the generated session's transcript inside the home.
func transcriptOf(home *model.Home) string {
	ts, _ := model.FindTranscripts(home.FS)
	for _, t := range ts {
		if t.SessionID == filehistgen.SessionID {
			return t.Path
		}
	}
	return ""
}

// A restore gives the file the version's mode (the client's backup is a
// copy with the mode kept); its undo puts back the mode and the mtime the
// file had, so the file is as old as it was.
func TestRestoreUndoPutsBackMtimeAndMode(t *testing.T) {
	l, home, s := genFileHistory(t)
	target := l.Abs("README.md")
	mt := time.Now().Add(-45 * 24 * time.Hour).Truncate(time.Second)
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(target, mt, mt); err != nil {
		t.Fatal(err)
	}
	p, err := PlanVersionRestore(home.FS, &s, "README.md", 1)
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(home.Dir, filepath.FromSlash(p.Steps[0].BackupPath))
	if err := os.Chmod(backup, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyRestore(home.Dir, home.FS, p, fhT0); err != nil {
		t.Fatal(err)
	}
	if m := fileMode(t, target); m != 0o640 {
		t.Errorf("mode after the restore = %v, want the version's %v", m, os.FileMode(0o640))
	}
	if _, err := UndoRestore(home.Dir, filehistgen.SessionID); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 || !st.ModTime().Equal(mt) {
		t.Errorf("after undo: mode %v mtime %v, want %v %v as before the restore", st.Mode().Perm(), st.ModTime(), os.FileMode(0o600), mt)
	}
}
