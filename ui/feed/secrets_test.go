package feed

import (
	"strings"
	"time"

	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/security"
)

// The Secrets feed scans on its first Load, not again until invalidated,
// and hands the pane the scan as its message.
func TestSecretsFeedScansWhenStale(t *testing.T) {
	dir := t.TempDir()
	aws := "AKIA" + secretgen.Token(93, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	p := filepath.Join(dir, "plans", "p.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("key "+aws+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSecrets()
	cmd := s.Load(secrets.Options{Home: home}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if cmd == nil || s.Stale() {
		t.Fatal("the first Load did not scan")
	}
	if s.Load(secrets.Options{Home: home}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)) != nil {
		t.Error("a second Load scanned again with nothing changed")
	}
	msg, ok := cmd().(SecretsLoaded)
	if !ok {
		t.Fatalf("the scan returned %T", cmd())
	}
	rep := s.Loaded(msg).Report
	if len(rep.Findings) != 1 || rep.Findings[0].File != "plans/p.md" {
		t.Fatalf("the pane's report: %+v", rep.Findings)
	}
	s.Invalidate()
	if !s.Stale() || s.Load(secrets.Options{Home: home}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)) == nil {
		t.Error("after Invalidate, Load did not scan again")
	}
}

// A restore's status says what the restore notes (lines Claude Code
// appended since the scrub are kept), and says the copy is deleted only
// when it is. (Moved whole from ui/security_test.go with the action it
// tests.)
func TestSecurityRestoreStatusSaysNotes(t *testing.T) {
	l, err := secretgen.Write(filepath.Join(t.TempDir(), "claude"), filepath.Join("..", "..", "model", "testdata", "transcripts"), testNow)
	if err != nil {
		t.Fatal(err)
	}
	home, err := model.OpenHome(l.Home, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	o := secrets.Options{Home: home}
	busy := secrets.BusyOptions{Now: testNow}
	ao := secrets.ApplyOptions{Home: home, Busy: busy, Now: testNow}
	res, err := secrets.Apply(ao, secrets.PlanScrub(o, secrets.Scan(o), nil, busy))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(home.Abs(l.Transcript), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"last-prompt","lastPrompt":"later","leafUuid":"a-3"}` + "\n")
	f.Close()
	done := secretsAction(ao, security.RestoreRequest{ID: res.ID})
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	if !strings.Contains(done.Text, "appended since the scrub are kept") || !strings.Contains(done.Text, "its copy is deleted") {
		t.Errorf("status %q does not say the appended bytes are kept and the copy is gone", done.Text)
	}
}
