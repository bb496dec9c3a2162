package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/model"
)

// vaultHook bounds a vault sync run as a Claude Code hook (SessionEnd,
// PreCompact): past them it ends with the client's work untouched (a sync
// cut short leaves a vault that verifies, as a killed one does).
var vaultHook = clientHook{maxEvent: 1 << 20, eventWait: 2 * time.Second, workWait: 20 * time.Second,
	late: "the sync was left (the next sync completes it)"}

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
	res, err := runClientHook(e, vaultHook, func(event []byte) (vaultHookResult, error) { return vaultHookSync(e, opts, event) })
	if err != nil {
		res.Skipped = err.Error()
	}
	return res
}

// vaultHookSync syncs the session the event names; a reason to sync
// nothing is said in the result.
func vaultHookSync(e *env, opts vaultOptions, data []byte) (vaultHookResult, error) {
	var ev vaultHookEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return vaultHookResult{}, fmt.Errorf("the hook event on stdin: %w", err)
	}
	res := vaultHookResult{Event: ev.Event, Session: ev.SessionID}
	if ev.SessionID == "" || strings.ContainsAny(ev.SessionID, `/\`) || ev.SessionID == "." || ev.SessionID == ".." {
		res.Skipped = "the event names no session"
		return res, nil
	}
	if opts.home.dir == "" {
		if h, ok := vaultHookHome(ev.TranscriptPath); ok {
			opts.home.dir = h
		}
	}
	o, err := e.openHome(&opts.home)
	if err != nil {
		res.Skipped = err.Error()
		return res, nil
	}
	defer o.close()
	res.Home = o.home.Dir
	dir, err := vault.Dir(opts.dir, e.getenv, e.userHome, o.home.Dir)
	if err != nil {
		res.Skipped = err.Error()
		return res, nil
	}
	rep, err := vault.Open(dir, e.root, e.writer()).Sync(vault.SyncOptions{Home: o.home, Session: model.SessionID(ev.SessionID), Now: e.now()})
	if err != nil {
		res.Skipped = err.Error()
		return res, nil
	}
	res.Synced = &rep
	return res, nil
}
