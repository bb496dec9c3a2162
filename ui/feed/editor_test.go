package feed

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/msgs"
)

// editsFeed is the Edits feed of an empty home in the test's folder (the
// journals of files outside a memory folder are in the home), writing
// through w (nil: the OS).
func editsFeed(t *testing.T, w model.WriteFS) *Edits {
	t.Helper()
	home := testHome(t, t.TempDir())
	h := NewHome(home, nil)
	p := NewProject(ProjectEnv{Home: home, Getenv: func(string) string { return "" }, Now: func() time.Time { return testNow }}, h)
	return NewEdits(EditsEnv{Home: home, Writes: w, Now: func() time.Time { return testNow }, Getenv: func(string) string { return "" }}, p)
}

var editCtx = EditCtx{PromptFiles: func() []string { return nil }}

// openEditor asks the feed to edit path and returns the copy it made.
func openEditor(t *testing.T, e *Edits, path string) EditSession {
	t.Helper()
	out, ok := e.Update(msgs.OpenEditor{Path: path}, editCtx)
	if !ok || out.Cmd == nil {
		t.Fatalf("OpenEditor: owned %v, command %v", ok, out.Cmd != nil)
	}
	pm, ok := out.Cmd().(EditorPrepared)
	if !ok || pm.Err != nil {
		t.Fatalf("prepare: %#v", pm)
	}
	return pm.S
}

// editorExits hands the feed the editor's exit and the messages its
// commands return, as the shell would, until it says something: the
// last EditOut.
func editorExits(t *testing.T, e *Edits, s EditSession) EditOut {
	t.Helper()
	var msg tea.Msg = EditorFinished{S: s}
	for range 10 {
		out, ok := e.Update(msg, editCtx)
		if !ok {
			t.Fatalf("the feed does not own %T", msg)
		}
		if out.Cmd == nil || out.Status != nil || out.Ask != nil {
			return out
		}
		msg = out.Cmd()
		if st, ok := msg.(msgs.Status); ok {
			return EditOut{Status: &st}
		}
	}
	t.Fatal("the editor's save does not end")
	return EditOut{}
}

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
// version stays in the copy the status line names. (Moved whole from
// ui/editor_concurrent_test.go, where it built the root: the Edits feed
// is tested on its own.)
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
			e := editsFeed(t, nil)
			s := openEditor(t, e, path)
			if s.Copy == path || filepath.Base(s.Copy) != filepath.Base(path) {
				t.Fatalf("the editor gets %s: want a copy with the same name, not the file", s.Copy)
			}
			// The editor: the user types, and meanwhile the file changes.
			if err := os.WriteFile(s.Copy, []byte(tc.edit), 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.meanwhile != nil {
				tc.meanwhile(t, path)
			}
			out := editorExits(t, e, s)
			got, err := os.ReadFile(path)
			if tc.want == "" {
				if err == nil {
					t.Errorf("the file was removed meanwhile, but the save brought it back:\n%s", got)
				}
			} else if string(got) != tc.want {
				t.Errorf("file after saving:\n%s\nwant:\n%s", got, tc.want)
			}
			if out.Status == nil || !strings.Contains(out.Status.Text, tc.status) || out.Status.Error != tc.conflict || out.Reload != ReloadAll {
				t.Fatalf("out %+v, want a status containing %q (error %v) and everything read again", out, tc.status, tc.conflict)
			}
			kept, err := os.ReadFile(s.Copy)
			switch {
			case tc.conflict && (err != nil || string(kept) != tc.edit || !strings.Contains(out.Status.Text, s.Copy)):
				t.Errorf("refused save: the user's version must stay in %s and be named in the status (read: %v)", s.Copy, err)
			case !tc.conflict && err == nil:
				t.Errorf("the copy %s was left behind after a clean save", s.Copy)
			}
			os.RemoveAll(filepath.Dir(s.Copy))
			for _, n := range mustReadDir(t, filepath.Dir(path)) {
				if n != "feedback_terse.md" {
					t.Errorf("left in the folder: %s", n)
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
// (Moved whole from ui/editor_concurrent_test.go.)
func TestEditorSaveWritesThroughTheAppsWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback_terse.md")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := &faultfs.FS{Base: testroot.Writer(t), Step: faultfs.StepRename, Err: syscall.ENOSPC}
	e := editsFeed(t, f)
	s := openEditor(t, e, path)
	if err := os.WriteFile(s.Copy, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := editorExits(t, e, s)
	if got, _ := os.ReadFile(path); string(got) != "old\n" || out.Status == nil || !out.Status.Error || !strings.Contains(out.Status.Text, syscall.ENOSPC.Error()) || !strings.Contains(out.Status.Text, s.Copy) {
		t.Fatalf("after a full disk: file %q, out %+v", got, out)
	}
	if len(f.Hits()) != 1 {
		t.Fatalf("faulted calls %q: the save did not go through the app's writer", f.Hits())
	}
	if e.Busy() {
		t.Fatal("the feed is still busy after the save ended")
	}
	f.Heal()
	out = editorExits(t, e, s)
	if got, _ := os.ReadFile(path); string(got) != "new\n" || out.Status == nil || out.Status.Error {
		t.Errorf("after healing: file %q, out %+v", got, out)
	}
}
