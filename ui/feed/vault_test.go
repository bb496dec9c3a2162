package feed

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/replay"
)

// The Vault feed on its own: a session the sweep deleted is listed as
// the vault's, the list is not read again for the same home sessions,
// a restore puts the transcript back byte for byte, and after it the
// rows are read again (the home gained a session).
func TestVaultFeedListsAndRestoresASweptSession(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l, err := demo.Materialize(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	vdir := filepath.Join(t.TempDir(), "vault")
	home := &model.Home{Dir: l.Home, FS: os.DirFS(l.Home), Source: model.HomeFromFlag}
	root := testroot.New(t)
	if _, err := vault.Open(vdir, root, nil).Sync(vault.SyncOptions{Home: home, Now: now}); err != nil {
		t.Fatal(err)
	}
	slug := model.Slug(l.Project("shop-api"))
	pdir := filepath.Join(l.Home, "projects", slug)
	trs, _ := filepath.Glob(filepath.Join(pdir, "*.jsonl"))
	if len(trs) < 2 {
		t.Fatalf("the demo's shop-api has %d sessions, want 2 or more", len(trs))
	}
	sid := strings.TrimSuffix(filepath.Base(trs[0]), ".jsonl")
	was, err := os.ReadFile(trs[0])
	if err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(pdir, sid))
	if err := os.Remove(trs[0]); err != nil {
		t.Fatal(err)
	}

	v := NewVault(vdir, root, home, model.OSWriteFS{})
	homeRows := []replay.Session{{File: model.TranscriptFile{SessionID: "other"}}}
	cmd := v.SessionsAfter(slug, homeRows)
	if cmd == nil {
		t.Fatal("no vault read for a project never listed")
	}
	got, ok := cmd().(VaultSessions)
	if !ok || got.Err != nil || got.Status() != "" {
		t.Fatalf("vault rows: %#v", got)
	}
	var found bool
	for _, s := range got.Sessions {
		if s.File.SessionID == sid {
			found = s.Vault && s.Records > 0
		}
	}
	if !found {
		t.Fatalf("swept session %s is not a summarized vault row in %+v", sid, got.Sessions)
	}
	if pm := got.PaneMsg(); pm.Project != slug || len(pm.Sessions) != len(got.Sessions) {
		t.Errorf("pane message %+v", pm)
	}
	if v.SessionsAfter(slug, homeRows) != nil {
		t.Error("the vault rows were read again for the same home sessions")
	}
	fsys, closeFS, err := v.Lost()()
	if err != nil {
		t.Fatal(err)
	}
	if b, err := fs.ReadFile(fsys, "projects/"+slug+"/"+sid+".jsonl"); err != nil || !bytes.Equal(b, was) {
		t.Errorf("the vault's view of the swept transcript differs (%v)", err)
	}
	closeFS()

	r, ok := v.Restore(slug, sid, now.Add(time.Hour))().(VaultRestored)
	if !ok || r.Err != nil || r.Slug != slug || r.Rep.Written == 0 {
		t.Fatalf("restore: %#v", r)
	}
	if s, isErr := r.Status(); isErr || !strings.Contains(s, "put back") || !strings.Contains(s, sid) {
		t.Errorf("restore status %q (error %v)", s, isErr)
	}
	if b, err := os.ReadFile(trs[0]); err != nil || !bytes.Equal(b, was) {
		t.Errorf("the restored transcript differs from the swept one (%v)", err)
	}
	v.Forget()
	if v.SessionsAfter(slug, homeRows) == nil {
		t.Error("after a restore the vault rows are not read again")
	}
	if NewVault("", root, home, nil).SessionsAfter(slug, homeRows) != nil {
		t.Error("a home without a vault reads vault rows")
	}
	if _, _, err := NewVault("", root, home, nil).Lost()(); err == nil {
		t.Error("opening the vault's view without a vault did not fail")
	}
}
