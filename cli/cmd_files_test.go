package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/filehistgen"
)

func filesHome(t *testing.T) filehistgen.Layout {
	t.Helper()
	l, err := filehistgen.Write(t.TempDir(), time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func readTracked(t *testing.T, l filehistgen.Layout) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p := range filehistgen.Disk {
		data, err := os.ReadFile(l.Abs(p))
		if err != nil {
			out[p] = "<" + err.Error() + ">"
			continue
		}
		out[p] = string(data)
	}
	return out
}

func TestFilesCommandOutputs(t *testing.T) {
	t.Parallel()
	l := filesHome(t)
	sid := filehistgen.SessionID
	tests := []struct {
		name string
		args []string
		code int
		// want are substrings of stdout (or, for code 2, stderr).
		want []string
		// check decodes JSON output.
		check func(t *testing.T, out []byte)
	}{
		{"sessions", []string{}, 0, []string{sid, "7 backups"}, nil},
		{"sessions json", []string{"--json"}, 0, nil, func(t *testing.T, out []byte) {
			var v struct {
				Sessions []filehist.SessionSummary `json:"sessions"`
			}
			json.Unmarshal(out, &v)
			if len(v.Sessions) != 1 || v.Sessions[0].Backups != 7 || v.Sessions[0].Transcript != l.Transcript {
				t.Errorf("sessions = %+v", v.Sessions)
			}
		}},
		{"overview", []string{"5e55"}, 0, []string{"4 turns", "Fix the README", "edited     new.txt                        v1 (did not exist)",
			"[snapshot record missing", "backup missing: " + l.BackupName("README.md", 3), "1 backup no record names"}, nil},
		{"overview json", []string{sid, "--json"}, 0, nil, func(t *testing.T, out []byte) {
			var s filehist.SessionFileHistory
			if err := json.Unmarshal(out, &s); err != nil {
				t.Fatal(err)
			}
			if len(s.Turns) != 4 || len(s.Files) != 4 || len(s.Missing) != 1 || len(s.Unreferenced) != 1 || s.CWD != l.CWD {
				t.Errorf("json = %s", out)
			}
		}},
		{"turn", []string{sid, "--turn", "a0000002"}, 0, []string{"Now edit the app", l.Abs("new.txt"), "restore v2",
			"restore v1 [version 1: the turn's snapshot does not list it]"}, nil},
		{"turn json", []string{sid, "--turn", filehistgen.U1, "--json"}, 0, nil, func(t *testing.T, out []byte) {
			var v struct {
				Turn       filehist.FileTurn     `json:"turn"`
				RewindPlan *filehist.RestorePlan `json:"rewindPlan"`
			}
			json.Unmarshal(out, &v)
			if v.Turn.MessageID != filehistgen.U1 || v.RewindPlan == nil || len(v.RewindPlan.Steps) != 4 || v.RewindPlan.Writes() != 4 {
				t.Errorf("json = %s", out)
			}
		}},
		{"file", []string{sid, "--file", "README.md"}, 0, []string{"v1 ", "v3 ", "disk  18 B"}, nil},
		{"file by absolute path json", []string{sid, "--file", l.Abs("new.txt"), "--json"}, 0, nil, func(t *testing.T, out []byte) {
			var v struct {
				File filehist.TrackedFile `json:"file"`
				Disk store.FileStamp      `json:"disk"`
			}
			json.Unmarshal(out, &v)
			if v.File.TrackingPath != "new.txt" || !v.File.Versions[0].Absent || !v.Disk.Exists || v.Disk.Size != int64(len(filehistgen.Disk["new.txt"])) {
				t.Errorf("json = %s", out)
			}
		}},
		{"diff", []string{sid, "--file", "README.md", "--diff", "1..2"}, 0,
			[]string{"--- a/README.md@v1\n+++ b/README.md@v2\n@@ -1,2 +1,2 @@\n # App\n-old line\n+new line\n"}, nil},
		{"diff to next", []string{sid, "--file", "src/app.go", "--diff", "2"}, 0, []string{"+++ b/src/app.go@v3\n"}, nil},
		{"diff json", []string{sid, "--file", "new.txt", "--diff", "1..disk", "--json"}, 0, nil, func(t *testing.T, out []byte) {
			var v struct{ From, To, Diff string }
			json.Unmarshal(out, &v)
			if v.From != "v1" || v.To != "disk" || !strings.HasPrefix(v.Diff, "--- /dev/null\n") {
				t.Errorf("json = %s", out)
			}
		}},
		{"same versions", []string{sid, "--file", "README.md", "--diff", "2..2"}, 0, []string{"are the same"}, nil},
		{"restore plan only", []string{sid, "--file", "README.md", "--restore", "1"}, 0, []string{"-newest line", "+old line", "nothing was written"}, nil},
		{"rewind refused", []string{sid, "--rewind", filehistgen.U4}, 1, []string{"REFUSED", "refused: nothing was written"}, nil},
		{"unknown turn", []string{sid, "--turn", "zz"}, 1, nil, nil},
		{"unknown file", []string{sid, "--file", "nope"}, 1, nil, nil},
		{"missing backup diff", []string{sid, "--file", "README.md", "--diff", "3..disk"}, 1, nil, nil},
		{"diff without file", []string{sid, "--diff", "1..2"}, 2, []string{"need --file"}, nil},
		{"yes without restore", []string{sid, "--yes"}, 2, []string{"--yes goes with"}, nil},
		{"two actions", []string{sid, "--undo", "--rewind", "x"}, 2, []string{"one at a time"}, nil},
		{"no session", []string{"--turn", "x"}, 2, []string{"name a SESSION"}, nil},
		{"bad version", []string{sid, "--file", "README.md", "--diff", "x..1"}, 2, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, out, errb := testEnv(t)
			before := readTracked(t, l)
			code := run(e, append([]string{"files", "--home", l.Home}, tt.args...))
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, tt.code, out, errb)
			}
			text := out.String()
			if tt.code == 2 {
				text = errb.String()
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("output lacks %q:\n%s", w, text)
				}
			}
			if tt.check != nil {
				tt.check(t, out.Bytes())
			}
			after := readTracked(t, l)
			for p, c := range before {
				if after[p] != c {
					t.Errorf("%s changed: %q", p, after[p])
				}
			}
		})
	}
}

