package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/store"
)

// trash lists what was deleted, --restore puts one back (journaled, so
// undo sends it to the trash again), and the file comes back byte for
// byte.
func TestTrashCommand(t *testing.T) {
	t.Parallel()
	e, out, errb := testEnv(t)
	l, mem := demoMemory(t, e)
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	orig, err := os.ReadFile(filepath.Join(mem, "user_role.md"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := store.Open(mem, nil)
	if _, err := s.Delete("user_role.md", store.WriteOptions{Now: e.now()}); err != nil {
		t.Fatal(err)
	}

	if code := run(e, append([]string{"trash", "--json"}, base...)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var list struct {
		MemoryDir string            `json:"memoryDir"`
		Items     []store.TrashItem `json:"items"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	if list.MemoryDir != mem || len(list.Items) != 1 || list.Items[0].Original != "user_role.md" ||
		!strings.HasPrefix(list.Items[0].Path, store.TrashDir+"/") || list.Items[0].Size != int64(len(orig)) {
		t.Fatalf("trash = %s", out)
	}

	out.Reset()
	if code := run(e, append([]string{"trash"}, base...)); code != 0 || !strings.Contains(out.String(), "1 memory") ||
		!strings.Contains(out.String(), "was user_role.md") {
		t.Fatalf("exit %d, text:\n%s%s", code, out, errb)
	}

	out.Reset()
	if code := run(e, append([]string{"trash", "--restore", list.Items[0].Path}, base...)); code != 0 {
		t.Fatalf("restore: exit %d: %s", code, errb)
	}
	if got, err := os.ReadFile(filepath.Join(mem, "user_role.md")); err != nil || string(got) != string(orig) {
		t.Fatalf("restored file differs (%v)", err)
	}
	if code := run(e, append([]string{"undo"}, base...)); code != 0 {
		t.Fatalf("undo: exit %d: %s", code, errb)
	}
	if _, err := os.Stat(filepath.Join(mem, "user_role.md")); !os.IsNotExist(err) {
		t.Fatalf("undo of the restore left the file in place (%v)", err)
	}
	// Not a trash path: refused, nothing written.
	errb.Reset()
	if code := run(e, append([]string{"trash", "--restore", "user_timezone.md"}, base...)); code != 1 || !strings.Contains(errb.String(), ".trash") {
		t.Fatalf("restore of a non-trash path: exit %d: %s", code, errb)
	}
}

// A trashed memory holding a secret is restored only with --force, and
// comes back with its index line as and where it was.
func TestTrashRestoreForce(t *testing.T) {
	t.Parallel()
	e, _, errb := testEnv(t)
	l, mem := demoMemory(t, e)
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	p := filepath.Join(mem, "user_role.md")
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	flagged := append(orig, "aws key AKIAQZ4XB7WJ2RTLMN5K\n"...)
	if err := os.WriteFile(p, flagged, 0o644); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(mem, "MEMORY.md"))
	s, _ := store.Open(mem, nil)
	if _, err := s.Delete("user_role.md", store.WriteOptions{Now: e.now()}); err != nil {
		t.Fatal(err)
	}
	items, _, err := s.ListTrash()
	if err != nil || len(items) != 1 {
		t.Fatalf("trash %+v, %v", items, err)
	}
	restore := append([]string{"trash", "--restore", items[0].Path}, base...)
	if code := run(e, restore); code != 1 || !strings.Contains(errb.String(), "--force") {
		t.Fatalf("restore of a flagged memory: exit %d, want 1 and a hint at --force: %s", code, errb)
	}
	if _, err := os.Stat(p); err == nil {
		t.Fatal("a refused restore wrote the file")
	}
	errb.Reset()
	if code := run(e, append(restore, "--force")); code != 0 {
		t.Fatalf("restore --force: exit %d: %s", code, errb)
	}
	if got, _ := os.ReadFile(p); string(got) != string(flagged) {
		t.Errorf("restored file differs:\n%s", got)
	}
	if got, _ := os.ReadFile(filepath.Join(mem, "MEMORY.md")); string(got) != string(index) {
		t.Errorf("index after restore:\n%s\nwant it as before the delete:\n%s", got, index)
	}
}
