// Package secretgen writes a Claude home with a secret planted in each
// store (a tool result, a user prompt, an assistant reply, a subagent's
// tool result, a history line, a paste, a file-history backup, a
// tool-results file, a memory) beside clean data (the real transcripts
// of model/testdata, clean memory and history), for the tests of
// `memscope secrets`. The secrets are made at run time from a seed, so the
// repository holds nothing secret-shaped. Production code never imports
// it.
package secretgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Planted is one planted secret and where a scan must report it.
type Planted struct {
	Store    string
	File     string // relative to the home
	Line     int
	JSONPath string
	Rule     string
	Secret   string
}

// Layout is a written home.
type Layout struct {
	Home    string
	Project string
	Slug    string
	Session string
	// Transcript is the planted main transcript, relative to the home.
	Transcript string
	Planted    []Planted
	// Duplicates are the planted secrets a scan also finds repeated (the
	// tool result again in the request body), as Planted values.
	Duplicates []Planted
	// Clean are files that hold no secret, relative to the home.
	Clean []string
}

const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Token returns n pseudo-random characters of alphabet from seed.
func Token(seed uint64, alphabet string, n int) string {
	x := seed*0x9E3779B97F4A7C15 + 1
	b := make([]byte, n)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = alphabet[x%uint64(len(alphabet))]
	}
	return string(b)
}

