package memindex

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/internal/jsstr"
	"github.com/memscope/memscope/model"
)

func TestBackfillIndex(t *testing.T) {
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	longDesc := strings.Repeat("word ", 40)
	fs := []*model.MemoryFile{
		enginetest.MemFile(t, "old.md", enginetest.Typed("old", "user", "Oldest one", "b"), base),
		enginetest.MemFile(t, "plain.md", "no frontmatter", base.Add(3*time.Hour)),
		enginetest.MemFile(t, "sub/new.md", enginetest.Typed("new", "project", `"Newest, with  odd\nspacing"`, "b"), base.Add(4*time.Hour)),
		enginetest.MemFile(t, "long.md", enginetest.Typed("long", "reference", longDesc, "b"), base.Add(2*time.Hour)),
		enginetest.MemFile(t, "odd(1).md", enginetest.Typed("odd", "user", "parens", "b"), base.Add(5*time.Hour)),
		enginetest.MemFile(t, "nodesc.md", "---\nname: x\n---\n", base.Add(time.Hour)),
	}
	b := BackfillIndex(fs)
	// The long line: "- [long](long.md) — " is 20 characters, leaving 130:
	// 129 characters of the description and "…", trailing space trimmed.
	longLine := "- [long](long.md) — " + strings.TrimRight(longDesc[:129], " ") + "…"
	want := "- [new](sub/new.md) — Newest, with odd spacing\n" +
		"- [plain](plain.md)\n" +
		longLine + "\n" +
		"- [nodesc](nodesc.md)\n" +
		"- [old](old.md) — Oldest one\n"
	if b.Text != want {
		t.Errorf("backfill\n%s\nwant\n%s", b.Text, want)
	}
	if b.Lines != 5 || b.Chars != jsstr.UTF16Len(want) {
		t.Errorf("lines %d chars %d", b.Lines, b.Chars)
	}
	if !reflect.DeepEqual(b.Skipped, []BackfillSkip{{"odd(1).md", "file name would break the link"}}) {
		t.Errorf("skipped %+v", b.Skipped)
	}
	if jsstr.UTF16Len(longLine) != BackfillMaxLineChar {
		t.Errorf("long line is %d characters", jsstr.UTF16Len(longLine))
	}
}

func TestBackfillCaps(t *testing.T) {
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var fs []*model.MemoryFile
	for i := 0; i < 150; i++ {
		fs = append(fs, enginetest.MemFile(t, fmt.Sprintf("m%03d.md", i), enginetest.Typed("m", "user", "short", "b"), base.Add(-time.Duration(i)*time.Minute)))
	}
	b := BackfillIndex(fs)
	if b.Lines != BackfillMaxLines || len(b.Skipped) != 10 || b.Skipped[0].Reason != "over 140 lines" {
		t.Errorf("lines %d skipped %d", b.Lines, len(b.Skipped))
	}
	fs = fs[:0]
	for i := 0; i < 130; i++ {
		fs = append(fs, enginetest.MemFile(t, fmt.Sprintf("m%03d.md", i), enginetest.Typed("m", "user", strings.Repeat("d", 200), "b"), base.Add(-time.Duration(i)*time.Minute)))
	}
	b = BackfillIndex(fs)
	if b.Chars > BackfillMaxChars || b.Lines != BackfillMaxChars/151 || b.Skipped[0].Reason != "over 17500 characters" {
		t.Errorf("chars %d lines %d skipped %+v", b.Chars, b.Lines, b.Skipped[:1])
	}
	if c := CapIndex([]byte(b.Text)); c.Truncated {
		t.Error("a backfilled index is over the caps")
	}
	if e := BackfillIndex(nil); e.Text != "" || e.Lines != 0 {
		t.Errorf("empty: %+v", e)
	}
}

// A new memory's index entry is titled as the user named it, never by
// its file name; a slug reads as words; nothing can break the link.
func TestEntryTitle(t *testing.T) {
	for _, c := range []struct{ typed, safe, want string }{
		{"No DB Mocks", "no-db-mocks", "No DB Mocks"},
		{"user-role", "user-role", "User role"},
		{"", "prefers_terse", "Prefers terse"},
		{"  a [weird]\nname ", "a-weird-name", "A weird name"},
	} {
		if got := EntryTitle(c.typed, c.safe); got != c.want {
			t.Errorf("EntryTitle(%q, %q) = %q, want %q", c.typed, c.safe, got, c.want)
		}
	}
	if got := EntryLine("Role", "user_role.md", "Backend\nlead"); got != "- [Role](user_role.md) — Backend lead" {
		t.Errorf("EntryLine = %q", got)
	}
}
