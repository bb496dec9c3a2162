package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

func TestSafeMemoryName(t *testing.T) {
	tests := []struct {
		in, want string
		fails    bool
	}{
		{in: "prefers-terse", want: "prefers-terse"},
		{in: "feedback_no_mock", want: "feedback_no_mock"},
		{in: "Prefers Terse Answers!", want: "prefers-terse-answers"},
		{in: "  user role  ", want: "user-role"},
		{in: "Déjà vu_x", want: "d-j-vu-x"},
		{in: "../../etc/passwd", want: "etc-passwd"},
		{in: "UPPER_case", want: "upper-case"},
		{in: "!!!", fails: true},
		{in: "", fails: true},
		{in: strings.Repeat("ab", 80), want: strings.Repeat("ab", 50)},
	}
	for _, tt := range tests {
		got, err := memindex.SafeMemoryName(tt.in)
		if tt.fails {
			if err == nil {
				t.Errorf("SafeMemoryName(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("SafeMemoryName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestMemoryFileNameAndMatch(t *testing.T) {
	tests := []struct {
		typ  model.MemoryType
		name string
		want string
	}{
		{model.TypeFeedback, "terse-answers", "feedback_terse_answers.md"},
		{model.TypeFeedback, "feedback-terse-answers", "feedback_terse_answers.md"},
		{model.TypeUser, "role", "user_role.md"},
		{model.TypeProject, "feedback_x", "project_feedback_x.md"},
		{model.TypeUntyped, "loose-notes", "loose_notes.md"},
	}
	for _, tt := range tests {
		got := memindex.MemoryFileName(tt.typ, tt.name)
		if got != tt.want {
			t.Errorf("MemoryFileName(%s, %s) = %s, want %s", tt.typ, tt.name, got, tt.want)
		}
		if !memindex.NameMatchesFile("sub/"+got, tt.name, tt.typ) {
			t.Errorf("NameMatchesFile(%s, %s) is false for the name memscope gives", got, tt.name)
		}
	}
	mismatches := []struct{ rel, name string }{
		{"feedback_terse.md", "verbose"},
		{"user_role.md", "feedback-role"},
	}
	for _, m := range mismatches {
		if memindex.NameMatchesFile(m.rel, m.name, model.TypeUser) {
			t.Errorf("NameMatchesFile(%s, %s) = true", m.rel, m.name)
		}
	}
}

// The frontmatter example of FORMATS.md, byte for byte.
func TestMemoryFileTextAsTheClientWrites(t *testing.T) {
	want := "---\nname: prefers-terse\ndescription: User prefers terse answers\nmetadata:\n  node_type: memory\n  type: feedback\n" +
		"  originSessionId: 6aa5d53d-1d02-4a1a-b312-243f356a8ea5\n  modified: 2026-11-22T11:14:20.836Z\n---\n\nBe terse.\n"
	got, err := MemoryFileText("prefers-terse", "User prefers terse answers", model.TypeFeedback, "6aa5d53d-1d02-4a1a-b312-243f356a8ea5", enginetest.OpsNow, "Be terse.")
	if err != nil || string(got) != want {
		t.Fatalf("MemoryFileText = %q, %v\nwant %q", got, err, want)
	}
	quoted := []struct{ desc, line string }{
		{"Terse, no recap", `description: "Terse, no recap"`},
		{"key: value", `description: 'key: value'`},
		{"multi\nline  text", `description: multi line text`},
	}
	for _, q := range quoted {
		got, err := MemoryFileText("x", q.desc, model.TypeUser, "", enginetest.OpsNow, "")
		if err != nil || !strings.Contains(string(got), "\n"+q.line+"\n") {
			t.Errorf("description %q: got %q, %v; want line %s", q.desc, got, err, q.line)
		}
		if strings.Contains(string(got), "originSessionId") {
			t.Errorf("no session given but originSessionId written: %q", got)
		}
	}
}

// Every operation changes what it should and nothing else, and undo puts
// every byte back.
func TestOpsAndUndo(t *testing.T) {
	t.Parallel()
	opts := WriteOptions{Now: enginetest.OpsNow, SessionID: "s-1"}
	tests := []struct {
		name  string
		op    func(s *Store, dir string) (Change, error)
		check func(t *testing.T, before, after map[string]string)
	}{
		{
			name: "create",
			op: func(s *Store, _ string) (Change, error) {
				return s.Create(NewMemory{Name: "No DB Mocks", Type: model.TypeFeedback, Description: "Use the real database", Body: "Never mock it.\n"}, opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				want := "---\nname: no-db-mocks\ndescription: Use the real database\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: s-1\n  modified: 2026-11-22T11:14:20.836Z\n---\n\nNever mock it.\n"
				if after["feedback_no_db_mocks.md"] != want {
					t.Errorf("created file = %q", after["feedback_no_db_mocks.md"])
				}
				wantIx := strings.Replace(before["MEMORY.md"], "2026-12-10\n", "2026-12-10\n- [No DB Mocks](feedback_no_db_mocks.md) — Use the real database\n", 1)
				if after["MEMORY.md"] != wantIx {
					t.Errorf("index = %q\nwant %q", after["MEMORY.md"], wantIx)
				}
			},
		},
		{
			name: "set body",
			op: func(s *Store, _ string) (Change, error) {
				return s.SetBody("user_role.md", "Deep Go; new to React.\n", opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				want := strings.Replace(strings.Replace(before["user_role.md"], "Deep Go.\n", "Deep Go; new to React.\n", 1), "2026-10-01T08:00:00.000Z", "2026-11-22T11:14:20.836Z", 1)
				if after["user_role.md"] != want {
					t.Errorf("got %q, want %q", after["user_role.md"], want)
				}
			},
		},
		{
			name: "set description",
			op: func(s *Store, _ string) (Change, error) {
				return s.SetDescription("user_role.md", "Backend lead, new to React", opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				want := strings.Replace(strings.Replace(before["user_role.md"], "description: Backend lead\n", "description: Backend lead, new to React\n", 1), "2026-10-01T08:00:00.000Z", "2026-11-22T11:14:20.836Z", 1)
				if after["user_role.md"] != want {
					t.Errorf("got %q, want %q", after["user_role.md"], want)
				}
			},
		},
		{
			name: "retype",
			op: func(s *Store, _ string) (Change, error) {
				return s.Retype("user_role.md", model.TypeReference, opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				want := strings.Replace(strings.Replace(before["user_role.md"], "type: user\n", "type: reference\n", 1), "2026-10-01T08:00:00.000Z", "2026-11-22T11:14:20.836Z", 1)
				if after["user_role.md"] != want {
					t.Errorf("got %q, want %q", after["user_role.md"], want)
				}
			},
		},
		{
			name: "rename with links",
			op: func(s *Store, dir string) (Change, error) {
				return s.Rename(filepath.Join(dir, "feedback_terse.md"), "Brief Answers", opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				if _, ok := after["feedback_terse.md"]; ok {
					t.Error("old file still there")
				}
				want := strings.Replace(before["feedback_terse.md"], "name: terse\n", "name: brief-answers\n", 1)
				if after["feedback_brief_answers.md"] != want {
					t.Errorf("renamed file = %q, want %q", after["feedback_brief_answers.md"], want)
				}
				wantIx := strings.Replace(before["MEMORY.md"], "[feedback_terse](feedback_terse.md)", "[feedback_brief_answers](feedback_brief_answers.md)", 1)
				if after["MEMORY.md"] != wantIx {
					t.Errorf("index = %q", after["MEMORY.md"])
				}
				wantOther := strings.Replace(before["project_freeze.md"], "[[terse]] still applies, as does [[terse|the", "[[brief-answers]] still applies, as does [[brief-answers|the", 1)
				if after["project_freeze.md"] != wantOther {
					t.Errorf("links not rewritten: %q", after["project_freeze.md"])
				}
				if after["user_role.md"] != before["user_role.md"] {
					t.Error("an unrelated file changed")
				}
			},
		},
		{
			name: "rename keeps ./ and title",
			op: func(s *Store, _ string) (Change, error) {
				return s.Rename("project_freeze.md", "holiday-freeze", opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				if !strings.Contains(after["MEMORY.md"], "- [Merge freeze](./project_holiday_freeze.md) — no merges") {
					t.Errorf("index = %q", after["MEMORY.md"])
				}
				if !strings.Contains(after["feedback_terse.md"], "See [[holiday-freeze]].") {
					t.Errorf("link not rewritten: %q", after["feedback_terse.md"])
				}
			},
		},
		{
			name: "delete to trash",
			op: func(s *Store, _ string) (Change, error) {
				return s.Delete("project_freeze.md", opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				if _, ok := after["project_freeze.md"]; ok {
					t.Error("file still there")
				}
				if after[".trash/20261122-111420.836/project_freeze.md"] != before["project_freeze.md"] {
					t.Errorf("trash holds %q", after[".trash/20261122-111420.836/project_freeze.md"])
				}
				if strings.Contains(after["MEMORY.md"], "project_freeze") || !strings.Contains(after["MEMORY.md"], "feedback_terse") {
					t.Errorf("index = %q", after["MEMORY.md"])
				}
			},
		},
		{
			name: "add index entry",
			op: func(s *Store, _ string) (Change, error) {
				return s.AddIndexEntry("user_role.md", opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				want := strings.Replace(before["MEMORY.md"], "2026-12-10\n", "2026-12-10\n- [user_role](user_role.md) — Backend lead\n", 1)
				if after["MEMORY.md"] != want {
					t.Errorf("index = %q", after["MEMORY.md"])
				}
			},
		},
		{
			name: "remove index line",
			op: func(s *Store, _ string) (Change, error) {
				return s.RemoveIndexLine(3, opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				want := strings.Replace(before["MEMORY.md"], "- [feedback_terse](feedback_terse.md) — short answers, no recap\n", "", 1)
				if after["MEMORY.md"] != want {
					t.Errorf("index = %q", after["MEMORY.md"])
				}
			},
		},
		{
			name: "move index line",
			op: func(s *Store, _ string) (Change, error) {
				return s.MoveIndexLine(4, 1, opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				lines := strings.SplitAfter(before["MEMORY.md"], "\n")
				want := lines[3] + lines[0] + lines[1] + lines[2] + strings.Join(lines[4:], "")
				if after["MEMORY.md"] != want {
					t.Errorf("index = %q\nwant %q", after["MEMORY.md"], want)
				}
			},
		},
		{
			name: "rebuild index",
			op: func(s *Store, dir string) (Change, error) {
				// Backfill orders by mtime, newest first.
				for i, f := range []string{"user_role.md", "project_freeze.md", "feedback_terse.md"} {
					mt := enginetest.OpsNow.Add(-timeHours(i + 1))
					os.Chtimes(filepath.Join(dir, f), mt, mt)
				}
				s.Reload()
				return s.RebuildIndex(opts)
			},
			check: func(t *testing.T, before, after map[string]string) {
				want := "- [user_role](user_role.md) — Backend lead\n- [project_freeze](project_freeze.md) — Merge freeze in December\n- [feedback_terse](feedback_terse.md) — Short answers\n"
				if after["MEMORY.md"] != want {
					t.Errorf("index = %q\nwant %q", after["MEMORY.md"], want)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := openFixture(t, opsFixture())
			before := enginetest.ReadTree(t, dir)
			ch, err := tt.op(s, dir)
			if err != nil {
				t.Fatalf("op: %v", err)
			}
			if ch.ID == "" || len(ch.Files) == 0 || ch.Diff == "" {
				t.Fatalf("change not journaled or empty: %+v", ch)
			}
			after := enginetest.ReadTree(t, dir)
			tt.check(t, before, after)
			entries, _, err := s.Journal()
			if err != nil || len(entries) != 1 || entries[0].ID != ch.ID {
				t.Fatalf("journal = %+v, %v", entries, err)
			}
			if _, err := s.Undo(); err != nil {
				t.Fatalf("undo: %v", err)
			}
			if d := enginetest.DiffTrees(before, enginetest.ReadTree(t, dir)); d != "" {
				t.Errorf("undo did not restore the folder:\n%s", d)
			}
			if _, err := s.Undo(); !errors.Is(err, ErrNothingToUndo) {
				t.Errorf("second undo: %v, want ErrNothingToUndo", err)
			}
		})
	}
}

// Index line edits keep every other byte, including a missing final
// newline and CRLF endings.
func TestIndexLineEdits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		index string
		op    func(s *Store) (Change, error)
		want  string
	}{
		{"move last to top", "- [A](a.md)\n- [B](b.md)\nc", func(s *Store) (Change, error) { return s.MoveIndexLine(3, 1, WriteOptions{Now: enginetest.OpsNow}) }, "c\n- [A](a.md)\n- [B](b.md)"},
		{"move top to last", "- [A](a.md)\r\n- [B](b.md)\r\nc\r\n", func(s *Store) (Change, error) { return s.MoveIndexLine(1, 3, WriteOptions{Now: enginetest.OpsNow}) }, "- [B](b.md)\r\nc\r\n- [A](a.md)\r\n"},
		{"remove last", "- [A](a.md)\n- [B](b.md)", func(s *Store) (Change, error) { return s.RemoveIndexLine(2, WriteOptions{Now: enginetest.OpsNow}) }, "- [A](a.md)"},
		{"remove first", "- [A](a.md)\n- [B](b.md)", func(s *Store) (Change, error) { return s.RemoveIndexLine(1, WriteOptions{Now: enginetest.OpsNow}) }, "- [B](b.md)"},
		{"add after last entry", "# T\n- [A](a.md)\n\n## notes\nfree", func(s *Store) (Change, error) { return s.AddIndexEntry("b.md", WriteOptions{Now: enginetest.OpsNow}) }, "# T\n- [A](a.md)\n- [b](b.md) — B\n\n## notes\nfree"},
		{"add to an index of prose", "just prose", func(s *Store) (Change, error) { return s.AddIndexEntry("b.md", WriteOptions{Now: enginetest.OpsNow}) }, "just prose\n- [b](b.md) — B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := openFixture(t, map[string]string{"MEMORY.md": tt.index, "a.md": enginetest.ClientMemory("a", "A", "user", "x\n"), "b.md": enginetest.ClientMemory("b", "B", "user", "x\n")})
			if _, err := tt.op(s); err != nil {
				t.Fatal(err)
			}
			if got := enginetest.ReadTree(t, dir)["MEMORY.md"]; got != tt.want {
				t.Errorf("index = %q, want %q", got, tt.want)
			}
		})
	}
	s, _ := openFixture(t, map[string]string{"MEMORY.md": "a\n"})
	for _, bad := range [][2]int{{0, 1}, {1, 2}, {2, 1}} {
		if _, err := s.MoveIndexLine(bad[0], bad[1], WriteOptions{Now: enginetest.OpsNow}); err == nil {
			t.Errorf("move %v accepted", bad)
		}
	}
	if _, err := s.RemoveIndexLine(1, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "Now is not set") {
		t.Errorf("zero time accepted: %v", err)
	}
}