func TestFilesCommandRestoreAndUndo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		after map[string]string
	}{
		{"one version", []string{"--file", "src/app.go", "--restore", "1"}, map[string]string{"src/app.go": filehistgen.Versions["src/app.go"][1]}},
		{"null version deletes", []string{"--file", "new.txt", "--restore", "v1"}, map[string]string{"new.txt": "<absent>"}},
		{"rewind", []string{"--rewind", "a0000001"}, map[string]string{"README.md": filehistgen.Versions["README.md"][1], "new.txt": "<absent>",
			"src/app.go": filehistgen.Versions["src/app.go"][1], "../app2/notes.txt": filehistgen.Versions["../app2/notes.txt"][1]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := filesHome(t)
			e, out, errb := testEnv(t)
			before := readTracked(t, l)
			args := append([]string{"files", "--home", l.Home, filehistgen.SessionID, "--yes", "--json"}, tt.args...)
			if code := run(e, args); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			var res struct {
				Applied bool         `json:"applied"`
				Change  store.Change `json:"change"`
			}
			if err := json.Unmarshal(out.Bytes(), &res); err != nil || !res.Applied || res.Change.ID == "" {
				t.Fatalf("output %s (%v)", out, err)
			}
			got := readTracked(t, l)
			for p, want := range tt.after {
				if want == "<absent>" {
					if _, err := os.Stat(l.Abs(p)); !os.IsNotExist(err) {
						t.Errorf("%s still exists", p)
					}
					continue
				}
				if got[p] != want {
					t.Errorf("%s = %q, want %q", p, got[p], want)
				}
			}
			out.Reset()
			if code := run(e, []string{"files", "--home", l.Home, filehistgen.SessionID, "--undo"}); code != 0 {
				t.Fatalf("undo exit %d: %s", code, errb)
			}
			if !strings.Contains(out.String(), "undid "+res.Change.ID) {
				t.Errorf("undo output %s", out)
			}
			got = readTracked(t, l)
			for p, c := range before {
				if got[p] != c {
					t.Errorf("after undo %s = %q, want %q", p, got[p], c)
				}
			}
			if code := run(e, []string{"files", "--home", l.Home, filehistgen.SessionID, "--undo"}); code != 1 || !strings.Contains(errb.String(), "nothing to undo") {
				t.Errorf("second undo exit %d: %s", code, errb)
			}
		})
	}
}

