package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/model"
)

// After the sweep deletes a session the vault kept: search --in vault
// finds in it what search found in the home before (every hit labelled
// as the vault's), search of the home alone no longer does, and replay
// SESSION reads the vault's copy, saying so and how to put it back, with
// the same records as before.
func TestVaultOnlySessionSearchAndReplay(t *testing.T) {
	l, cmd := demoWithVault(t)
	hitsOf := func(out string) (n int, labels []string) {
		for _, ln := range strings.Split(strings.TrimSpace(out), "\n") {
			var h search.Hit
			if json.Unmarshal([]byte(ln), &h) != nil || h.SessionID != demoSession {
				continue
			}
			n++
			labels = append(labels, h.Label)
		}
		return n, labels
	}
	before, _ := cmd("search", "Basket", "--in", "transcripts", "--json")
	want, _ := hitsOf(before)
	if want == 0 {
		t.Fatalf("the demo session has no hit for Basket:\n%s", before)
	}
	sessionsBefore, _ := cmd("sessions", "--json")
	replayBefore, code := cmd("replay", demoSession, "--json")
	if code != 0 {
		t.Fatalf("replay: %d %s", code, replayBefore)
	}
	if out, code := cmd("vault", "sync"); code != 0 {
		t.Fatalf("sync: %d %s", code, out)
	}
	dir := filepath.Join(l.Home, "projects", model.Slug(l.Project("shop-api")))
	os.Remove(filepath.Join(dir, demoSession+".jsonl"))
	os.RemoveAll(filepath.Join(dir, demoSession))

	home, _ := cmd("search", "Basket", "--in", "transcripts", "--json")
	if n, _ := hitsOf(home); n != 0 {
		t.Errorf("the home still has %d hits in the deleted session", n)
	}
	vaulted, code := cmd("search", "Basket", "--in", "vault", "--json")
	got, labels := hitsOf(vaulted)
	if code != 0 || got != want {
		t.Errorf("search --in vault: exit %d, %d hits in the session, want %d as before the sweep", code, got, want)
	}
	for _, lb := range labels {
		if !strings.HasPrefix(lb, vaultOnlyLabel) {
			t.Errorf("a vault hit is labelled %q", lb)
			break
		}
	}
	if strings.Count(vaulted, `"vault": true`)+strings.Count(vaulted, `"vault":true`) != got {
		t.Errorf("search --in vault --json: not every one of the %d hits says \"vault\": true:\n%s", got, vaulted)
	}
	text, _ := cmd("search", "Basket", "--in", "vault")
	if !strings.Contains(text, "only in the vault") || !strings.Contains(text, "memscope vault restore SESSION") {
		t.Errorf("search --in vault text does not say where hits come from:\n%s", text)
	}

	replayed, code := cmd("replay", demoSession, "--json")
	if code != 0 {
		t.Fatalf("replay of the lost session: %d %s", code, replayed)
	}
	var a, b replayOut
	json.Unmarshal([]byte(replayBefore), &a)
	if err := json.Unmarshal([]byte(replayed), &b); err != nil {
		t.Fatal(err)
	}
	if b.Vault == nil || !strings.Contains(b.Vault.Restore, "memscope vault restore "+demoSession) {
		t.Errorf("replay from the vault does not say so: %+v", b.Vault)
	}
	if a.Vault != nil || b.Records != a.Records || len(b.Turns) != len(a.Turns) || b.Records == 0 {
		t.Errorf("replay from the vault: %d records, %d turns; before the sweep %d, %d", b.Records, len(b.Turns), a.Records, len(a.Turns))
	}
	txt, _ := cmd("replay", demoSession)
	if !strings.Contains(txt, "the home no longer has this session") {
		t.Errorf("replay text does not say it read the vault:\n%s", txt)
	}
	// sessions --lost: the lost session alone, with the records it had.
	type sessionsJSON struct {
		Vault    string `json:"vault"`
		Sessions []struct {
			SessionID string `json:"sessionId"`
			Records   int    `json:"records"`
			Subagents int    `json:"subagents"`
		} `json:"sessions"`
	}
	var home0, rep sessionsJSON
	json.Unmarshal([]byte(sessionsBefore), &home0)
	wantRecords := -1
	for _, r := range home0.Sessions {
		if r.SessionID == demoSession {
			wantRecords = r.Records
		}
	}
	lostJSON, code := cmd("sessions", "--lost", "--json")
	if err := json.Unmarshal([]byte(lostJSON), &rep); err != nil || code != 0 {
		t.Fatalf("sessions --lost: exit %d %v\n%.500s", code, err, lostJSON)
	}
	if len(rep.Sessions) != 1 || rep.Sessions[0].SessionID != demoSession || rep.Sessions[0].Records != wantRecords || rep.Vault == "" {
		t.Errorf("sessions --lost: %+v, want only %s with %d records (subagents included) as the home had", rep, demoSession, wantRecords)
	}
	if txt, _ := cmd("sessions", "--lost"); !strings.Contains(txt, "gone from the home") || !strings.Contains(txt, "memscope vault restore ID") {
		t.Errorf("sessions --lost text:\n%s", txt)
	}
	if out, code := cmd("replay", "ffffffff-0000-4000-8000-000000000000"); code == 0 || !strings.Contains(out, "no session") {
		t.Errorf("an id neither holds: exit %d %s", code, out)
	}
}
