package overview_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

// put writes a file of the test's home with its mtime.
func put(t *testing.T, dir, rel, data string, mt time.Time) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
	return p
}

func line(sid string) string {
	return `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"` + sid + `","cwd":"/w/p","message":{"role":"user","content":"hi"},"timestamp":"2026-10-27T10:00:00Z"}` + "\n"
}

// TestVaultHeldReplacedLines: on a home with three sessions the 30-day
// cleanup deletes within 7 days (25 days old), two of them synced to a
// vault and one of those changed since, a session that lives only in a
// .replaced copy, and a gate log with two held writes today and one
// yesterday: the vault line says 2 of 3 are not kept as they are (what
// the forecast's coverage says), the replaced line 2 (1 with no
// transcript left), the held line 2.
func TestVaultHeldReplacedLines(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "home")
	old := now.Add(-25 * 24 * time.Hour)
	ids := []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"}
	var paths []string
	for _, id := range ids {
		paths = append(paths, put(t, dir, "projects/-w-p/"+id+".jsonl", line(id), old))
	}
	gone := "44444444-4444-4444-8444-444444444444"
	put(t, dir, "projects/-w-p/"+gone+"/before-cleanup/1763632800000-ab12.jsonl.replaced", line(gone), old)
	// The first session's copy sits beside its live transcript: its
	// history before the compaction is only in the copy, but the session
	// itself is not gone.
	put(t, dir, "projects/-w-p/"+ids[0]+"/before-cleanup/1763632800000-cd34.jsonl.replaced", line(ids[0]), old)

	home, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	root := model.MountFS(testroot.New(t, base), filepath.ToSlash(dir), home.FS)
	vdir := filepath.Join(base, "vault")
	// Sync the first two sessions, then change the second.
	v := vault.Open(vdir, root, nil)
	for _, id := range ids[:2] {
		if _, err := v.Sync(vault.SyncOptions{Home: home, Session: model.SessionID(id), Now: now}); err != nil {
			t.Fatal(err)
		}
	}
	put(t, dir, "projects/-w-p/"+ids[1]+".jsonl", line(ids[1])+line(ids[1]), old.Add(time.Hour))

	glog := filepath.Join(base, "state", gate.LogName)
	if err := os.MkdirAll(filepath.Dir(glog), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range []gate.Record{
		{Time: now.Add(-24 * time.Hour), Tool: "Write", Path: "/m/a.md", Decision: gate.Deny},
		{Time: now.Add(-2 * time.Hour), Tool: "Write", Path: "/m/a.md", Decision: gate.Deny},
		{Time: now.Add(-time.Hour), Tool: "Edit", Path: "/m/b.md", Decision: gate.Ask},
		{Time: now.Add(-time.Minute), Tool: "Write", Path: "/m/c.md", Decision: gate.Allow},
	} {
		if err := gate.AppendRecord(glog, r); err != nil {
			t.Fatal(err)
		}
	}

	env := projectmem.Env{Root: root, Home: home, UserHome: base, Getenv: func(string) string { return "" }, Now: now}
	src := func() *overview.Source {
		return &overview.Source{Env: env, Alive: func(int) bool { return false }, Places: overview.Places{VaultDir: vdir, GateLog: glog}}
	}

	// The forecast's own coverage, as cleanup --forecast prints it.
	f := cleanup.ForecastHome(root, home, nil, overview.DefaultHorizon, now)
	sum, err := vault.Open(vdir, root, nil).Summarize()
	if err != nil {
		t.Fatal(err)
	}
	f.CoverVault(vdir, sum.LastSync, sum.Safe)
	if f.Vault == nil || f.Vault.Sessions != 3 {
		t.Fatalf("the forecast covers %+v, want 3 sessions within 7 days", f.Vault)
	}
	vl := overview.Compute(src(), overview.Vault)
	if vl.Count != 2 || vl.Count != f.Vault.Sessions-f.Vault.Kept || vl.Part(overview.PartKept) != 1 || !vl.Needs {
		t.Errorf("vault line %+v; the forecast keeps %d of %d", vl, f.Vault.Kept, f.Vault.Sessions)
	}

	if rl := overview.Compute(src(), overview.Replaced); rl.Count != 2 || rl.Part("copies") != 2 || rl.Part("gone") != 1 || !rl.Needs {
		t.Errorf("replaced line %+v, want 2 sessions of 2 copies, 1 with no transcript left", rl)
	}

	hl := overview.Compute(src(), overview.Held)
	if hl.Count != 2 || !hl.Needs || hl.Text != "2 memory writes held today: the Review pane lists the project's" {
		t.Errorf("held line %+v, want 2 held today", hl)
	}

	// Without places (the demo), both lines say so and count nothing.
	bare := &overview.Source{Env: env, Alive: func(int) bool { return false }}
	for _, id := range []overview.ID{overview.Vault, overview.Held} {
		if l := overview.Compute(bare, id); l.Count != 0 || l.Needs {
			t.Errorf("%s without places: %+v", id, l)
		}
	}
}

// TestFindPlaces: the demo has no vault and no gate log; another home
// has both under the user's XDG folders.
func TestFindPlaces(t *testing.T) {
	user := t.TempDir()
	userHome := func() (string, error) { return user, nil }
	none := func(string) string { return "" }
	if p := overview.FindPlaces(none, userHome, &model.Home{Dir: "/h", Source: model.HomeFromFlag}, true); p != (overview.Places{}) {
		t.Errorf("the demo: %+v", p)
	}
	p := overview.FindPlaces(none, userHome, &model.Home{Dir: "/h", Source: model.HomeFromFlag}, false)
	if p.VaultDir != filepath.Join(user, ".local/share/memscope/vault") || p.GateLog != filepath.Join(user, ".local/state/memscope", gate.LogName) {
		t.Errorf("a home: %+v", p)
	}
}
