package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
)

// replayJSON is the part of `replay --json` the tests read, decoded
// independently of the command's own types.
type replayJSON struct {
	Session    string `json:"session"`
	Records    int    `json:"records"`
	Boundaries []struct {
		UUID       string    `json:"uuid"`
		Kind       string    `json:"kind"`
		Timestamp  time.Time `json:"timestamp"`
		Trigger    string    `json:"trigger"`
		PreTokens  *int      `json:"preTokens"`
		PostTokens *int      `json:"postTokens"`
	} `json:"boundaries"`
	Resume struct {
		Leaf         string   `json:"leaf"`
		Messages     int      `json:"messages"`
		FromBoundary string   `json:"fromBoundary"`
		Fallback     bool     `json:"fallback"`
		Preserved    []string `json:"preserved"`
	} `json:"resume"`
	Branches []struct {
		Parent   string   `json:"parent"`
		Children []string `json:"children"`
	} `json:"branches"`
	Sidechains []struct {
		Root string `json:"root"`
	} `json:"sidechains"`
	Turns []struct {
		UUID          string `json:"uuid"`
		ContextTokens int    `json:"contextTokens"`
	} `json:"turns"`
}

func runReplayJSON(t *testing.T, args ...string) replayJSON {
	t.Helper()
	e, out, errb := testEnv(t)
	if code := run(e, append([]string{"replay"}, args...)); code != 0 {
		t.Fatalf("replay %v: exit %d: %s", args, code, errb)
	}
	var r replayJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("replay --json is not JSON: %v\n%s", err, out)
	}
	return r
}

// Figures from the real transcript, checked with Python (see the engine
// and model tests).
func TestReplayRealTranscript(t *testing.T) {
	for _, args := range [][]string{
		{"../model/testdata/transcripts/transcript-partial-compactions.jsonl", "--json"},
		{"--json", "fedcb1e2-dbe4-5555-90b5-52df88de5bed", "--home", "../testdata/home"},
		{"fedcb1e2", "--home", "../testdata/home", "--json"},
	} {
		r := runReplayJSON(t, args...)
		if r.Session != "fedcb1e2-dbe4-5555-90b5-52df88de5bed" || r.Records != 101 || len(r.Boundaries) != 2 {
			t.Fatalf("%v: session %s records %d boundaries %d", args, r.Session, r.Records, len(r.Boundaries))
		}
		b := r.Boundaries[1]
		if b.UUID != "fbefccd4-8fb3-4f3e-b7b7-259b07c9b4e7" || b.Kind != "compact" || b.Trigger != "manual" ||
			*b.PreTokens != 19495 || *b.PostTokens != 2610 || b.Timestamp.IsZero() {
			t.Errorf("%v: boundary %+v", args, b)
		}
		if r.Resume.Leaf != "e8b83a07-cc30-47e0-aed3-e0bce2d9ca5a" || r.Resume.Messages != 19 ||
			r.Resume.FromBoundary != b.UUID || r.Resume.Fallback || len(r.Resume.Preserved) != 1 {
			t.Errorf("%v: resume %+v", args, r.Resume)
		}
		if len(r.Turns) != 4 || r.Turns[3].ContextTokens != 19538 || len(r.Branches) != 0 || len(r.Sidechains) != 0 {
			t.Errorf("%v: turns %+v branches %d sidechains %d", args, r.Turns, len(r.Branches), len(r.Sidechains))
		}
	}
}

// The demo's sessions say what they hold (demo/sessions.go): the checkout
// session three autocompactions (at 167k tokens, a microcompaction
// between the second and third) and a partial /compact keeping two
// messages; the rewind session one prompt answered three
// ways and a subagent.
func TestReplayDemoSessions(t *testing.T) {
	l := sharedDemo(t)
	r := runReplayJSON(t, demo.SessionCheckout, "--home", l.Home, "--json")
	var kinds []string
	for _, b := range r.Boundaries {
		kinds = append(kinds, b.Kind+"/"+b.Trigger)
	}
	if strings.Join(kinds, " ") != "compact/auto compact/auto microcompact/auto compact/auto compact/manual" {
		t.Errorf("checkout boundaries %q", kinds)
	}
	if r.Resume.FromBoundary != r.Boundaries[4].UUID || len(r.Resume.Preserved) != 2 || r.Resume.Fallback {
		t.Errorf("checkout resume %+v", r.Resume)
	}
	r = runReplayJSON(t, demo.SessionRewind, "--home", l.Home, "--json")
	if len(r.Branches) != 1 || len(r.Branches[0].Children) != 3 || len(r.Sidechains) != 1 {
		t.Errorf("rewind session branches %+v sidechains %+v", r.Branches, r.Sidechains)
	}
}

func TestReplayText(t *testing.T) {
	e, out, errb := testEnv(t)
	if code := run(e, []string{"replay", "../model/testdata/transcripts/transcript-partial-compactions.jsonl"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"compact       manual 19110 → 2550 tokens", "preserves 4935c698..4935c698",
		"resume    leaf e8b83a07 (last-prompt), 19 messages from boundary fbefccd4, 1 preserved message relinked"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"aaaa1111-0000-4000-8000-000000000001", "aaaa2222-0000-4000-8000-000000000002"} {
		p := filepath.Join(dir, "projects", "-p", f+".jsonl")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(`{"type":"mode"}`+"\n"), 0o600)
	}
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"replay"}, 2, "usage"},
		{[]string{"replay", "a", "b"}, 2, "usage"},
		{[]string{"replay", "x", "--window", "1000"}, 2, "too small"},
		{[]string{"replay", "nope", "--home", dir}, 2, "no session"},
		{[]string{"replay", "aaaa", "--home", dir}, 2, "ambiguous"},
		{[]string{"replay", "missing/file.jsonl"}, 2, "file.jsonl"},
		{[]string{"compact", "nope", "--home", dir}, 2, "no session"},
	}
	for _, c := range cases {
		e, _, errb := testEnv(t)
		if code := run(e, c.args); code != c.code || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errb, c.code, c.msg)
		}
	}
	// A unique prefix resolves.
	e, _, errb := testEnv(t)
	if code := run(e, []string{"replay", "aaaa2", "--home", dir}); code != 0 {
		t.Errorf("unique prefix: exit %d %s", code, errb)
	}
}
