package ui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testroot"
)

// replaceByRename writes path the way Claude Code does: temp + rename.
func replaceByRename(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp.ext"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestEditorDoesNotOverwriteAConcurrentChange edits a copy as $EDITOR
// would while the file on disk is changed (or not) by someone else, then
// saves. A file changed meanwhile is never overwritten, and the user's
// version stays in the copy the status line names.
func TestEditorDoesNotOverwriteAConcurrentChange(t *testing.T) {
	t.Parallel()
	const orig = "---\nname: terse\ndescription: Short\nmetadata:\n  type: feedback\n---\n\nBe terse.\n"
	const mine = orig + "Edited by the user.\n"
	const theirs = orig + "Written by Claude Code meanwhile.\n"
	cases := []struct {
		name      string
		exists    bool
		edit      string
		meanwhile func(t *testing.T, path string)
		// want is the file afterwards ("" = absent); conflict says the
		// save was refused and the copy kept.
		want     string
		conflict bool
		status   string
	}{
		{"nobody else wrote: saved", true, mine, nil, mine, false, "saved "},
		{"replaced by rename meanwhile: kept theirs", true, mine, func(t *testing.T, p string) { replaceByRename(t, p, theirs) }, theirs, true, "changed on disk while the editor was open"},
		{"rewritten in place meanwhile: kept theirs", true, mine, func(t *testing.T, p string) { os.WriteFile(p, []byte(theirs), 0o600) }, theirs, true, "changed on disk"},
		{"removed meanwhile: not resurrected", true, mine, func(t *testing.T, p string) { os.Remove(p) }, "", true, "changed on disk"},
		{"new file created by someone else meanwhile: kept theirs", false, mine, func(t *testing.T, p string) { replaceByRename(t, p, theirs) }, theirs, true, "changed on disk"},
		{"new file nobody else wrote: created", false, mine, nil, mine, false, "saved "},
		{"no change in the editor: nothing written", true, orig, func(t *testing.T, p string) { replaceByRename(t, p, theirs) }, theirs, false, "no changes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "feedback_terse.md")
			if tc.exists {
				if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			// The journal goes in the home: one in the test's folder (the
			// fixed home's path is not the test's to write).
			h := fixedHome(t)
			h.Dir = t.TempDir()
			m := loadedModel(t, Options{Home: h, Root: fstest.MapFS{}}, 100, 30)
			m.readOnly = false // the test home's files are not on disk; the edited file is
			prep := m.openEditorCmd(path)()
			pm, ok := prep.(editorPreparedMsg)
			if !ok || pm.err != nil {
				t.Fatalf("prepare: %#v", prep)
			}
			if pm.s.copy == path || filepath.Base(pm.s.copy) != filepath.Base(path) {
				t.Fatalf("the editor gets %s: want a copy with the same name, not the file", pm.s.copy)
			}
			// The editor: the user types, and meanwhile the file changes.
			if err := os.WriteFile(pm.s.copy, []byte(tc.edit), 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.meanwhile != nil {
				tc.meanwhile(t, path)
			}
			next, cmd := m.Update(editorFinishedMsg{s: pm.s})
			m = drain(t, next.(Model), cmd)
			got, err := os.ReadFile(path)
			if tc.want == "" {
				if err == nil {
					t.Errorf("the file was removed meanwhile, but the save brought it back:\n%s", got)
				}
			} else if string(got) != tc.want {
				t.Errorf("file after saving:\n%s\nwant:\n%s", got, tc.want)
			}
			if !strings.Contains(m.status, tc.status) || m.statusErr != tc.conflict {
				t.Errorf("status %q (error %v), want it to contain %q (error %v)", m.status, m.statusErr, tc.status, tc.conflict)
			}
			kept, err := os.ReadFile(pm.s.copy)
			switch {
			case tc.conflict && (err != nil || string(kept) != tc.edit || !strings.Contains(m.status, pm.s.copy)):
				t.Errorf("refused save: the user's version must stay in %s and be named in the status (read: %v)", pm.s.copy, err)
			case !tc.conflict && err == nil:
				t.Errorf("the copy %s was left behind after a clean save", pm.s.copy)
			}
			os.RemoveAll(filepath.Dir(pm.s.copy))
			for _, e := range mustReadDir(t, filepath.Dir(path)) {
				if e != "feedback_terse.md" {
					t.Errorf("left in the folder: %s", e)
				}
			}
		})
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// A save from the editor goes through the app's writer: a full disk at
// the move into place leaves the file as it was, says why, and keeps the
// user's version in the copy; once there is space the save goes through.
func TestEditorSaveWritesThroughTheAppsWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback_terse.md")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := &faultfs.FS{Base: testroot.Writer(t), Step: faultfs.StepRename, Err: syscall.ENOSPC}
	h := fixedHome(t)
	h.Dir = t.TempDir() // the journal's home: the test's, not the fixed path
	m := loadedModel(t, Options{Home: h, Root: fstest.MapFS{}}, 100, 30)
	m.readOnly = false
	m.opts.Writes = f
	pm, ok := m.openEditorCmd(path)().(editorPreparedMsg)
	if !ok || pm.err != nil {
		t.Fatalf("prepare: %#v", pm)
	}
	if err := os.WriteFile(pm.s.copy, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	save := func() Model {
		next, cmd := m.Update(editorFinishedMsg{s: pm.s})
		return drain(t, next.(Model), cmd)
	}
	m = save()
	if got, _ := os.ReadFile(path); string(got) != "old\n" || !m.statusErr || !strings.Contains(m.status, syscall.ENOSPC.Error()) || !strings.Contains(m.status, pm.s.copy) {
		t.Fatalf("after a full disk: file %q, status %q", got, m.status)
	}
	if len(f.Hits()) != 1 {
		t.Fatalf("faulted calls %q: the save did not go through the app's writer", f.Hits())
	}
	f.Heal()
	m = save()
	if got, _ := os.ReadFile(path); string(got) != "new\n" || m.statusErr {
		t.Errorf("after healing: file %q, status %q", got, m.status)
	}
}
