package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestFindSessionFiles(t *testing.T) {
	line := `{"type":"user","uuid":"u","cwd":"/home/me/my_app","sessionId":"s1"}` + "\n"
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fsys := fstest.MapFS{
		"projects/-home-me-my-app/s1.jsonl":                            {Data: []byte(line), ModTime: old},
		"projects/-home-me-my-app/s2.jsonl":                            {Data: []byte(line + line), ModTime: old.Add(time.Hour)},
		"projects/-home-me-my-app/s1/subagents/agent-a7.jsonl":         {Data: []byte(line)},
		"projects/-home-me-my-app/s1/subagents/notes.txt":              {Data: []byte("x")},
		"projects/-home-me-my-app/s1/subagents/agent-a7.meta.json":     {Data: []byte(`{"agentType":"Explore"}`)},
		"projects/-home-me-my-app/s3/subagents/agent-gone.meta.json":   {Data: []byte(`{}`)},
		"projects/-home-me-my-app/s1/tool-results/toolu_01.txt":        {Data: []byte("big output")},
		"projects/-home-me-my-app/memory/MEMORY.md":                    {Data: []byte("- [a](a.md) — b\n")},
		"projects/-home-me-my-app/memory/old.jsonl":                    {Data: []byte(line)},
		"projects/-home-me-other/memory/MEMORY.md":                     {Data: []byte("")},
		"projects/stray-file.jsonl":                                    {Data: []byte(line)},
		"sessions/1234.json":                                           {Data: []byte(`{"pid":1234}`)},
		"sessions/9b1c/transcript.jsonl":                               {Data: []byte(line)},
		"sessions/empty/other.txt":                                     {Data: []byte("")},
		"paste-cache/abcd.txt":                                         {Data: []byte("")},
		"projects/-home-me-my-app/s2/tool-results/toolu_02.json":       {Data: []byte("{}")},
		"projects/-home-me-my-app/s3/subagents/agent-zz.jsonl":         {Data: []byte("")},
		"projects/-home-me-my-app/s3/subagents/nested/agent-xx.jsonl":  {Data: []byte("")},
		"projects/-home-me-my-app/s3/tool-results/nested/toolu_03.txt": {Data: []byte("")},
	}
	sf, probs := FindSessionFiles(fsys)
	if len(probs) != 0 {
		t.Errorf("problems %v", probs)
	}
	var got []string
	for _, tf := range sf.Transcripts {
		got = append(got, string(tf.Kind)+":"+tf.SessionID+":"+tf.AgentID)
	}
	want := "main:s1: subagent:s1:a7 main:s2: subagent:s3:zz seed:9b1c:"
	if strings.Join(got, " ") != want {
		t.Errorf("transcripts %q\nwant        %q", strings.Join(got, " "), want)
	}
	if sf.Transcripts[1].MetaPath != "projects/-home-me-my-app/s1/subagents/agent-a7.meta.json" || sf.Transcripts[3].MetaPath != "" {
		t.Errorf("meta paths %q %q", sf.Transcripts[1].MetaPath, sf.Transcripts[3].MetaPath)
	}
	if strings.Join(sf.SubagentMeta, " ") != "projects/-home-me-my-app/s1/subagents/agent-a7.meta.json projects/-home-me-my-app/s3/subagents/agent-gone.meta.json" {
		t.Errorf("meta files %q", sf.SubagentMeta)
	}
	if sf.Transcripts[2].Size != int64(2*len(line)) || !sf.Transcripts[2].ModTime.Equal(old.Add(time.Hour)) {
		t.Errorf("s2 size/mtime %+v", sf.Transcripts[2])
	}
	var tr []string
	for _, f := range sf.ToolResults {
		tr = append(tr, f.SessionID+":"+f.ID)
	}
	if strings.Join(tr, " ") != "s1:toolu_01 s2:toolu_02" {
		t.Errorf("tool results %q", tr)
	}

	ps, probs := ListProjects(fsys)
	if len(probs) != 0 || len(ps) != 2 {
		t.Fatalf("projects %+v problems %v", ps, probs)
	}
	app, other := ps[0], ps[1]
	if app.Slug != "-home-me-my-app" || app.Path != "/home/me/my_app" || app.Sessions != 2 || app.Subagents != 2 ||
		!app.HasMemory || app.TranscriptBytes != int64(4*len(line)) {
		t.Errorf("app project %+v", app)
	}
	if other.Slug != "-home-me-other" || other.Path != "" || other.Sessions != 0 || !other.HasMemory {
		t.Errorf("other project %+v", other)
	}
}

func TestFindSessionFilesSymlinks(t *testing.T) {
	home := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	line := `{"type":"mode","cwd":"/real/path"}` + "\n"
	proj := filepath.Join(home, "projects", "-real-path")
	must(os.MkdirAll(filepath.Join(proj, "s1", "subagents"), 0o755))
	must(os.WriteFile(filepath.Join(proj, "s1.jsonl"), []byte(line), 0o600))
	// A project folder that is a symlink to a folder outside the home is
	// not followed: a walk of the home stays inside it (issue 16).
	elsewhere := filepath.Join(t.TempDir(), "p")
	must(os.MkdirAll(elsewhere, 0o755))
	must(os.WriteFile(filepath.Join(elsewhere, "s9.jsonl"), []byte(line), 0o600))
	must(os.Symlink(elsewhere, filepath.Join(home, "projects", "-linked")))
	// A symlink loop, a dangling link and a link back up the tree.
	must(os.Symlink("loop-b", filepath.Join(proj, "loop-a.jsonl")))
	must(os.Symlink("loop-a.jsonl", filepath.Join(proj, "loop-b")))
	must(os.Symlink("/nonexistent/target", filepath.Join(home, "projects", "-dangling")))
	must(os.Symlink("../..", filepath.Join(proj, "s1", "subagents", "up")))

	fsys := os.DirFS(home)
	tfs, probs := FindTranscripts(fsys)
	var got []string
	for _, tf := range tfs {
		got = append(got, tf.ProjectSlug+"/"+tf.SessionID)
	}
	if strings.Join(got, " ") != "-real-path/s1" {
		t.Errorf("transcripts %q", got)
	}
	// Every problem here is a link not followed: malformed (as the
	// retention forecast names it), saying so.
	bad := map[string]bool{}
	for _, p := range probs {
		if p.Kind != ProblemMalformed || !strings.HasSuffix(p.Reason, "(not followed)") {
			t.Errorf("problem %s: %s %q; want a malformed link not followed", p.File, p.Kind, p.Reason)
		}
		bad[p.File] = true
	}
	for _, f := range []string{"projects/-real-path/loop-a.jsonl", "projects/-real-path/loop-b", "projects/-dangling", "projects/-linked"} {
		if !bad[f] {
			t.Errorf("no problem reported for %s (got %v)", f, probs)
		}
	}
	ps, _ := ListProjects(fsys)
	if len(ps) != 1 || ps[0].Slug != "-real-path" || ps[0].Path != "/real/path" || ps[0].Sessions != 1 {
		t.Errorf("projects %+v", ps)
	}
}
