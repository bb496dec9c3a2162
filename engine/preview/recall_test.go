package preview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

var recallNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func TestBuildManifest(t *testing.T) {
	var files []*model.MemoryFile
	for i := 0; i < 205; i++ {
		files = append(files, enginetest.MemFile(t, fmt.Sprintf("m%03d.md", i), enginetest.Typed(fmt.Sprintf("m%d", i), "user", "d", "b"), recallNow.Add(-time.Duration(i)*time.Hour)))
	}
	files = append(files, enginetest.MemFile(t, "plain.md", "no frontmatter\n", recallNow.Add(time.Hour)))
	long := enginetest.Typed("late", "project", "desc beyond the head", strings.Repeat("x\n", 40))
	files = append(files, enginetest.MemFile(t, "deep.md", strings.Repeat("\n", 0)+long, recallNow.Add(2*time.Hour)))
	hidden := "---\n" + strings.Repeat("pad: x\n", 30) + "description: too far\n---\n"
	files = append(files, enginetest.MemFile(t, "far.md", hidden, recallNow.Add(3*time.Hour)))
	m := BuildManifest(files)
	if m.Considered != 208 || len(m.Entries) != 200 || len(m.Left) != 8 {
		t.Fatalf("considered %d entries %d left %d", m.Considered, len(m.Entries), len(m.Left))
	}
	want := []string{
		"- far.md (2026-11-22T15:00:00.000Z)",
		"- [project] deep.md (2026-11-22T14:00:00.000Z): desc beyond the head",
		"- plain.md (2026-11-22T13:00:00.000Z)",
		"- [user] m000.md (2026-11-22T12:00:00.000Z): d",
	}
	for i, w := range want {
		if m.Entries[i].Line != w {
			t.Errorf("line %d = %q, want %q", i, m.Entries[i].Line, w)
		}
	}
	if m.Left[0] != "m197.md" || m.Left[7] != "m204.md" {
		t.Errorf("left = %v", m.Left)
	}
	if !strings.HasPrefix(m.Text(), want[0]+"\n"+want[1]) {
		t.Errorf("text: %q", m.Text()[:100])
	}
}

func TestBM25Selector(t *testing.T) {
	entries := BuildManifest([]*model.MemoryFile{
		enginetest.MemFile(t, "deploy.md", enginetest.Typed("deploy-freeze", "project", "No deploys on Friday", "Merge freeze Thursday.\n"), recallNow),
		enginetest.MemFile(t, "terse.md", enginetest.Typed("prefers-terse", "feedback", "User prefers terse answers", "Be brief.\n"), recallNow),
		enginetest.MemFile(t, "db.md", enginetest.Typed("no-mock-db", "feedback", "Do not mock the database in tests", "A migration failed because of mocks; deploy carefully.\n"), recallNow),
		enginetest.MemFile(t, "old-db.md", enginetest.Typed("db-old", "feedback", "Do not mock the database in tests", "A migration failed because of mocks; deploy carefully.\n"), recallNow.Add(-time.Hour)),
		enginetest.MemFile(t, "cjk.md", enginetest.Typed("cjk", "user", "用户喜欢简短的回答", "中文\n"), recallNow),
	}).Entries
	tests := []struct {
		query  string
		want   []string
		whyHas string
	}{
		{"can we deploy on friday?", []string{"deploy.md", "db.md", "old-db.md"}, `"friday" in description`},
		{"should I mock the database", []string{"db.md", "old-db.md"}, `"mock" in name, description; "database" in description`},
		{"terse answers please", []string{"terse.md"}, `"terse" in name, description`},
		{"回答 简短", []string{"cjk.md"}, `"回" in description`},
		{"nothing matches here", nil, ""},
		{"the and of", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			picks := BM25Selector{}.Select(tt.query, entries, 5)
			var got []string
			for _, p := range picks {
				got = append(got, p.File)
				if p.Score <= 0 || !strings.HasPrefix(p.Why, "matched ") {
					t.Errorf("pick %+v", p)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("picked %v, want %v", got, tt.want)
			}
			if tt.whyHas != "" && !strings.Contains(picks[0].Why, tt.whyHas) {
				t.Errorf("why %q lacks %q", picks[0].Why, tt.whyHas)
			}
			if again := (BM25Selector{}).Select(tt.query, entries, 5); fmt.Sprint(again) != fmt.Sprint(picks) {
				t.Error("selection is not deterministic")
			}
		})
	}
	if p := (BM25Selector{}).Select("deploy friday database mock terse", entries, 2); len(p) != 2 {
		t.Errorf("limit not kept: %d", len(p))
	}
}

