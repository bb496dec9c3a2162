package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// vaultPane is the pane listing one home session and, from the vault,
// one the home lost (older) and one the home has again (not listed
// twice), at w×h.
func vaultPane(t *testing.T, w, h int) (Model, Session) {
	t.Helper()
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(w, h)
	home := Session{File: model.TranscriptFile{Path: "projects/p/home-1.jsonl", SessionID: "home-1", Kind: model.TranscriptMain, Size: 2048, ModTime: now.Add(-time.Hour)},
		Records: 12, Title: sessions.Title{Text: "still in the home", Source: sessions.TitleAI}, Active: sessions.Active{Time: now.Add(-time.Hour)}}
	lost := Session{File: model.TranscriptFile{Path: "projects/p/lost-1.jsonl", SessionID: "lost-1", Kind: model.TranscriptMain, Size: 4096, ModTime: now.AddDate(0, 0, -40)},
		Records: 30, Boundaries: 1, Title: sessions.Title{Text: "swept by the cleanup", Source: sessions.TitleAI}, Active: sessions.Active{Time: now.AddDate(0, 0, -40)}, Vault: true}
	again := home
	again.Vault = true
	m, _ = m.Update(SessionsLoadingMsg{Project: "p"})
	m, _ = m.Update(SessionsMsg{Sessions: []Session{home}, Now: now})
	m, _ = m.Update(VaultSessionsMsg{Project: "p", Sessions: []Session{again, lost}})
	return m, lost
}

// The list shows the vault-only session marked, after the newer home
// session, and not the vault's copy of a session the home has; the
// restore key is offered (first, so the footer shows it) only on the
// vault's row. The golden (100×12) was read by eye: two rows, the second
// "[only in the vault] swept by the cleanup", 40d ago.
func TestVaultRowListed(t *testing.T) {
	m, lost := vaultPane(t, 100, 12)
	if got := m.sessions.Items(); len(got) != 2 || got[1].File.SessionID != lost.File.SessionID {
		t.Fatalf("rows %+v, want the home's then the lost one", got)
	}
	got := screen(m)
	if strings.Count(got, "[only in the vault]") != 1 || strings.Count(got, "still in the home") != 1 {
		t.Errorf("the list marks the wrong rows:\n%s", got)
	}
	golden.RequireEqual(t, []byte(got))
	if m.VaultSelected() || strings.HasPrefix(helpKeys(m), "r") {
		t.Errorf("on the home's row: vault %v, help %q", m.VaultSelected(), helpKeys(m))
	}
	if _, out := press(t, m, "r"); len(out) != 1 || !strings.Contains(out[0].(msgs.Status).Text, "only the rescue vault holds") {
		t.Errorf("r on the home's row sent %#v", out)
	}
	m, _ = press(t, m, "down")
	if !m.VaultSelected() || helpKeys(m) != "r enter x X" {
		t.Errorf("on the vault's row: vault %v, help %q", m.VaultSelected(), helpKeys(m))
	}
	if _, out := press(t, m, "r"); len(out) != 1 || out[0] != (RestoreRequest{Session: "lost-1"}) {
		t.Errorf("r sent %#v", out)
	}
	if _, out := press(t, m, "x"); len(out) != 1 || !strings.Contains(out[0].(msgs.Status).Text, "r puts it back, then export") {
		t.Errorf("x on the vault's row sent %#v", out)
	}
	m, out := press(t, m, "enter")
	if len(out) != 1 || out[0] != (OpenVaultSession{Path: lost.File.Path}) {
		t.Errorf("enter sent %#v", out)
	}
	// Once the home lists it again (restored), it is an ordinary row.
	home := m.vault.home
	m, _ = m.Update(SessionsMsg{Sessions: append(home, Session{File: lost.File, Records: 30}), Now: now})
	m, _ = m.Update(VaultSessionsMsg{Project: "p"})
	if s := screen(m); strings.Contains(s, "[only in the vault]") || m.VaultSelected() {
		t.Errorf("the restored session is still the vault's:\n%s", s)
	}
}

// A vault-only session's timeline says it is a read-only copy and is not
// "following the file" (the home has no file to follow); r restores it.
func TestVaultTimelineMarked(t *testing.T) {
	tl := readTimeline(t)
	m, _ := vaultPane(t, 120, 30)
	lost := Session{File: model.TranscriptFile{Path: tl.Path, SessionID: tl.Session, Kind: model.TranscriptMain}, Vault: true}
	m, _ = m.Update(VaultSessionsMsg{Project: "p", Sessions: []Session{lost}})
	m = openTimeline(t, m, tl)
	m, _ = m.Update(FollowingMsg{On: true})
	got := screen(m)
	if !strings.Contains(got, "[only in the vault] read-only copy, r puts it back · step") || strings.Contains(got, "following") {
		t.Errorf("nav line of a vault session:\n%s", got)
	}
	if _, out := press(t, m, "r"); len(out) != 1 || out[0] != (RestoreRequest{Session: tl.Session}) {
		t.Errorf("r in the timeline sent %#v", out)
	}
}

// A vault list for another project than the one listed is dropped.
func TestVaultRowsOfAnotherProjectDropped(t *testing.T) {
	m, _ := vaultPane(t, 100, 12)
	m, _ = m.Update(VaultSessionsMsg{Project: "other", Sessions: []Session{{File: model.TranscriptFile{Path: "projects/other/x.jsonl", SessionID: "x"}, Vault: true}}})
	if s := screen(m); !strings.Contains(s, "[only in the vault] swept") || strings.Contains(s, " x ") {
		t.Errorf("another project's vault rows changed the list:\n%s", s)
	}
}
