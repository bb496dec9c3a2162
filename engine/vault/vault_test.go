package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/internal/testroot"
	"github.com/memscope/memscope/model"
)

var t0 = time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

const (
	proj = "-home-me-app"
	sidA = "11111111-1111-4111-8111-111111111111"
	sidB = "22222222-2222-4222-8222-222222222222"
)

// line is a transcript record of session sid, n-th of its file, with
// some bulk so files pass smallFile when asked.
func line(sid string, n int, bulk int) string {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	var b strings.Builder
	for b.Len() < bulk {
		fmt.Fprintf(&b, "word%d ", r.IntN(5000))
	}
	return fmt.Sprintf(`{"type":"user","sessionId":"%s","uuid":"u-%06d","message":{"role":"user","content":"%s"}}`+"\n", sid, n, b.String())
}

func transcript(sid string, from, to, bulk int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		b.WriteString(line(sid, i, bulk))
	}
	return b.String()
}

func write(t *testing.T, home, rel, content string, mtime time.Time) {
	t.Helper()
	p := filepath.Join(home, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// testHome makes a home with session A (transcript, subagent and its
// meta, a tool result, file history, a paste its prompt refers to), a
// memory folder, and session B, a fork of A (A's lines with B's id, then
// its own).
func testHome(t *testing.T, bulk int) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	write(t, home, "projects/"+proj+"/"+sidA+".jsonl", transcript(sidA, 0, 200, bulk), t0)
	write(t, home, "projects/"+proj+"/"+sidA+"/subagents/agent-a1.jsonl", transcript(sidA, 1000, 1020, bulk), t0)
	write(t, home, "projects/"+proj+"/"+sidA+"/subagents/agent-a1.meta.json", `{"agentType":"explore"}`, t0)
	write(t, home, "projects/"+proj+"/"+sidA+"/tool-results/abc.txt", strings.Repeat("output\n", 500), t0)
	write(t, home, "file-history/"+sidA+"/4cc29875db509bba@v1", "package main\n", t0)
	paste := "a pasted stack trace\n"
	sum := sha256.Sum256([]byte(paste))
	ph := hex.EncodeToString(sum[:8])
	write(t, home, "paste-cache/"+ph+".txt", paste, t0)
	write(t, home, "history.jsonl", fmt.Sprintf(`{"display":"fix [Pasted text #1]","pastedContents":{"1":{"id":1,"type":"text","contentHash":"%s"}},"timestamp":1761991200000,"project":"/home/me/app","sessionId":"%s"}`+"\n", ph, sidA), t0)
	write(t, home, "projects/"+proj+"/memory/MEMORY.md", "- [Tests](feedback_tests.md) — use the real db\n", t0)
	write(t, home, "projects/"+proj+"/memory/feedback_tests.md", "---\nname: tests\ntype: feedback\n---\nUse the real database.\n", t0)
	write(t, home, "projects/"+proj+"/"+sidB+".jsonl", transcript(sidB, 0, 200, bulk)+transcript(sidB, 5000, 5010, bulk), t0.Add(time.Hour))
	return home
}

func openVault(t *testing.T, w model.WriteFS) *Vault {
	t.Helper()
	return Open(filepath.Join(t.TempDir(), "vault"), testroot.New(t), w)
}

func homeOf(t *testing.T, dir string) *model.Home {
	t.Helper()
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func syncHome(t *testing.T, v *Vault, home string, now time.Time) SyncReport {
	t.Helper()
	rep, err := v.Sync(SyncOptions{Home: homeOf(t, home), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 {
		t.Fatalf("sync problems: %v", rep.Problems)
	}
	return rep
}

// fileState is a file's bytes, mode and mtime.
type fileState struct {
	data  string
	mode  fs.FileMode
	mtime time.Time
}

func snapshot(t *testing.T, home string, keep func(rel string) bool) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		rel = filepath.ToSlash(rel)
		if !keep(rel) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		out[rel] = fileState{string(data), info.Mode().Perm(), info.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func ofSessionA(rel string) bool {
	return strings.Contains(rel, sidA) || strings.HasPrefix(rel, "paste-cache/")
}

// sweep deletes what the client's sweep deletes of session A.
func sweep(t *testing.T, home string) {
	t.Helper()
	for _, p := range []string{"projects/" + proj + "/" + sidA + ".jsonl", "projects/" + proj + "/" + sidA, "file-history/" + sidA, "paste-cache"} {
		if err := os.RemoveAll(filepath.Join(home, p)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSyncSweepRestoreIsByteIdentical(t *testing.T) {
	home := testHome(t, 300)
	before := snapshot(t, home, ofSessionA)
	if len(before) != 6 {
		t.Fatalf("session A has %d files in the test home, want 6: %v", len(before), before)
	}
	v := openVault(t, nil)
	rep := syncHome(t, v, home, t0.Add(2*time.Hour))
	if rep.New != 10 || rep.Changed != 0 {
		t.Fatalf("first sync: %d new, %d changed, want 10 and 0", rep.New, rep.Changed)
	}
	sweep(t, home)
	rep = syncHome(t, v, home, t0.Add(3*time.Hour))
	if rep.Gone != 6 || rep.Unchanged != 4 {
		t.Fatalf("sync after the sweep: %d gone, %d unchanged; want 6 and 4", rep.Gone, rep.Unchanged)
	}
	list, err := v.List(homeOf(t, home))
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Session != sidA || list[0].InHome || !list[1].InHome {
		t.Fatalf("list: want the lost session A first, then B in the home; got %+v", list)
	}
	if list[0].Files != 5 {
		t.Errorf("session A has %d files in the vault, want 5 (transcript, subagent, meta, tool result, backup)", list[0].Files)
	}
	res, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: t0.Add(4 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 6 {
		t.Errorf("restore wrote %d files, want 6", res.Written)
	}
	after := snapshot(t, home, ofSessionA)
	for rel, b := range before {
		a, ok := after[rel]
		switch {
		case !ok:
			t.Errorf("%s not restored", rel)
		case a.data != b.data:
			t.Errorf("%s: restored bytes differ", rel)
		case a.mode != b.mode || !a.mtime.Equal(b.mtime):
			t.Errorf("%s: restored mode %v mtime %v, want %v %v", rel, a.mode, a.mtime, b.mode, b.mtime)
		}
	}
	if len(after) != len(before) {
		t.Errorf("restore left %d files of session A, want %d", len(after), len(before))
	}
	// Restoring again writes nothing: every file is there, identical.
	again, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: t0.Add(5 * time.Hour)})
	if err != nil || again.Written != 0 || again.Identical != 6 {
		t.Fatalf("second restore: %+v, %v; want 0 written, 6 identical", again, err)
	}
}

func TestRestoreRefusesAFileThatDiffers(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	sweep(t, home)
	write(t, home, "file-history/"+sidA+"/4cc29875db509bba@v1", "other bytes\n", t0)
	_, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: t0})
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Paths) != 1 {
		t.Fatalf("restore over a different file: %v, want a conflict naming it", err)
	}
	if _, err := os.Stat(filepath.Join(home, "projects", proj, sidA+".jsonl")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused restore wrote the transcript (%v)", err)
	}
}

func TestForkStoresOnlyWhatItAdded(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	a := transcript(sidA, 0, 400, 400)
	write(t, home, "projects/"+proj+"/"+sidA+".jsonl", a, t0)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	fork := transcript(sidB, 0, 400, 400) + transcript(sidB, 9000, 9010, 400)
	write(t, home, "projects/"+proj+"/"+sidB+".jsonl", fork, t0)
	rep := syncHome(t, v, home, t0.Add(time.Minute))
	if rep.New != 1 {
		t.Fatalf("the fork: %d new files, want 1", rep.New)
	}
	// The fork's own lines are 10 of 410; the chunk they start in
	// holds up to softMax of shared lines before them.
	if limit := int64(len(fork))/20 + softMax; rep.BytesNew > limit {
		t.Errorf("the fork stored %d new bytes of %d, want at most %d (its lines differ from the parent's only by sessionId)", rep.BytesNew, len(fork), limit)
	}
	// A resumed copy: the parent's lines as they are (the parent's id),
	// then lines of its own.
	const sidC = "33333333-3333-4333-8333-333333333333"
	resumed := a + transcript(sidC, 7000, 7010, 400)
	write(t, home, "projects/"+proj+"/"+sidC+".jsonl", resumed, t0)
	rep = syncHome(t, v, home, t0.Add(2*time.Minute))
	if limit := int64(len(resumed))/20 + softMax; rep.New != 1 || rep.BytesNew > limit {
		t.Errorf("the resumed copy stored %d new bytes of %d, want at most %d", rep.BytesNew, len(resumed), limit)
	}
	sweep(t, home)
	os.Remove(filepath.Join(home, "projects", proj, sidB+".jsonl"))
	os.Remove(filepath.Join(home, "projects", proj, sidC+".jsonl"))
	for _, s := range []model.SessionID{sidA, sidB, sidC} {
		if _, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: s, Now: t0}); err != nil {
			t.Fatal(err)
		}
	}
	for sid, want := range map[string]string{sidA: a, sidB: fork, sidC: resumed} {
		got, _ := os.ReadFile(filepath.Join(home, "projects", proj, sid+".jsonl"))
		if string(got) != want {
			t.Errorf("%s restored differs from the original", sid)
		}
	}
}

func TestIncrementalSyncReadsTheAppendedBytes(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	rel := "projects/" + proj + "/" + sidA + ".jsonl"
	content := transcript(sidA, 0, 3000, 700)
	if len(content) < 2*smallFile {
		t.Fatalf("test transcript is %d bytes; it must pass smallFile", len(content))
	}
	write(t, home, rel, content, t0)
	v := openVault(t, nil)
	first := syncHome(t, v, home, t0)
	if first.BytesRead != int64(len(content)) {
		t.Fatalf("first sync read %d bytes, want %d", first.BytesRead, len(content))
	}
	appended := transcript(sidA, 3000, 3100, 700)
	f, err := os.OpenFile(filepath.Join(home, rel), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A writer mid-line: the half line is not stored until it ends.
	half := line(sidA, 3100, 700)
	f.WriteString(appended + half[:100])
	f.Close()
	rep := syncHome(t, v, home, t0.Add(time.Minute))
	if rep.Changed != 1 {
		t.Fatalf("append: %d changed, want 1", rep.Changed)
	}
	if max := int64(len(appended)+100) + maxChunk; rep.BytesRead > max {
		t.Errorf("the sync after an append of %d bytes read %d, want at most %d (the appended bytes and the last chunk)", len(appended), rep.BytesRead, max)
	}
	st, _ := v.loadState()
	if got, want := st.get(rel).Latest().Size, int64(len(content)+len(appended)); got != want {
		t.Errorf("stored %d bytes, want %d (complete lines only)", got, want)
	}
	if n := len(st.get(rel).Versions); n != 1 {
		t.Errorf("an append made %d versions, want 1 (the old one is a prefix)", n)
	}
	f, _ = os.OpenFile(filepath.Join(home, rel), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(half[100:])
	f.Close()
	syncHome(t, v, home, t0.Add(2*time.Minute))
	vr, err := v.Verify()
	if err != nil || !vr.OK() {
		t.Fatalf("verify: %+v %v", vr, err)
	}
	other := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(other, 0o755)
	if _, err := v.Restore(RestoreOptions{Home: homeOf(t, other), Session: sidA, Now: t0}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(other, rel))
	if string(got) != content+appended+half {
		t.Errorf("restored after incremental syncs: %d bytes, want %d", len(got), len(content+appended+half))
	}
}

func TestChangedFilesKeepEveryVersion(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	mem := "projects/" + proj + "/memory/feedback_tests.md"
	write(t, home, mem, "---\nname: tests\ntype: feedback\n---\nUse the real database, never mocks.\n", t0.Add(time.Hour))
	// A transcript rewritten shorter (the client's local GC).
	tr := "projects/" + proj + "/" + sidB + ".jsonl"
	short := transcript(sidB, 5000, 5010, 50)
	os.Remove(filepath.Join(home, tr))
	write(t, home, tr, short, t0.Add(time.Hour))
	rep := syncHome(t, v, home, t0.Add(time.Hour))
	if rep.Changed != 2 {
		t.Fatalf("%d changed, want 2", rep.Changed)
	}
	st, _ := v.loadState()
	for _, rel := range []string{mem, tr} {
		if n := len(st.get(rel).Versions); n != 2 {
			t.Errorf("%s: %d versions, want 2 (the old content is not a prefix of the new)", rel, n)
		}
	}
}

func TestNULChunkStoredRaw(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	rel := "projects/" + proj + "/" + sidA + ".jsonl"
	content := line(sidA, 1, 20) + "{\"sessionId\":\"\x00\"}\n" + line(sidA, 2, 20)
	write(t, home, rel, content, t0)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	other := filepath.Join(t.TempDir(), "other")
	os.MkdirAll(other, 0o755)
	if _, err := v.Restore(RestoreOptions{Home: homeOf(t, other), Session: sidA, Now: t0}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(other, rel))
	if string(got) != content {
		t.Errorf("a line holding the marker's byte came back as %q", got)
	}
}

func TestVerifyFindsDamage(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	rep, err := v.Verify()
	if err != nil || !rep.OK() || rep.Versions != 10 {
		t.Fatalf("verify of a fresh vault: %+v %v", rep, err)
	}
	packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("%d packs, want 1", len(packs))
	}
	data, _ := os.ReadFile(packs[0])
	data[len(data)/2] ^= 0xff
	os.WriteFile(packs[0], data, 0o600)
	rep, err = v.Verify()
	if err != nil {
		t.Fatal(err)
	}
	// The damaged chunk is named through the versions made of it (the
	// chunk pass reads only chunks no version names).
	if rep.OK() || len(rep.Problems) == 0 || !strings.Contains(rep.Problems[0], "(version of ") {
		t.Errorf("verify of a damaged pack: %q, want the versions using the damaged chunk", rep.Problems)
	}
}

func TestUsageCountsDedupAndCompression(t *testing.T) {
	home := testHome(t, 300)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	u, err := v.Usage()
	if err != nil {
		t.Fatal(err)
	}
	if u.Sessions != 2 || u.Packs != 1 {
		t.Errorf("usage: %d sessions, %d packs; want 2 and 1", u.Sessions, u.Packs)
	}
	// Session B (90 of the home's 188 KB) repeats session A but for its
	// last lines: without dedup Unique would be RawAll.
	if u.Dedup > 0.8 {
		t.Errorf("dedup ratio %.2f: the fork repeats its parent, want under 0.8", u.Dedup)
	}
	if u.Ratio >= u.Dedup || u.Stored <= 0 {
		t.Errorf("stored %d (ratio %.2f) is not below the unique chunks' %.2f: compression did nothing", u.Stored, u.Ratio, u.Dedup)
	}
}

func TestPruneAndUndo(t *testing.T) {
	home := testHome(t, 50)
	// Without the fork, session A's chunks are its own: the prune leaves
	// its pack mostly unused, and rewrites it.
	os.Remove(filepath.Join(home, "projects", proj, sidB+".jsonl"))
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	sweep(t, home)
	syncHome(t, v, home, t0.Add(24*time.Hour))
	dry, err := v.Prune(PruneOptions{KeepDays: 10, DryRun: true, Now: t0.Add(5 * 24 * time.Hour)})
	if err != nil || dry.Files != 0 {
		t.Fatalf("prune keeping 10 days, 4 days after the loss: %+v %v, want nothing", dry, err)
	}
	now := t0.Add(20 * 24 * time.Hour)
	dry, err = v.Prune(PruneOptions{KeepDays: 10, DryRun: true, Now: now})
	if err != nil || dry.Files != 6 || len(dry.Sessions) != 1 {
		t.Fatalf("dry prune: %+v %v; want session A's 6 files", dry, err)
	}
	if l, _ := v.List(nil); len(l) != 1 {
		t.Fatalf("a dry prune changed the vault: %d sessions", len(l))
	}
	rep, err := v.Prune(PruneOptions{KeepDays: 10, Now: now})
	if err != nil || rep.Files != 6 || rep.PacksRewritten != 1 {
		t.Fatalf("prune: %+v %v", rep, err)
	}
	if l, _ := v.List(nil); len(l) != 0 {
		t.Fatalf("after the prune: %+v, want no session", l)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Fatalf("verify after prune: %+v %v", vr, err)
	}
	if _, err := v.UndoPrune(rep.ID, now); err != nil {
		t.Fatal(err)
	}
	if l, _ := v.List(nil); len(l) != 1 {
		t.Fatalf("after undo: %d sessions, want 1", len(l))
	}
	if _, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidA, Now: now}); err != nil {
		t.Fatalf("restore after the prune was undone: %v", err)
	}
}

func TestDirRefusesTheHome(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	uh := func() (string, error) { return "/home/me", nil }
	d, err := Dir("", env(nil), uh, "/home/me/.claude")
	if err != nil || d != "/home/me/.local/share/memscope/vault" {
		t.Errorf("default: %q %v", d, err)
	}
	d, err = Dir("", env(map[string]string{"XDG_DATA_HOME": "/data"}), uh, "/home/me/.claude")
	if err != nil || d != "/data/memscope/vault" {
		t.Errorf("XDG_DATA_HOME: %q %v", d, err)
	}
	if _, err := Dir("/home/me/.claude/vault", env(nil), uh, "/home/me/.claude"); !errors.Is(err, ErrInsideHome) {
		t.Errorf("a vault inside the home: %v, want ErrInsideHome", err)
	}
	if _, err := Dir("rel/vault", env(nil), uh, ""); err == nil {
		t.Errorf("a relative vault folder was accepted")
	}
}

// A state line whose head decodes but whose record does not is a state
// problem verify reports (and not OK), not a record silently skipped.
func TestVerifyReportsARecordThatDoesNotDecode(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	files, _ := filepath.Glob(filepath.Join(v.Dir, stateDir, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%d state files, want 1", len(files))
	}
	data, _ := os.ReadFile(files[0])
	lines := strings.Split(string(data), "\n")
	head, _, ok := strings.Cut(lines[0], "\t")
	if !ok {
		t.Fatalf("state line without a tab: %q", lines[0])
	}
	lines[0] = head + "\t{\"path\": broken"
	os.WriteFile(files[0], []byte(strings.Join(lines, "\n")), 0o600)
	rep, err := v.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || len(rep.State) != 1 || rep.State[0].Line != 1 || rep.State[0].File != files[0] {
		t.Errorf("verify of a state line whose record is broken: OK %v, state problems %+v; want the one problem at %s line 1", rep.OK(), rep.State, files[0])
	}
}

// Undoing a prune puts its dropped versions back beside those a sync
// added since, not over them: no version is lost either way.
func TestUndoPruneKeepsVersionsSyncedSince(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	mem := "projects/" + proj + "/memory/feedback_tests.md"
	bodies := []string{"Use the real database, never mocks.\n", "Use the real database in CI too.\n"}
	write(t, home, mem, bodies[0], t0.Add(time.Hour))
	syncHome(t, v, home, t0.Add(time.Hour))
	now := t0.Add(20 * 24 * time.Hour)
	rep, err := v.Prune(PruneOptions{KeepDays: 10, Now: now})
	if err != nil || rep.Versions != 1 {
		t.Fatalf("prune: %+v %v, want the memory file's first version dropped", rep, err)
	}
	write(t, home, mem, bodies[1], now.Add(time.Hour))
	syncHome(t, v, home, now.Add(time.Hour))
	if _, err := v.UndoPrune(rep.ID, now.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	st, _ := v.loadState()
	r := st.get(mem)
	if r == nil || len(r.Versions) != 3 {
		t.Fatalf("after the undo: %+v, want the 3 versions (pruned, kept, synced since)", r)
	}
	if l := r.Latest(); l.Size != int64(len(bodies[1])) || !l.ModTime.Equal(now.Add(time.Hour)) || !r.Versions[0].ModTime.Equal(t0) {
		t.Errorf("versions after the undo: %+v, want the pruned one first and the one synced since last", r.Versions)
	}
	if vr, err := v.Verify(); err != nil || !vr.OK() {
		t.Errorf("verify after the undo: %+v %v", vr, err)
	}
}

// A restore into another home (restore --to) brings the session's
// pastes too: that home's history.jsonl does not name them, the vault's
// copy of the source home's does.
func TestRestoreToAnotherHomeBringsThePastes(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	other := t.TempDir()
	rep, err := v.Restore(RestoreOptions{Home: homeOf(t, other), Session: sidA, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, home, ofSessionA)
	got := snapshot(t, other, ofSessionA)
	if len(got) != len(want) || rep.Written != len(want) {
		t.Errorf("restore into another home wrote %d files (%v), want the session's %d with its paste", rep.Written, got, len(want))
	}
	for rel, w := range want {
		if got[rel].data != w.data {
			t.Errorf("%s is not restored into the other home", rel)
		}
	}
}

// countingFS counts the bytes read from the vault's packs.
type countingFS struct {
	fs.FS
	n *int64
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil || !strings.HasSuffix(name, ".pack") {
		return f, err
	}
	return countingFile{f, c.n}, nil
}

type countingFile struct {
	fs.File
	n *int64
}

func (f countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.(io.ReaderAt).ReadAt(p, off)
	*f.n += int64(n)
	return n, err
}

func (f countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	*f.n += int64(n)
	return n, err
}

// verify reads each chunk a version names once per use, not again in a
// pass over every chunk: on a vault where no chunk is shared, it reads
// the packs' chunk bytes once.
func TestVerifyReadsEachChunkOnce(t *testing.T) {
	home := testHome(t, 50)
	os.Remove(filepath.Join(home, "projects", proj, sidB+".jsonl"))
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	var n int64
	v.root = countingFS{v.root, &n}
	rep, err := v.Verify()
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	packs, _ := filepath.Glob(filepath.Join(v.Dir, packsDir, "*.pack"))
	var size int64
	for _, p := range packs {
		info, _ := os.Stat(p)
		size += info.Size()
	}
	if n > size {
		t.Errorf("verify read %d bytes of %d bytes of packs: some chunks twice", n, size)
	}
	if n < size/2 {
		t.Errorf("verify read %d bytes of %d bytes of packs: not every chunk", n, size)
	}
}

// openCounting counts the opens of one file name.
type openCounting struct {
	fs.FS
	name string
	n    *int
}

func (c openCounting) Open(name string) (fs.File, error) {
	if path.Base(name) == c.name {
		*c.n++
	}
	return c.FS.Open(name)
}

func (c openCounting) OpenRegular(name string) (fs.File, error) {
	if path.Base(name) == c.name {
		*c.n++
	}
	return model.OpenRegular(c.FS, name)
}

// A command reads the VAULT file once: the CLI's Exists, then the
// prune's own check and its read of the state, do not read it again.
func TestFormatFileReadOnce(t *testing.T) {
	home := testHome(t, 50)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	v = Open(v.Dir, v.root, nil)
	var n int
	v.root = openCounting{v.root, formatFile, &n}
	if err := v.Exists(); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Prune(PruneOptions{KeepDays: 10, DryRun: true, Now: t0}); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("Exists and a prune opened %s %d times, want once", formatFile, n)
	}
	other := Open(filepath.Join(t.TempDir(), "none"), v.root, nil)
	if err := other.Exists(); !errors.Is(err, ErrNoVault) {
		t.Errorf("Exists of a folder without a vault: %v, want ErrNoVault", err)
	}
}

// A fork of a long transcript whose records (0.2 to 12 KB) often name
// the session near their end (a third of them here, as in the generated
// homes: "sessionId" before "uuid" and "version"): the chunk boundaries
// are decided on the lines as stored (ids factored out) and by bytes as
// much as by lines, so the fork cuts where its parent cut and stores
// its own lines and the chunk they start in. The old rule (the raw
// line's end, 64 lines, a cut at 256 KiB wherever the chunk began) cut
// the fork elsewhere and stored a third to all of it again.
func TestForkOfLongRecordsDedupes(t *testing.T) {
	long := func(sid string, n int) string {
		var b strings.Builder
		fmt.Fprintf(&b, `{"type":"mode","mode":"normal","sessionId":"%s"}`+"\n", sid)
		for i := range n {
			l := line(sid, i, 200+(i*7919)%12000)
			if i%3 == 0 {
				l = strings.Replace(l, `"sessionId":"`+sid+`",`, "", 1)
				l = fmt.Sprintf(`%s,"sessionId":"%s","uuid":"v-%06d","version":"2.1.330"}`+"\n", strings.TrimSuffix(l, "}\n"), sid, i)
			}
			b.WriteString(l)
		}
		return b.String()
	}
	home := filepath.Join(t.TempDir(), "home")
	parent := long(sidA, 1000)
	write(t, home, "projects/"+proj+"/"+sidA+".jsonl", parent, t0)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	own := transcript(sidB, 9000, 9010, 4000)
	fork := long(sidB, 1000) + own
	write(t, home, "projects/"+proj+"/"+sidB+".jsonl", fork, t0)
	rep := syncHome(t, v, home, t0.Add(time.Minute))
	if limit := int64(len(own)) + softMax; rep.New != 1 || rep.BytesNew > limit {
		t.Errorf("the fork (%d bytes, %d of its own) stored %d new bytes, want at most %d", len(fork), len(own), rep.BytesNew, limit)
	}
	sweep(t, home)
	os.Remove(filepath.Join(home, "projects", proj, sidB+".jsonl"))
	if _, err := v.Restore(RestoreOptions{Home: homeOf(t, home), Session: sidB, Now: t0}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(home, "projects", proj, sidB+".jsonl")); string(got) != fork {
		t.Error("the fork does not restore byte for byte")
	}
}
