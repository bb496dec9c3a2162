package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// undo --list shows the journal newest first without the saved bytes;
// undo --json reverts the newest change; a file edited since is refused.
func TestUndoCommand(t *testing.T) {
	e, out, errb := testEnv(t)
	l, mem := demoMemory(t, e)
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	s, _ := store.Open(mem, nil)
	o := store.WriteOptions{Now: e.now()}
	if _, err := s.Retype("user_timezone.md", model.TypeProject, o); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, mem)
	if _, err := s.Rename("user_role.md", "backend-lead", o); err != nil {
		t.Fatal(err)
	}

	if code := run(e, append([]string{"undo", "--list", "--json"}, base...)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var list struct {
		MemoryDir string        `json:"memoryDir"`
		Entries   []journalItem `json:"entries"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Entries) != 2 || list.Entries[0].Op != store.OpRename || list.Entries[1].Op != store.OpRetype || strings.Contains(out.String(), `"before"`) {
		t.Fatalf("list = %s", out)
	}
	acts := map[string]store.FileAction{}
	for _, f := range list.Entries[0].Files {
		acts[f.Path] = f.Action
	}
	if acts["user_role.md"] != store.FileDeleted || acts["user_backend_lead.md"] != store.FileCreated || acts["MEMORY.md"] != store.FileModified {
		t.Errorf("rename files = %v", acts)
	}

	out.Reset()
	if code := run(e, append([]string{"undo", "--json"}, base...)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var ch store.Change
	if err := json.Unmarshal(out.Bytes(), &ch); err != nil || ch.Op != store.OpRename || !strings.Contains(ch.Diff, "rename user_backend_lead.md → user_role.md") {
		t.Fatalf("undo output %s (%v)", out, err)
	}
	sameTree(t, "after undo", before, snapshot(t, mem))

	// The retype is next; a hand edit since then blocks it.
	p := filepath.Join(mem, "user_timezone.md")
	os.WriteFile(p, []byte("edited by hand\n"), 0o644)
	errb.Reset()
	if code := run(e, append([]string{"undo"}, base...)); code != 1 || !strings.Contains(errb.String(), "user_timezone.md changed on disk") {
		t.Errorf("undo over a hand edit: exit %d, %s", code, errb)
	}
	if data, _ := os.ReadFile(p); string(data) != "edited by hand\n" {
		t.Error("the refused undo overwrote the hand edit")
	}
}

// A CLAUDE.md the app saved (journaled in the home) is listed and undone
// by memscope undo in turn with the memory's changes, newest first.
func TestUndoTakesBackDocumentSaves(t *testing.T) {
	e, out, errb := testEnv(t)
	l, mem := demoMemory(t, e)
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	doc := filepath.Join(l.Project("shop-api"), "CLAUDE.md")
	orig, err := os.ReadFile(doc)
	if os.IsNotExist(err) {
		orig = []byte("# Shop API\n")
		if err := os.WriteFile(doc, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if err != nil {
		t.Fatal(err)
	}
	o := store.WriteOptions{Now: e.now()}
	if _, err := store.OpenDocument(doc, l.Home, nil).Replace(doc, orig, true, append(append([]byte{}, orig...), "Run make test.\n"...), o); err != nil {
		t.Fatal(err)
	}
	s, _ := store.Open(mem, nil)
	if _, err := s.Retype("user_timezone.md", model.TypeProject, store.WriteOptions{Now: e.now().Add(1)}); err != nil {
		t.Fatal(err)
	}

	if code := run(e, append([]string{"undo", "--list"}, base...)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(out.String(), doc) {
		t.Fatalf("--list does not show the CLAUDE.md save:\n%s", out)
	}
	for i, want := range []string{"retype", "CLAUDE.md"} {
		out.Reset()
		if code := run(e, append([]string{"undo"}, base...)); code != 0 {
			t.Fatalf("undo %d: exit %d: %s", i, code, errb)
		}
		if !strings.Contains(out.String(), want) {
			t.Fatalf("undo %d undid something else than the %s:\n%s", i, want, out)
		}
	}
	if got, _ := os.ReadFile(doc); string(got) != string(orig) {
		t.Fatalf("CLAUDE.md after undo:\n%s", got)
	}
}
