package claude

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// prompt runs `claude -p ARGS... -- text` in the project against a fake
// API that answers every call with a short text; it returns the client's
// output, its error, and the requests the API received.
func (w *world) prompt(t *testing.T, claude, text string, args ...string) (string, error, []Request) {
	t.Helper()
	api, err := StartFakeAPI(func(Request) Reply {
		return Reply{Blocks: []Block{{Text: "noted"}}, StopReason: "end_turn"}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, append(append([]string{"-p"}, args...), "--", text)...)
	cmd.Env, cmd.Dir = append(w.env, "ANTHROPIC_BASE_URL="+api.URL), w.project
	out, err := cmd.CombinedOutput()
	t.Logf("claude -p %v: %v\n%s", args, err, out)
	if ctx.Err() != nil {
		t.Fatalf("claude -p did not finish within %s", runTimeout)
	}
	return string(out), err, api.Requests()
}

// memscope runs the memscope at bin in the world, failing the test on a
// non-zero exit.
func (w *world) memscope(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = w.env, w.project
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("memscope %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// carries reports whether a request's messages hold every word.
func carries(reqs []Request, words ...string) bool {
	for _, r := range reqs {
		b, _ := json.Marshal(r.Body["messages"])
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(string(b), w)
		}
		if ok {
			return true
		}
	}
	return false
}

// TestResumeAfterVaultRestore: two turns of a session, a vault sync, the
// session's files deleted as the client's sweep deletes them, and
// `claude --resume` no longer finds it; `memscope vault restore` puts it
// back, and the resumed turn's request carries the first two turns'
// messages.
func TestResumeAfterVaultRestore(t *testing.T) {
	claude := client(t)
	bin := memscopeBinary(t)
	w := newWorld(t)
	vault := filepath.Join(w.root, "vault")
	sid := uuid()
	if _, err, _ := w.prompt(t, claude, "first turn: the code word is PELICAN-7", "--session-id", sid); err != nil {
		t.Fatalf("first turn: %v", err)
	}
	if _, err, reqs := w.prompt(t, claude, "second turn: the other word is ORCHID-3", "--resume", sid); err != nil || !carries(reqs, "PELICAN-7", "ORCHID-3") {
		t.Fatalf("second turn: %v, or its request lacks the first turn (%d requests)", err, len(reqs))
	}
	w.memscope(t, bin, "vault", "sync", "--home", w.config, "--vault", vault)
	dir := filepath.Join(w.config, "projects", model.Slug(w.project))
	tr := filepath.Join(dir, sid+".jsonl")
	before, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	// What the sweep deletes of a session: its transcript, its folder,
	// its file history and its session environment.
	for _, p := range []string{tr, filepath.Join(dir, sid), filepath.Join(w.config, "file-history", sid), filepath.Join(w.config, "session-env", sid)} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	out, err, reqs := w.prompt(t, claude, "third turn: which words?", "--resume", sid)
	if err == nil || carries(reqs, "PELICAN-7") {
		t.Fatalf("the client resumed a session whose files were deleted (%v):\n%s", err, out)
	}
	t.Logf("after the sweep, --resume: %v (%s)", err, strings.TrimSpace(out))
	lost := w.memscope(t, bin, "vault", "list", "--lost", "--home", w.config, "--vault", vault)
	if !strings.Contains(lost, sid) {
		t.Fatalf("vault list --lost does not name the session:\n%s", lost)
	}
	w.memscope(t, bin, "vault", "restore", sid, "--home", w.config, "--vault", vault)
	if got, err := os.ReadFile(tr); err != nil || string(got) != string(before) {
		t.Fatalf("the restored transcript is not the one synced (%v)", err)
	}
	out, err, reqs = w.prompt(t, claude, "third turn: which words?", "--resume", sid)
	if err != nil {
		t.Fatalf("--resume after the restore failed: %v\n%s", err, out)
	}
	if !carries(reqs, "PELICAN-7", "ORCHID-3", "third turn") {
		t.Errorf("the resumed turn's request does not carry the first turns' messages (%d requests)", len(reqs))
	}
}
