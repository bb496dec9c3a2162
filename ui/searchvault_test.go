package ui

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/vault"
)

// ctrl+f finds text that only a session the sweep deleted held: the
// vault's copy is searched after the home (vault.SearchLost, what
// `memscope search --in vault` runs), the hit is labelled "only in the
// vault", and enter opens that copy in the Replay pane read-only at the
// hit, r then being the restore.
func TestSearchFindsVaultOnlySessionAndOpensIt(t *testing.T) {
	m, sid, gone := sweptDemo(t, 120, 40)
	const q = "TestRoundJPY" // an assistant's text in the swept session only
	in := false
	for _, b := range gone {
		in = in || bytes.Contains(b, []byte(q))
	}
	if !in {
		t.Fatalf("the swept session no longer holds %q: pick another word", q)
	}
	filepath.WalkDir(m.opts.Home.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(q)) {
				t.Fatalf("%s still holds %q: the hit would not be the vault's alone", p, q)
			}
		}
		return nil
	})
	m = typeQuery(t, m, q)
	hits := m.p.search.Hits()
	if len(hits) == 0 {
		t.Fatalf("no hit for %q, which only the vault holds:\n%s", q, screen(m))
	}
	for _, h := range hits {
		if !h.Vault || h.SessionID != sid || !strings.HasPrefix(h.Label, vault.OnlyInVault) {
			t.Errorf("hit %+v: want it marked as the vault's copy of session %s", h, sid)
		}
	}
	if s := screen(m); !strings.Contains(s, "only in the vault") {
		t.Errorf("the hit's heading does not say it is only in the vault:\n%s", s)
	}
	m = press(t, m, "enter")
	if m.focus != paneReplay {
		t.Fatalf("enter on the vault hit: focus %v, want Replay (status %q)", m.focus, m.status)
	}
	tl := m.p.replay.Timeline()
	if tl == nil || tl.Session != sid || tl.Records == 0 {
		t.Fatalf("enter on the vault hit opened %+v, want session %s from the vault (status %q)", tl, sid, m.status)
	}
	if s := screen(m); !strings.Contains(s, "read-only copy, r puts it back") || !strings.Contains(s, q) {
		t.Errorf("the vault session is not shown read-only at the hit:\n%s", s)
	}
	if !m.p.replay.VaultSelected() {
		t.Error("r (restore) is not offered on the vault session the hit opened")
	}
	for p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written back by opening the hit", p)
		}
	}
}

// Without a vault the search reads the home alone and reports no
// problem for the missing vault.
func TestSearchWithoutVaultReportsNothingMissing(t *testing.T) {
	m, _, _ := sweptDemo(t, 120, 40)
	empty := t.TempDir()
	get := m.opts.Getenv
	m.opts.Getenv = func(k string) string {
		if k == "MEMSCOPE_VAULT" {
			return empty
		}
		return get(k)
	}
	m = typeQuery(t, m, "TestRoundJPY")
	if n := len(m.p.search.Hits()); n != 0 {
		t.Errorf("%d hits with no vault, want none (the session is swept)", n)
	}
	if s := screen(m); !strings.Contains(s, "0 hits") || strings.Contains(s, "not read") {
		t.Errorf("the search without a vault:\n%s", s)
	}
}
