package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/model"
)

// outsideMarker is in every file the links of linksOutHome lead to, with
// a secret (an AWS key id) the secrets scan would report.
const outsideMarker = "outsidemarker AKIAZZOUTSIDEZZ12345"

// linksOutHome is the demo home with a symbolic link out of the home at
// every store path: history.jsonl, a transcript, a memory file, a paste,
// the todos, plans, shell-snapshots and debug folders, an agent's memory
// folder and a session's tool-results folder. It returns the home, the
// project and the links (home-relative).
func linksOutHome(t *testing.T) (demo.Layout, string, []string) {
	t.Helper()
	l, err := demo.Materialize(t.TempDir(), time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	project := l.Project("shop-api")
	slug := model.Slug(filepath.ToSlash(project))
	sessions, _ := filepath.Glob(filepath.Join(l.Home, "projects", slug, "*.jsonl"))
	if len(sessions) == 0 {
		t.Fatal("the demo home has no shop-api transcript")
	}
	session := strings.TrimSuffix(filepath.Base(sessions[0]), ".jsonl")
	put := func(rel, text string) string {
		p := filepath.Join(out, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	record := `{"type":"user","uuid":"o1","sessionId":"00000000-0000-4000-8000-0000000000aa","cwd":"` + filepath.ToSlash(project) + `","timestamp":"2026-11-22T11:00:00.000Z","message":{"role":"user","content":"` + outsideMarker + `"}}` + "\n"
	history := `{"display":"` + outsideMarker + `","timestamp":1763809200000,"project":"` + filepath.ToSlash(project) + `"}` + "\n"
	targets := map[string]string{
		"history.jsonl": put("history.jsonl", history),
		"projects/" + slug + "/00000000-0000-4000-8000-0000000000aa.jsonl": put("transcript.jsonl", record),
		"projects/" + slug + "/memory/outside_note.md":                     put("note.md", "---\nname: outside\ndescription: "+outsideMarker+"\n---\n\n"+outsideMarker+"\n"),
		"paste-cache/0123456789abcdef.txt":                                 put("paste.txt", outsideMarker+"\n"),
		"todos":                                                            filepath.Dir(put("todos/"+session+"-agent-"+session+".json", `[{"content":"`+outsideMarker+`","status":"pending"}]`)),
		"plans":                                                            filepath.Dir(put("plans/outside-plan.md", outsideMarker+"\n")),
		"shell-snapshots":                                                  filepath.Dir(put("shell-snapshots/snapshot-bash-1.sh", "export X='"+outsideMarker+"'\n")),
		"debug":                                                            filepath.Dir(put("debug/"+session+".txt", outsideMarker+"\n")),
		"agent-memory/outsider":                                            filepath.Dir(put("agent-memory/MEMORY.md", "- [N](n.md) — "+outsideMarker+"\n")),
		"projects/" + slug + "/" + session + "/tool-results": filepath.Dir(put("tool-results/toolu_1.txt", outsideMarker+"\n")),
	}
	var links []string
	for rel, target := range targets {
		p := filepath.Join(l.Home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(p)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		links = append(links, rel)
	}
	return l, project, links
}

// Every command reading the home reads nothing through a link out of it
// and says, at least once, that it did not follow one.
func TestLinksOutOfTheHomeAreNotRead(t *testing.T) {
	l, project, links := linksOutHome(t)
	e, out, errb := testEnv(t)
	run(e, []string{"secrets", "--json", "--home", l.Home})
	var report struct{ Findings []struct{ File string } }
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("secrets --json: %v: %s", err, errb)
	}
	for _, f := range report.Findings {
		for _, link := range links {
			if f.File == link || strings.HasPrefix(f.File, link+"/") {
				t.Errorf("secrets reports %s, read through the link %s", f.File, link)
			}
		}
	}
	for _, args := range [][]string{
		{"stat"},
		{"search", "outsidemarker"},
		{"search", "AKIAZZ"},
		{"secrets"},
		{"cleanup", "--forecast"},
		{"archive", "--to", filepath.Join(t.TempDir(), "a.tar.gz")},
		{"sessions"},
		{"sessions", "--project", project},
		{"files"},
		// Through the memory store (the folder the panes, lint and prune
		// read and write): the memory file linked out is named, not read.
		{"lint", "--project", project},
		{"prune", "--dry-run", "--project", project},
		{"prompt", "--project", project},
	} {
		e, out, errb := testEnv(t)
		code := run(e, append(args, "--home", l.Home))
		all := out.String() + errb.String()
		// The names of files only the folder links lead to: a listing
		// (the cleanup forecast, an archive) must not show them.
		if strings.Contains(all, "outsidemarker") || strings.Contains(all, "AKIAZZ") ||
			strings.Contains(all, "outside-plan.md") || strings.Contains(all, "snapshot-bash-1.sh") || strings.Contains(all, "toolu_1.txt") {
			t.Errorf("%v (exit %d) read through a link out of the home:\n%s", args, code, all)
		}
		if !strings.Contains(all, "outside the home") {
			t.Errorf("%v (exit %d) does not name a link out of the home:\n%s", args, code, firstLines(all, 30))
		}
	}
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