func TestCutRecalled(t *testing.T) {
	lines := func(n int) string { return strings.Repeat("l\n", n) }
	tests := []struct {
		name      string
		in        string
		truncated bool
		kept      string
		note      string
	}{
		{"short", "abc\n", false, "abc\n", ""},
		{"200 lines exactly", lines(200), false, lines(200), ""},
		{"200 lines and no final newline on 201st", lines(200) + "x", true, strings.TrimSuffix(lines(200), "\n"), "over 200 lines"},
		{"4096 bytes exactly", strings.Repeat("b", 4096), false, strings.Repeat("b", 4096), ""},
		{"over 4096, cut at newline", strings.Repeat("c", 4000) + "\n" + strings.Repeat("d", 200), true, strings.Repeat("c", 4000), "over 4096 bytes"},
		{"over 4096 in one line, cut at a rune", strings.Repeat("é", 3000), true, strings.Repeat("é", 2048), "over 4096 bytes"},
		{"both: the byte cut wins the note", strings.Repeat(strings.Repeat("e", 99)+"\n", 300), true, strings.TrimSuffix(strings.Repeat(strings.Repeat("e", 99)+"\n", 40), "\n"), "over 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, tr := CutRecalled(tt.in, "/m/x.md")
			if tr != tt.truncated {
				t.Fatalf("truncated = %v", tr)
			}
			if !tr {
				if got != tt.in {
					t.Error("short file changed")
				}
				return
			}
			wantNote := "\n\n> This memory file was truncated (" + tt.note + "). Read the complete file at /m/x.md."
			if got != tt.kept+wantNote {
				t.Errorf("got %q…%q", got[:min(20, len(got))], got[max(0, len(got)-120):])
			}
		})
	}
}

func TestRecallSession(t *testing.T) {
	var files []*model.MemoryFile
	for i := 0; i < 20; i++ {
		body := strings.Repeat(fmt.Sprintf("alpha beta gamma %d\n", i), 400)
		files = append(files, enginetest.MemFile(t, fmt.Sprintf("f%02d.md", i), enginetest.Typed(fmt.Sprintf("f%d", i), "project", "alpha topic", body), recallNow.Add(-time.Duration(i)*24*time.Hour)))
	}
	res := Recall(files, RecallOptions{Queries: []string{"alpha", "alpha beta", "alpha gamma", "beta gamma", "gamma alpha"}, Now: recallNow, MemoryDir: "/mem"})
	if res.Note != RecallNote || !strings.Contains(res.Note, "model call") || res.Selector == "" {
		t.Errorf("note/selector: %q %q", res.Note, res.Selector)
	}
	if res.Queries[0].Skipped == "" || len(res.Queries[0].Files) != 0 {
		t.Errorf("one-word prompt recalled: %+v", res.Queries[0])
	}
	seen := map[string]bool{}
	loaded, skipped := 0, 0
	for _, qr := range res.Queries[1:] {
		if len(qr.Files) != RecallPickMax {
			t.Errorf("query %q picked %d", qr.Query, len(qr.Files))
		}
		for _, f := range qr.Files {
			if seen[f.File] {
				t.Errorf("%s recalled twice", f.File)
			}
			seen[f.File] = true
			if !f.Truncated || f.Path != "/mem/"+f.File {
				t.Errorf("file %+v", f)
			}
			if f.Skipped != "" {
				skipped++
				continue
			}
			loaded += f.Bytes
			if f.AgeDays >= 2 && !strings.HasPrefix(f.Text, memindex.FreshnessWarning(f.AgeDays)) || f.AgeDays < 2 && f.FreshnessWarning != "" {
				t.Errorf("freshness of %s (age %d) wrong", f.File, f.AgeDays)
			}
		}
	}
	if loaded != res.BudgetUsed || loaded > RecallSessionBudget || skipped == 0 {
		t.Errorf("budget: loaded %d used %d skipped %d", loaded, res.BudgetUsed, skipped)
	}
}
