package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// sweptDemo materializes the demo home, keeps it in a vault of the
// test's, then deletes one session of shop-api (its transcript and its
// folder) as the sweep would. It returns the app on that home with that
// vault, the session's id, and the deleted files' bytes by path.
func sweptDemo(t *testing.T, w, h int) (Model, string, map[string][]byte) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	vdir := filepath.Join(t.TempDir(), "vault")
	home := &model.Home{Dir: l.Home, FS: os.DirFS(l.Home), Source: model.HomeFromFlag}
	root := testroot.New(t)
	if _, err := vault.Open(vdir, root, nil).Sync(vault.SyncOptions{Home: home, Now: testNow}); err != nil {
		t.Fatal(err)
	}
	pdir := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")))
	trs, _ := filepath.Glob(filepath.Join(pdir, "*.jsonl"))
	if len(trs) < 2 {
		t.Fatalf("the demo's shop-api has %d sessions, want 2 or more", len(trs))
	}
	sid := strings.TrimSuffix(filepath.Base(trs[0]), ".jsonl")
	gone := map[string][]byte{}
	filepath.WalkDir(filepath.Join(pdir, sid), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			gone[p], _ = os.ReadFile(p)
		}
		return nil
	})
	gone[trs[0]], _ = os.ReadFile(trs[0])
	os.RemoveAll(filepath.Join(pdir, sid))
	os.Remove(trs[0])
	m := loadedModel(t, Options{Home: home, Project: l.Project("shop-api"), Root: root, Getenv: func(k string) string {
		switch k {
		case "NO_COLOR":
			return "1"
		case "MEMSCOPE_VAULT":
			return vdir
		}
		return ""
	}}, w, h)
	return m, sid, gone
}

// toVaultRow moves the Replay list's cursor to the vault-only row.
func toVaultRow(t *testing.T, m Model) Model {
	t.Helper()
	for i := 0; !m.p.replay.VaultSelected(); i++ {
		if i == 20 {
			t.Fatalf("no vault-only row is selectable:\n%s", screen(m))
		}
		m = press(t, m, "down")
	}
	return m
}

// The Replay pane lists the session the sweep deleted, marked as only
// in the vault; enter opens its records from the vault's copy; r puts
// it back byte for byte (the row becomes an ordinary session); u takes
// the restore back, and the row is the vault's again.
func TestReplayListsRestoresAndUndoesVaultSession(t *testing.T) {
	m, sid, gone := sweptDemo(t, 120, 40)
	m = press(t, m, "7")
	if s := screen(m); !strings.Contains(s, "[only in the vault]") {
		t.Fatalf("Replay does not list the swept session:\n%s", s)
	}
	m = toVaultRow(t, m)
	if ok, why := m.available("vault_restore"); !ok {
		t.Fatalf("restore unavailable on a vault-only row: %s", why)
	}
	m = press(t, m, "enter")
	tl := m.p.replay.Timeline()
	if tl == nil || tl.Session != sid || tl.Records == 0 {
		t.Fatalf("enter on the vault row opened %+v, want session %s with its records (status %q)", tl, sid, m.status)
	}
	if s := screen(m); !strings.Contains(s, "read-only copy, r puts it back") || strings.Contains(s, "following the file") {
		t.Errorf("the vault session's timeline is not marked read-only:\n%s", s)
	}
	m = press(t, m, "r")
	for p, want := range gone {
		if got, err := os.ReadFile(p); err != nil || string(got) != string(want) {
			t.Fatalf("%s after the restore: %v, %d bytes, want the %d swept (status %q)", p, err, len(got), len(want), m.status)
		}
	}
	if !strings.Contains(m.status, "u undoes it") || m.p.replay.VaultSelected() {
		t.Fatalf("after the restore: status %q, still vault-only %v", m.status, m.p.replay.VaultSelected())
	}
	m = press(t, m, "esc")
	if s := screen(m); strings.Contains(s, "[only in the vault]") {
		t.Errorf("the restored session is still listed as only in the vault:\n%s", s)
	}
	m = press(t, m, "u")
	for p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there after u (status %q)", p, m.status)
		}
	}
}

// r on a session the home has says what it is for and writes nothing.
func TestRestoreKeyNeedsVaultSession(t *testing.T) {
	m, _, gone := sweptDemo(t, 120, 40)
	m = press(t, m, "7")
	if m.p.replay.VaultSelected() {
		m = press(t, m, "up")
	}
	if m.p.replay.VaultSelected() {
		t.Fatal("the first rows are all vault-only")
	}
	if ok, why := m.available("vault_restore"); ok || why != "needs a vault-only session selected" {
		t.Errorf("restore on a home session: available %v (%q)", ok, why)
	}
	m = press(t, m, "r")
	if !strings.Contains(m.status, "only the rescue vault holds") {
		t.Errorf("status %q", m.status)
	}
	for p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written by r on a home session", p)
		}
	}
}