// Write writes the home into dir (made if missing), every file's mtime an
// hour before now. fixtures is model/testdata/transcripts.
func Write(dir, fixtures string, now time.Time) (Layout, error) {
	l := Layout{Home: dir, Project: "/home/me/app", Slug: "-home-me-app", Session: "5e55c0de-0000-4000-8000-00000000a11c"}
	w := &writer{dir: dir}
	sess := "projects/" + l.Slug + "/" + l.Session
	l.Transcript = sess + ".jsonl"

	aws := "AKIA" + Token(1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	ghp := "ghp_" + Token(2, alnum, 36)
	stripe := "sk_live_" + Token(3, alnum, 24)
	azure := Token(4, alnum+"+/", 86) + "=="
	pw := Token(5, alnum, 18)
	sendgrid := "SG." + Token(6, alnum+"-_", 22) + "." + Token(7, alnum+"-_", 43)
	openai := Token(8, alnum, 40)
	ya29 := "ya29." + Token(9, alnum+"-_", 60)
	slack := "xoxb-" + Token(10, "0123456789", 11) + "-" + Token(11, "0123456789", 13) + "-" + Token(12, alnum, 24)

	toolOut := "$ cat .env\nAWS_REGION=eu-west-1\nAWS_ACCESS_KEY_ID=" + aws + "\n"
	t0 := now.Add(-2 * time.Hour)
	ts := func(i int) string {
		return t0.Add(time.Duration(i) * time.Second).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	base := func(typ, uuid, parent string, i int) map[string]any {
		r := map[string]any{"type": typ, "uuid": uuid, "isSidechain": false, "timestamp": ts(i),
			"sessionId": l.Session, "cwd": l.Project, "version": "2.1.331", "gitBranch": "main"}
		if parent == "" {
			r["parentUuid"] = nil
		} else {
			r["parentUuid"] = parent
		}
		return r
	}
	usage := map[string]any{"input_tokens": 1200, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 80}
	assistant := func(uuid, parent, msgID string, i int, content []any) map[string]any {
		r := base("assistant", uuid, parent, i)
		r["requestId"] = "req_" + msgID
		r["message"] = map[string]any{"id": "msg_" + msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
			"content": content, "usage": usage, "stop_reason": "end_turn"}
		return r
	}
	u1 := base("user", "u-1", "", 1)
	u1["message"] = map[string]any{"role": "user", "content": "please deploy; the github token is " + ghp + " for the release"}
	a1 := assistant("a-1", "u-1", "01", 2, []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": map[string]any{"command": "cat .env"}}})
	u2 := base("user", "u-2", "a-1", 3)
	u2["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": toolOut}}}
	blob := map[string]any{"type": "api-request-blob", "sessionId": l.Session, "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "text", "text": "earlier"}, map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": toolOut}}}}
	a2 := assistant("a-2", "u-2", "02", 4, []any{map[string]any{"type": "text", "text": "Stripe is configured with " + stripe + "; rotate it after the launch."}})
	u3 := base("user", "u-3", "a-2", 5)
	u3["message"] = map[string]any{"role": "user", "content": "thanks, that is all"}
	a3 := assistant("a-3", "u-3", "03", 6, []any{map[string]any{"type": "text", "text": "Done."}})
	last := map[string]any{"type": "last-prompt", "lastPrompt": "thanks, that is all", "leafUuid": "a-3", "sessionId": l.Session}
	w.jsonl(l.Transcript, u1, a1, u2, blob, a2, u3, a3, last)
	l.Planted = append(l.Planted,
		Planted{"transcript", l.Transcript, 1, "message.content", "github-pat", ghp},
		Planted{"transcript", l.Transcript, 3, "message.content[0].content", "aws-access-key-id", aws},
		Planted{"transcript", l.Transcript, 5, "message.content[0].text", "stripe-secret-key", stripe},
	)
	l.Duplicates = append(l.Duplicates, Planted{"transcript", l.Transcript, 4, "message.content[1].content", "aws-access-key-id", aws})

	sub := sess + "/subagents/agent-a1b2c3.jsonl"
	s1 := base("user", "s-1", "", 1)
	s1["isSidechain"], s1["agentId"] = true, "a1b2c3"
	s1["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_9",
		"content": "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + azure + ";EndpointSuffix=core.windows.net"}}}
	w.jsonl(sub, s1)
	l.Planted = append(l.Planted, Planted{"subagent-transcript", sub, 1, "message.content[0].content", "azure-storage-account-key", azure})

	tr := sess + "/tool-results/toolu_7.txt"
	w.file(tr, "HTTP/1.1 200 OK\nAuthorization: Bearer "+ya29+"\nContent-Type: application/json\n")
	l.Planted = append(l.Planted, Planted{"tool-result", tr, 2, "", "google-oauth-access-token", ya29})

	paste := "SENDGRID_FROM=ops@example.com\nSENDGRID_API_KEY=" + sendgrid + "\n"
	sum := sha256.Sum256([]byte(paste))
	hash := hex.EncodeToString(sum[:])[:16]
	pastePath := "paste-cache/" + hash + ".txt"
	w.file(pastePath, paste)
	l.Planted = append(l.Planted, Planted{"paste", pastePath, 2, "", "sendgrid-api-token", sendgrid})
	cleanPaste := "just some notes\nnothing to see\n"
	csum := sha256.Sum256([]byte(cleanPaste))
	chash := hex.EncodeToString(csum[:])[:16]
	w.file("paste-cache/"+chash+".txt", cleanPaste)
	l.Clean = append(l.Clean, "paste-cache/"+chash+".txt")

	ms := t0.UnixMilli()
	w.jsonl("history.jsonl",
		map[string]any{"display": "fix the login bug", "pastedContents": map[string]any{}, "timestamp": ms, "project": l.Project, "sessionId": l.Session},
		map[string]any{"display": "connect with postgres://app:" + pw + "@db.internal:5432/app", "pastedContents": map[string]any{}, "timestamp": ms + 1000, "project": l.Project, "sessionId": l.Session},
		map[string]any{"display": "[Pasted text #1 +2 lines] use these", "pastedContents": map[string]any{"1": map[string]any{"id": 1, "type": "text", "contentHash": hash}}, "timestamp": ms + 2000, "project": l.Project, "sessionId": l.Session},
		map[string]any{"display": "[Pasted text #1 +1 lines] notes", "pastedContents": map[string]any{"1": map[string]any{"id": 1, "type": "text", "contentHash": chash}}, "timestamp": ms + 3000, "project": l.Project, "sessionId": l.Session},
	)
	l.Planted = append(l.Planted, Planted{"history", "history.jsonl", 2, "display", "database-url-password", pw})

	fh := "file-history/" + l.Session + "/0123456789abcdef@v1"
	w.file(fh, "# local settings\nDEBUG=false\nOPENAI_API_KEY="+openai+"\n")
	l.Planted = append(l.Planted, Planted{"file-history", fh, 3, "", "dotenv-secret", openai})

	mem := "projects/" + l.Slug + "/memory/"
	w.file(mem+"MEMORY.md", "- [Deploy](deploy.md) — how we deploy\n- [Style](style.md) — code style\n")
	w.file(mem+"deploy.md", "---\nname: deploy\ndescription: how we deploy\nmetadata:\n  type: project\n---\n\nNotify the channel with the bot token "+slack+" after each deploy.\n")
	w.file(mem+"style.md", "---\nname: style\ndescription: code style\nmetadata:\n  type: feedback\n---\n\nPrefer small functions.\n")
	l.Planted = append(l.Planted, Planted{"memory", mem + "deploy.md", 8, "", "slack-token", slack})
	l.Clean = append(l.Clean, mem+"MEMORY.md", mem+"style.md")

	// The clean remainder: the client's own transcripts, as recorded.
	for i, name := range []string{"transcript-interactive-pastes.jsonl", "transcript-partial-compactions.jsonl"} {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			return l, err
		}
		p := fmt.Sprintf("projects/-tmp-rc-work-beta/0000000%d-0000-4000-8000-000000000000.jsonl", i)
		w.file(p, string(data))
		l.Clean = append(l.Clean, p)
	}
	w.file("settings.json", "{\n  \"cleanupPeriodDays\": 30,\n  \"model\": \"sonnet\"\n}\n")
	w.file("CLAUDE.md", "# Me\n\nUse British spelling.\n")
	l.Clean = append(l.Clean, "settings.json", "CLAUDE.md")
	if w.err != nil {
		return l, w.err
	}
	old := now.Add(-time.Hour)
	return l, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
}

type writer struct {
	dir string
	err error
}

func (w *writer) file(rel, content string) {
	if w.err != nil {
		return
	}
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.err = err
		return
	}
	w.err = os.WriteFile(p, []byte(content), 0o600)
}

// jsonl writes records one per line, as the client does (no HTML
// escaping, so "&" and "<" stay as they are).
func (w *writer) jsonl(rel string, recs ...map[string]any) {
	var b strings.Builder
	for _, r := range recs {
		var line strings.Builder
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			w.err = err
			return
		}
		b.WriteString(line.String())
	}
	w.file(rel, b.String())
}
