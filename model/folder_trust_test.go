package model

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// trustHome writes a home of two projects: sessions with subagents,
// tool results and a .replaced copy.
func trustHome(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{
		"projects/p1/s1.jsonl",
		"projects/p1/s1/subagents/agent-a.jsonl",
		"projects/p1/s1/subagents/agent-a.meta.json",
		"projects/p1/s1/tool-results/t1.txt",
		"projects/p1/s1/tool-results/t2.txt",
		"projects/p1/memory/MEMORY.md",
		"projects/p2/s2.jsonl",
		"projects/p2/s2/" + ReplacedDir + "/1-ab" + ReplacedSuffix,
		"projects/p2/s3/tool-results/t3.txt",
		"sessions/x/transcript.jsonl",
	} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"type":"user"}`+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// trustedFind is FindSessionFiles of the home dir by the trusted
// folders' rule at at, given *kept (ListOnce of it when listed), checked
// against a plain listing's; *kept becomes what it keeps.
func trustedFind(t *testing.T, dir string, listed bool, what string, at time.Time, kept *KeptFolders) *TrustedFolders {
	t.Helper()
	tr := NewTrustedFolders(dir, *kept, at)
	fsys := TrustingFS(HomeFS(dir), tr)
	if listed {
		fsys = ListOnce(fsys)
	}
	got, gotProbs := FindSessionFiles(fsys)
	want, wantProbs := FindSessionFiles(HomeFS(dir))
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProbs, wantProbs) {
		t.Fatalf("listed %v, %s: got\n%+v %v\nwant (every folder listed)\n%+v %v", listed, what, got, gotProbs, want, wantProbs)
	}
	*kept, _ = tr.Kept()
	return tr
}

// TestTrustedFoldersListNoUnchangedFolder: a start given the listings
// the run before it kept lists no folder of an unchanged home (each
// answered by one stat of the folder), answers as a listing of every
// folder does, and sees every change that moves a folder: a file
// added, removed or renamed in, a folder replaced (its time set back),
// a new session folder, a folder too young to trust (listed again,
// and not kept), and the daily full pass. Both ways a home is read
// (its file system, and ListOnce of it) are checked.
func TestTrustedFoldersListNoUnchangedFolder(t *testing.T) {
	t.Parallel()
	for _, listed := range []bool{false, true} {
		dir := trustHome(t)
		// The clock a minute ahead: the folders written by the test are
		// settled (their change time, which no program sets back, is now).
		now := time.Now().Add(time.Minute)
		var kept KeptFolders
		run := func(what string, at time.Time) (trusted, lists int) {
			t.Helper()
			return trustedFind(t, dir, listed, what, at, &kept).Counts()
		}
		if trusted, lists := run("cold", now); trusted != 0 || lists == 0 {
			t.Fatalf("cold: %d trusted, %d listed", trusted, lists)
		}
		if trusted, lists := run("warm", now); trusted == 0 || lists != 0 {
			t.Fatalf("listed %v, warm on an unchanged home: %d folders trusted, %d listed (want none listed)", listed, trusted, lists)
		}
		// A run that lists one project keeps the others' listings.
		one := NewTrustedFolders(dir, kept, now)
		if _, probs := FindProjectSessionFiles(TrustingFS(HomeFS(dir), one), "p1"); len(probs) > 0 {
			t.Fatal(probs)
		}
		if k, changed := one.Kept(); changed || !reflect.DeepEqual(k, kept) {
			t.Fatalf("listed %v, a run of one project: kept changed %v (%d folders, want %d)", listed, changed, len(k.Dirs), len(kept.Dirs))
		}
		write := func(f string) {
			t.Helper()
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		// changed says a change was seen: the folder it moved was listed.
		changed := func(what string, at time.Time) {
			t.Helper()
			if _, lists := run(what, at); lists == 0 {
				t.Fatalf("listed %v, %s: no folder listed", listed, what)
			}
			if _, lists := run(what+", again", at); lists != 0 {
				t.Fatalf("listed %v, %s, again: %d folders listed", listed, what, lists)
			}
		}
		write("projects/p1/s1/subagents/agent-b.jsonl")
		changed("a subagent added", now)
		if err := os.Remove(filepath.Join(dir, "projects/p1/s1/tool-results/t1.txt")); err != nil {
			t.Fatal(err)
		}
		changed("a tool result removed", now)
		write("elsewhere/t9.txt")
		if err := os.Rename(filepath.Join(dir, "elsewhere/t9.txt"), filepath.Join(dir, "projects/p2/s3/tool-results/t9.txt")); err != nil {
			t.Fatal(err)
		}
		changed("a tool result renamed in", now)
		// A folder replaced by another of other files, its time set back
		// to the old one's: its identity (and change time) differ.
		sub := filepath.Join(dir, "projects/p1/s1/subagents")
		old, err := os.Stat(sub)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(sub, filepath.Join(dir, "elsewhere/gone")); err != nil {
			t.Fatal(err)
		}
		write("projects/p1/s1/subagents/agent-z.jsonl")
		for _, p := range []string{sub, filepath.Dir(sub)} {
			if err := os.Chtimes(p, old.ModTime(), old.ModTime()); err != nil {
				t.Fatal(err)
			}
		}
		changed("a folder replaced, its time set back", now)
		write("projects/p2/s4/subagents/agent-c.jsonl")
		write("projects/p2/s2/tool-results/t4.txt")
		changed("a session folder and a tool-results folder added", now)
		// Too young: a folder changed less than WriteOnceSettle before
		// the run is listed, and listed again by the next.
		write("projects/p1/s1/tool-results/t5.txt")
		young := time.Now()
		for range 2 {
			if _, lists := run("too young", young); lists == 0 {
				t.Fatalf("listed %v, a folder too young: not listed", listed)
			}
			if _, ok := kept.Dirs["projects/p1/s1/tool-results"]; ok {
				t.Fatalf("listed %v, a folder too young is kept", listed)
			}
		}
		changed("settled", now)
		// A day after the last full pass every folder is listed again.
		day := now.Add(WriteOnceFull)
		if trusted, _ := run("a day later", day); trusted != 0 {
			t.Fatalf("listed %v, a day later: %d folders trusted", listed, trusted)
		}
		if _, lists := run("a day later, again", day); lists != 0 {
			t.Fatalf("listed %v, a day later, again: %d listed", listed, lists)
		}
	}
}

// TestTrustedFoldersKeepNoLink: a folder with a link in it (a walk
// follows it) is listed every time.
func TestTrustedFoldersKeepNoLink(t *testing.T) {
	t.Parallel()
	dir := trustHome(t)
	if err := os.Symlink("s1", filepath.Join(dir, "projects/p1/s9")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	now := time.Now().Add(time.Minute)
	var kept KeptFolders
	for range 2 {
		tr := NewTrustedFolders(dir, kept, now)
		if _, err := fs.ReadDir(TrustingFS(HomeFS(dir), tr), "projects/p1"); err != nil {
			t.Fatal(err)
		}
		kept, _ = tr.Kept()
		if _, ok := kept.Dirs["projects/p1"]; ok {
			t.Fatal("a folder with a link was kept")
		}
	}
}

// A folder that is not there is reported as a listing reports it.
func TestTrustedFoldersMissingFolderError(t *testing.T) {
	t.Parallel()
	dir := trustHome(t)
	tr := NewTrustedFolders(dir, KeptFolders{}, time.Now().Add(time.Minute))
	for _, name := range []string{"projects/p1/s1/before-cleanup", "projects/nope/s1"} {
		_, want := fs.ReadDir(HomeFS(dir), name)
		for _, fsys := range []fs.FS{TrustingFS(HomeFS(dir), tr), ListOnce(TrustingFS(HomeFS(dir), tr))} {
			_, err := fs.ReadDir(fsys, name)
			if err == nil || want == nil || err.Error() != want.Error() || !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %v, want %v", name, err, want)
			}
		}
	}
}

// TestTrustedFoldersSessionSubfoldersNoStat: a warm start on an
// unchanged home stats only the folders it lists from kept listings
// that are there (projects/, sessions/ and the four session subfolders
// of trustHome): a project or session folder's stamp is its entry's in
// the listing above it, and a session subfolder (subagents,
// tool-results, before-cleanup) its session folder does not hold is not
// asked for. Before, every project folder and each session's three
// subfolder names were stat'ed (13). A session subfolder added to a
// settled home (the session folder's time set back) is still seen.
func TestTrustedFoldersSessionSubfoldersNoStat(t *testing.T) {
	t.Parallel()
	for _, listed := range []bool{false, true} {
		dir := trustHome(t)
		now := time.Now().Add(time.Minute)
		var kept KeptFolders
		run := func(what string) int64 {
			t.Helper()
			return trustedFind(t, dir, listed, what, now, &kept).stamped.Load()
		}
		run("cold")
		if n := run("warm"); n != 6 {
			t.Fatalf("listed %v, warm on an unchanged home: %d folders stat'ed, want 6", listed, n)
		}
		sess := filepath.Join(dir, "projects/p2/s3")
		old, err := os.Stat(sess)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(sess, "subagents", "agent-q.jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(sess, old.ModTime(), old.ModTime()); err != nil {
			t.Fatal(err)
		}
		run("a subagents folder added, the session folder's time set back")
		if n := run("warm again"); n != 7 {
			t.Fatalf("listed %v, warm again: %d folders stat'ed, want 7", listed, n)
		}
	}
}
