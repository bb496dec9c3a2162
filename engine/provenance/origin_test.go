package provenance

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/journal"
	"github.com/memscope/memscope/internal/provgen"
	"github.com/memscope/memscope/model"
)

func project(t *testing.T, l provgen.Layout) Project {
	t.Helper()
	p := ForProject(ProjectOptions{Root: model.DirFS("/"), Home: model.DirFS(l.Home), HomeDir: l.Home, MemoryDir: l.MemoryDir, Tree: l.Project})
	if len(p.Problems) > 0 {
		t.Fatalf("problems: %v", p.Problems)
	}
	return p
}

func originOf(t *testing.T, p Project, abs string) *Origin {
	t.Helper()
	o := p.Find(abs)
	if o == nil {
		var have []string
		for _, o := range p.Origins {
			have = append(have, o.Abs)
		}
		t.Fatalf("no origin for %s; have %v", abs, have)
	}
	return o
}

func check(o *Origin, what string) *Check {
	for i := range o.Checks {
		if o.Checks[i].What == what {
			return &o.Checks[i]
		}
	}
	return nil
}

func TestOrigins(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	p := project(t, l)
	if len(p.Origins) != 7 {
		t.Fatalf("%d files, want 7 (MEMORY.md and 4 topic files, the agent's MEMORY.md and deploy.md)", len(p.Origins))
	}

	terse := originOf(t, p, filepath.Join(l.MemoryDir, "feedback_terse.md"))
	if terse.Created == nil || terse.Created.SessionID != provgen.SessionTerse || terse.Created.Prompt.Text != provgen.PromptTerse {
		t.Errorf("feedback_terse.md created = %+v", terse.Created)
	}
	if terse.Last.Source != SourceTranscript || terse.Last.Write.SessionID != provgen.SessionEdit || !terse.ByModel() {
		t.Errorf("feedback_terse.md last change = %+v, want session 3's Edit", terse.Last)
	}
	for _, what := range []string{"originSessionId", "modified", "content"} {
		if c := check(terse, what); c == nil || !c.OK {
			t.Errorf("feedback_terse.md check %s = %+v, want it to agree", what, c)
		}
	}

	deploy := originOf(t, p, filepath.Join(l.MemoryDir, "project_deploy.md"))
	if deploy.Created == nil || deploy.Created.By == nil || deploy.Created.By.Type != provgen.AgentType || !strings.Contains(deploy.Text, "subagent "+provgen.AgentType) {
		t.Errorf("project_deploy.md = %q, created %+v: want the subagent named", deploy.Text, deploy.Created)
	}

	hand := originOf(t, p, filepath.Join(l.MemoryDir, "reference_dashboards.md"))
	if hand.Created != nil || hand.Failed != 1 || hand.Last.Source != SourceUnknown || hand.Text != NoOrigin || hand.ByModel() {
		t.Errorf("reference_dashboards.md: created %+v failed %d last %+v text %q; want no origin and the one failed Write", hand.Created, hand.Failed, hand.Last, hand.Text)
	}

	swept := originOf(t, p, filepath.Join(l.MemoryDir, "user_role.md"))
	if swept.Last.Source != SourceStamp || !strings.Contains(swept.Text, "not on disk (swept)") || !swept.ByModel() {
		t.Errorf("user_role.md: last %+v text %q, want the stamp and its swept session", swept.Last, swept.Text)
	}
	if c := check(swept, "originSessionId"); c == nil || c.OK {
		t.Errorf("user_role.md originSessionId check = %+v, want a failed check", c)
	}

	agent := originOf(t, p, filepath.Join(l.AgentDir, "deploy.md"))
	if agent.Kind != KindAgentProject || agent.Agent != provgen.AgentType || agent.Created == nil || agent.Created.By == nil {
		t.Errorf("agent memory: %+v", agent)
	}
}

func TestOriginChangedByHandAfterTheLastWrite(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(l.MemoryDir, "project_deploy.md")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), "after the 14:00 freeze", "after the 16:00 freeze", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	o := originOf(t, project(t, l), p)
	if o.Last.Source != SourceUnknown || !strings.Contains(o.Last.Text, "changed outside any transcript on disk after Write") {
		t.Errorf("hand edit after the Write: last %+v", o.Last)
	}
	if c := check(o, "content"); c == nil || c.OK {
		t.Errorf("content check = %+v, want it to fail", c)
	}
	if o.ByModel() {
		t.Error("a hand edit counts as the model's")
	}
}

func TestOriginMemscopeJournal(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(l.MemoryDir, "reference_dashboards.md")
	after := []byte("---\nname: dashboards\ndescription: Where the dashboards are\nmetadata:\n  type: reference\n---\n\nEdited in memscope.\n")
	if err := os.WriteFile(p, after, 0o644); err != nil {
		t.Fatal(err)
	}
	var j journal.Journal
	j.Add(journal.Entry{ID: j.NewID(now), Time: now, Op: "set-body", Summary: "edited reference_dashboards.md",
		Files: []journal.File{{Path: "reference_dashboards.md", Existed: true, Before: []byte("x"), After: sha(after)}}})
	jp := filepath.Join(l.MemoryDir, journal.Path)
	if err := os.MkdirAll(filepath.Dir(jp), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jp, j.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	pr := project(t, l)
	o := originOf(t, pr, p)
	if o.Last.Source != SourceMemscope || o.Last.Journal == nil || !strings.Contains(o.Last.Text, "memscope edited reference_dashboards.md") {
		t.Errorf("memscope's change: last %+v", o.Last)
	}
	if c := check(o, "journal"); c == nil || !c.OK || !strings.Contains(c.Text, "as memscope left it") {
		t.Errorf("journal check = %+v", c)
	}
	// The journal itself is not a memory file.
	for _, o := range pr.Origins {
		if strings.Contains(o.Path, ".memscope") {
			t.Errorf("%s listed as memory", o.Path)
		}
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestForProjectsAgreesWithForProject(t *testing.T) {
	l, err := provgen.Write(t.TempDir(), now)
	if err != nil {
		t.Fatal(err)
	}
	one := project(t, l)
	opts := ProjectOptions{Root: model.DirFS("/"), Home: model.DirFS(l.Home), HomeDir: l.Home, MemoryDir: l.MemoryDir}
	none := opts
	none.MemoryDir = ""
	many := ForProjects([]ProjectOptions{none, opts})
	if len(many) != 2 || len(many[0].Origins) != 0 {
		t.Fatalf("ForProjects: %d projects, first with %d files", len(many), len(many[0].Origins))
	}
	var want []Origin
	for _, o := range one.Origins {
		if o.Kind == KindProject {
			want = append(want, o)
		}
	}
	got := many[1].Origins
	if len(got) != len(want) {
		t.Fatalf("%d project memory files, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Path != want[i].Path || got[i].Last.Source != want[i].Last.Source || got[i].Last.Text != want[i].Last.Text || got[i].Text != want[i].Text {
			t.Errorf("%s: %q / %q, want %q / %q", got[i].Path, got[i].Text, got[i].Last.Text, want[i].Text, want[i].Last.Text)
		}
	}
}
