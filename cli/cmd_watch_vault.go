package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// keepAll syncs the whole home into the vault (watch --vault, at start).
func (w *watchRun) keepAll() {
	if w.opts.vault {
		w.keepSession("")
	}
}

// keep syncs into the vault the sessions whose files are among the
// changed paths (watch --vault).
func (w *watchRun) keep(paths []string) {
	if !w.opts.vault {
		return
	}
	sessions := map[model.SessionID]bool{}
	for _, p := range paths {
		if sid, ok := sessionOfPath(p); ok {
			sessions[sid] = true
		}
	}
	ids := make([]string, 0, len(sessions))
	for s := range sessions {
		ids = append(ids, string(s))
	}
	sort.Strings(ids)
	for _, s := range ids {
		w.keepSession(model.SessionID(s))
	}
}

// sessionOfPath is the session a home path belongs to:
// projects/<slug>/<session>.jsonl, projects/<slug>/<session>/…,
// file-history/<session>/….
func sessionOfPath(p string) (model.SessionID, bool) {
	parts := strings.Split(p, "/")
	switch {
	case len(parts) == 3 && parts[0] == "projects" && strings.HasSuffix(parts[2], ".jsonl"):
		return model.SessionID(strings.TrimSuffix(parts[2], ".jsonl")), true
	case len(parts) > 3 && parts[0] == "projects" && parts[2] != "memory":
		return model.SessionID(parts[2]), true
	case len(parts) > 2 && parts[0] == model.FileHistoryDir:
		return model.SessionID(parts[1]), true
	}
	return "", false
}

// keepSession syncs one session ("" the whole home) and says what was
// kept on stderr; a failure is said and the watch goes on.
func (w *watchRun) keepSession(sid model.SessionID) {
	dir, err := vault.Dir("", w.e.getenv, w.e.userHome, w.home.Dir)
	if err != nil {
		fmt.Fprintf(w.e.stderr, "memscope watch: vault: %v\n", err)
		return
	}
	rep, err := vault.Open(dir, w.e.root, w.e.writer()).Sync(vault.SyncOptions{Home: w.home, Session: sid, Now: w.e.now()})
	if err != nil {
		fmt.Fprintf(w.e.stderr, "memscope watch: vault: %v\n", err)
		return
	}
	if rep.New+rep.Changed+rep.Gone == 0 {
		return
	}
	what := "the home"
	if sid != "" {
		what = "session " + model.SanitizeLine(string(sid))
	}
	fmt.Fprintf(w.e.stderr, "memscope watch: vault: kept %s (%d new, %d changed, %d gone; %s read)\n", what, rep.New, rep.Changed, rep.Gone, format.Bytes(rep.BytesRead))
}
