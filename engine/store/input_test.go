package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// A project without memory yet: Create makes the folder, and undo takes
// the memory away again.
func TestCreateInMissingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "projects", "-x", "memory")
	s, probs := Open(dir, nil)
	if len(probs) != 0 || s.Memory().Exists {
		t.Fatalf("problems %v, exists %v", probs, s.Memory().Exists)
	}
	ch, err := s.Create(NewMemory{Name: "role", Type: model.TypeUser, Description: "Backend lead"}, WriteOptions{Now: enginetest.OpsNow})
	if err != nil {
		t.Fatal(err)
	}
	got := enginetest.ReadTree(t, dir)
	if got["MEMORY.md"] != "- [user_role](user_role.md) — Backend lead\n" || !strings.HasPrefix(got["user_role.md"], "---\nname: role\n") || len(ch.Files) != 2 {
		t.Errorf("tree = %q", got)
	}
	if _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := enginetest.ReadTree(t, dir); len(got) != 0 {
		t.Errorf("after undo: %q", got)
	}
}

// Odd input never breaks an edit: a 10 MiB line, CRLF, a BOM, invalid
// UTF-8, an empty file, a missing final newline.
func TestOpsOnOddFiles(t *testing.T) {
	t.Parallel()
	// 10 MiB with MEMSCOPE_LONG=1, else 2 MiB (past bufio's 64 KiB and
	// model.MaxSmallBytes either way): every change parses the journal,
	// which holds the file's text.
	huge := strings.Repeat("x", testenv.Size(t, 10<<20, 2<<20))
	files := map[string]string{
		"MEMORY.md":        "\ufeff# Memory\r\n- [Big](project_big.md) — big\r\n- [Empty](empty.md)",
		"project_big.md":   enginetest.ClientMemory("big", "Big", "project", huge+"\n[[empty]]\n"),
		"feedback_crlf.md": strings.ReplaceAll(enginetest.ClientMemory("crlf", "Crlf", "feedback", "Body \xff\xfe.\n"), "\n", "\r\n"),
		"empty.md":         "",
		"user_no_eol.md":   "---\nname: no-eol\ndescription: d\ntype: user\n---\nno newline",
		"reference_bom.md": "\ufeff" + enginetest.ClientMemory("bom", "Bom", "reference", "x\n"),
		"project_other.md": enginetest.ClientMemory("other", "Other", "project", "links [[big]]\n"),
	}
	dir := t.TempDir()
	enginetest.WriteTree(t, dir, files)
	s, probs := Open(dir, nil)
	if len(probs) != 1 || probs[0].Kind != model.ProblemEncoding {
		t.Fatalf("problems: %v", probs)
	}
	before := enginetest.ReadTree(t, dir)
	o := WriteOptions{Now: enginetest.OpsNow}
	steps := []func() (Change, error){
		func() (Change, error) { return s.Rename("project_big.md", "huge", o) },
		func() (Change, error) { return s.Retype("feedback_crlf.md", model.TypeUser, o) },
		func() (Change, error) { return s.SetDescription("user_no_eol.md", "new", o) },
		func() (Change, error) { return s.SetBody("reference_bom.md", "y\n", o) },
		func() (Change, error) { return s.AddIndexEntry("user_no_eol.md", o) },
		func() (Change, error) { return s.Delete("empty.md", o) },
	}
	for i, step := range steps {
		if _, err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	after := enginetest.ReadTree(t, dir)
	if !strings.Contains(after["project_other.md"], "[[huge]]") || !strings.HasPrefix(after["MEMORY.md"], "\ufeff# Memory\r\n- [Big](project_huge.md) — big\r\n") {
		t.Errorf("rename did not follow through: %.80q", after["MEMORY.md"])
	}
	if !strings.Contains(after["feedback_crlf.md"], "  type: user\r\n") || !strings.Contains(after["feedback_crlf.md"], "\xff\xfe") {
		t.Errorf("CRLF file: %q", after["feedback_crlf.md"])
	}
	if r := lint.Run(lint.Input{Memory: s.Memory(), Now: enginetest.OpsNow}); r.Errors != 0 {
		t.Errorf("lint errors after the edits: %+v", r.Findings)
	}
	for range steps {
		if _, err := s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	restored := enginetest.ReadTree(t, dir)
	for k := range restored {
		if strings.HasPrefix(k, ".trash/") {
			delete(restored, k)
		}
	}
	if d := enginetest.DiffTrees(before, restored); d != "" {
		t.Errorf("undo did not restore:\n%.2000s", d)
	}
	// The journal held a 10 MiB file and reads back.
	data, _ := os.ReadFile(filepath.Join(dir, journal.Path))
	if entries, probs := journal.ParseEntries(journal.Path, data); len(entries) != 0 || len(probs) != 0 {
		t.Errorf("journal after undoing everything: %d entries, %v", len(entries), probs)
	}
}

func TestJournalLongLine(t *testing.T) {
	t.Parallel()
	e := journal.Entry{ID: "x", Op: OpSetBody, Files: []journal.File{{Path: "a.md", Existed: true, Before: []byte(strings.Repeat("é", 6<<20))}}}
	j := &journal.Journal{}
	j.Add(e)
	entries, probs := journal.ParseEntries(journal.Path, j.Bytes())
	if len(probs) != 0 || len(entries) != 1 || string(entries[0].Files[0].Before) != string(e.Files[0].Before) {
		t.Errorf("a 16 MiB journal line: %d entries, %v", len(entries), probs)
	}
}
