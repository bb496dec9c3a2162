package feed

import (
	"time"

	"os"
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/internal/secretgen"
	"github.com/memscope/memscope/model"
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
