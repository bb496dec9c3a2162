package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/model"
)

// Bounds of a vault sync run as a Claude Code hook (SessionEnd,
// PreCompact): it reads at most maxVaultHookInput of the event, waits at most
// vaultHookInputWait for it, and syncs for at most vaultHookSyncWait; past that it
// ends with the client's work untouched (a sync cut short leaves a vault
// that verifies, as a killed one does).
const (
	maxVaultHookInput  = 1 << 20
	vaultHookInputWait = 2 * time.Second
	vaultHookSyncWait  = 20 * time.Second
)

// vaultHookEvent is what the client sends a hook on stdin (the fields the
// vault needs).
type vaultHookEvent struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Event          string `json:"hook_event_name"`
}

// vaultHookResult is what `vault sync --hook` did.
type vaultHookResult struct {
	Event   string            `json:"event,omitempty"`
	Session string            `json:"session,omitempty"`
	Home    string            `json:"home,omitempty"`
	Synced  *vault.SyncReport `json:"synced,omitempty"`
	// Skipped says why nothing was synced (the hook never fails).
	Skipped string `json:"skipped,omitempty"`
}

// vaultReadHookEvent reads the hook event on stdin (readClientJSON:
// answered as soon as the object is complete, given up after wait).
func vaultReadHookEvent(r io.Reader, wait time.Duration) (vaultHookEvent, error) {
	var ev vaultHookEvent
	data, err := readClientJSON(r, maxVaultHookInput, wait)
	if err == nil {
		err = json.Unmarshal(data, &ev)
	}
	if err != nil {
		return ev, fmt.Errorf("the hook event on stdin: %w", err)
	}
	return ev, nil
}

// vaultHookHome is the home a transcript path lies in:
// <home>/projects/<slug>/<session>.jsonl.
func vaultHookHome(transcript string) (string, bool) {
	if !filepath.IsAbs(transcript) || !strings.HasSuffix(transcript, ".jsonl") {
		return "", false
	}
	projects := filepath.Dir(filepath.Dir(transcript))
	if filepath.Base(projects) != "projects" {
		return "", false
	}
	return filepath.Dir(projects), true
}

// runVaultHook syncs the session a hook event names into the vault. It
// never fails: whatever goes wrong is said in the result, and the exit
// code is 0, so the client's work goes on.
func runVaultHook(e *env, opts vaultOptions) vaultHookResult {
	ev, err := vaultReadHookEvent(e.stdin, vaultHookInputWait)
	if err != nil {
		return vaultHookResult{Skipped: err.Error()}
	}
	res := vaultHookResult{Event: ev.Event, Session: ev.SessionID}
	if ev.SessionID == "" || strings.ContainsAny(ev.SessionID, `/\`) || ev.SessionID == "." || ev.SessionID == ".." {
		res.Skipped = "the event names no session"
		return res
	}
	if opts.home.dir == "" {
		if h, ok := vaultHookHome(ev.TranscriptPath); ok {
			opts.home.dir = h
		}
	}
	o, err := e.openHome(&opts.home)
	if err != nil {
		res.Skipped = err.Error()
		return res
	}
	defer o.close()
	res.Home = o.home.Dir
	dir, err := vault.Dir(opts.dir, e.getenv, e.userHome, o.home.Dir)
	if err != nil {
		res.Skipped = err.Error()
		return res
	}
	v := vault.Open(dir, e.root, e.writer())
	done := make(chan error, 1)
	var rep vault.SyncReport
	go func() {
		var err error
		rep, err = v.Sync(vault.SyncOptions{Home: o.home, Session: model.SessionID(ev.SessionID), Now: e.now()})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			res.Skipped = err.Error()
			return res
		}
		res.Synced = &rep
	case <-time.After(vaultHookSyncWait):
		res.Skipped = fmt.Sprintf("the sync took over %v and was left (the next sync completes it)", vaultHookSyncWait)
	}
	return res
}