func TestFilesCommandRefusesSymlink(t *testing.T) {
	l := filesHome(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("not yours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(l.Abs("README.md"))
	if err := os.Symlink(outside, l.Abs("README.md")); err != nil {
		t.Fatal(err)
	}
	e, out, errb := testEnv(t)
	code := run(e, []string{"files", "--home", l.Home, filehistgen.SessionID, "--file", "README.md", "--restore", "1", "--yes"})
	if code != 1 || !strings.Contains(out.String(), "is a symlink") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	if got, _ := os.ReadFile(outside); string(got) != "not yours\n" {
		t.Errorf("wrote through the symlink: %q", got)
	}
}

func TestFilesCommandBackupsWithoutTranscript(t *testing.T) {
	l := filesHome(t)
	if err := os.Remove(filepath.Join(l.Home, l.Transcript)); err != nil {
		t.Fatal(err)
	}
	e, out, errb := testEnv(t)
	if code := run(e, []string{"files", "--home", l.Home, "5e55"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, w := range []string{"transcript (none", "0 turns", "7 backups no record names"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// A plan shown with its fingerprint is applied only while the files are
// as they were when it was shown.
func TestFilesCommandPlanFingerprint(t *testing.T) {
	l := filesHome(t)
	e, out, errb := testEnv(t)
	base := []string{"files", "--home", l.Home, filehistgen.SessionID, "--rewind", filehistgen.U2}
	if code := run(e, append(base, "--json")); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var shown struct {
		Fingerprint string `json:"fingerprint"`
	}
	if err := json.Unmarshal(out.Bytes(), &shown); err != nil || len(shown.Fingerprint) != 16 {
		t.Fatalf("plan output %s (%v)", out, err)
	}
	if err := os.WriteFile(l.Abs("new.txt"), []byte("changed after the plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(e, append(base, "--yes", "--plan", shown.Fingerprint)); code != 1 || !strings.Contains(errb.String(), "changed since plan "+shown.Fingerprint) {
		t.Fatalf("stale plan: exit %d: %s", code, errb)
	}
	if got := readTracked(t, l); got["README.md"] != filehistgen.Disk["README.md"] || got["new.txt"] != "changed after the plan\n" {
		t.Errorf("a stale plan wrote: %v", got)
	}
	out.Reset()
	if code := run(e, append(base, "--json")); code != 0 {
		t.Fatal(errb)
	}
	var again struct {
		Fingerprint string `json:"fingerprint"`
	}
	json.Unmarshal(out.Bytes(), &again)
	if again.Fingerprint == shown.Fingerprint {
		t.Fatal("the fingerprint did not change with the file")
	}
	if code := run(e, append(base, "--yes", "--plan", again.Fingerprint)); code != 0 {
		t.Fatalf("fresh plan: exit %d: %s", code, errb)
	}
	if got := readTracked(t, l); got["new.txt"] != filehistgen.Versions["new.txt"][2] {
		t.Errorf("new.txt = %q after the rewind", got["new.txt"])
	}
}
