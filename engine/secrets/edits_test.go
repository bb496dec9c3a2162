package secrets

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/engine/store"
)

// The compact edits a plan holds are the Edit values it was given: made
// back one by one, and printed as a []Edit prints (HTML escaped or not,
// as the caller's encoder says).
func TestEditsCompactAsGiven(t *testing.T) {
	fs := []Finding{
		{ID: "s012345678", Rule: "github-pat", Line: 1, JSONPath: "message.content", Part: "user prompt", Offset: 40, Length: 40, Excerpt: "ghp_ab… (40 chars)"},
		{ID: "s111111111", Rule: "github-pat", Line: 1, JSONPath: "message.content", Part: "user prompt", Offset: 90, Length: 40, Excerpt: "ghp_cd… <&> (40 chars)"},
		{ID: "s222222222", Rule: "slack-token", Line: 7, Offset: 900, Length: 12, Excerpt: ""},
		{ID: "an-id-longer-than-ten", Rule: "slack-token", Line: 9, Offset: 1000, Length: 3, Excerpt: "x"},
	}
	for _, n := range []int{3, 4} { // compact, then turned whole by a long id
		es := newEdits(0)
		var want []Edit
		for i := range fs[:n] {
			es.add(&fs[i])
			f := fs[i]
			want = append(want, Edit{Finding: f.ID, Rule: f.Rule, Line: f.Line, JSONPath: f.JSONPath, Part: f.Part,
				Offset: f.Offset, Length: f.Length, Marker: scan.Marker(f.Rule), Excerpt: f.Excerpt})
		}
		if es.Len() != n {
			t.Fatalf("%d edits, want %d", es.Len(), n)
		}
		for i, w := range want {
			if got := es.At(i); got != w {
				t.Errorf("edit %d: %+v, want %+v", i, got, w)
			}
			if off, length, marker := es.span(i); off != w.Offset || length != w.Length || marker != w.Marker {
				t.Errorf("span %d: %d %d %q", i, off, length, marker)
			}
		}
		if (es.list == nil) != (n == 3) {
			t.Errorf("%d edits held compact: %v", n, es.list == nil)
		}
		type file struct {
			Edits Edits `json:"edits"`
		}
		type old struct {
			Edits []Edit `json:"edits"`
		}
		for _, escape := range []bool{true, false} {
			enc := func(v any) string {
				var b bytes.Buffer
				e := json.NewEncoder(&b)
				e.SetEscapeHTML(escape)
				e.SetIndent("", "  ")
				if err := e.Encode(v); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			if got, want := enc(file{es}), enc(old{want}); got != want {
				t.Errorf("escape %v: printed\n%s\nwant\n%s", escape, got, want)
			}
		}
	}
}

// The edit writer, fed a file in pieces of any size, writes what
// applyEdits makes of it whole, and hands each span's bytes over.
func TestEditWriterInPieces(t *testing.T) {
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	edits := editList{
		{Offset: 0, Length: 3, Marker: "[A]"},
		{Offset: 10, Length: 1, Marker: "[B]"},
		{Offset: 11, Length: 6, Marker: ""},
		{Offset: 30, Length: 6, Marker: "[C-at-the-end]"},
	}
	want := string(applyEdits(data, edits))
	if want != "[A]3456789[B]hijklmnopqrst[C-at-the-end]" {
		t.Fatalf("applyEdits: %q", want)
	}
	for piece := 1; piece <= len(data); piece++ {
		var out bytes.Buffer
		var spans []string
		ew := newEditWriter(&out, edits)
		ew.onSpan = func(i int, b []byte) error {
			spans = append(spans, string(b))
			return nil
		}
		for p := data; len(p) > 0; {
			k := min(piece, len(p))
			if _, err := ew.Write(p[:k]); err != nil {
				t.Fatal(err)
			}
			p = p[k:]
		}
		if err := ew.finish(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want || ew.n != int64(len(want)) {
			t.Errorf("pieces of %d: %q (%d bytes), want %q", piece, out.String(), ew.n, want)
		}
		if got := strings.Join(spans, "|"); got != "012|a|bcdefg|uvwxyz" {
			t.Errorf("pieces of %d: spans %q", piece, got)
		}
	}
	// Edits past the end, or overlapping, are refused, not written.
	for _, bad := range []editList{{{Offset: 30, Length: 9, Marker: "x"}}, {{Offset: 2, Length: 4, Marker: "x"}, {Offset: 3, Length: 1, Marker: "y"}}} {
		if err := writeEdited(&bytes.Buffer{}, data, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// Apply's streamed check (lineCheck, checkPlanned) says what the check on
// a whole copy of the file (verifyScrub, the rule as it was) says.
func TestStreamedCheckAsWholeCheck(t *testing.T) {
	line1 := `{"a":"the token is ghp_x, keep it"}`
	line2 := `{"b":"x","c":"y"}`
	doc := "{\n  \"a\": \"ghp_x\",\n  \"b\": 1\n}\n"
	cases := []struct {
		name  string
		data  string
		edits editList
		want  string
	}{
		{"inside strings", line1 + "\n" + line2 + "\n", editList{{Offset: 19, Length: 5, Marker: "[REDACTED:x]"}}, ""},
		{"a quote replaced", line1 + "\n" + line2 + "\n", editList{{Offset: 19, Length: 5, Marker: "[R]"}, {Offset: int64(len(line1)) + 7, Length: 2, Marker: "[R]"}},
			"line 2 would no longer be valid JSON"},
		{"a line break replaced", line1 + "\n" + line2 + "\n", editList{{Offset: int64(len(line1)) - 1, Length: 3, Marker: "[R]"}, {Offset: 19, Length: 5, Marker: "[R]"}},
			"the scrub would change the number of lines"},
		{"a text line", "plain ghp_x text\nmore\n", editList{{Offset: 6, Length: 5, Marker: "[R]"}}, ""},
		{"one JSON value kept", doc, editList{{Offset: 10, Length: 5, Marker: "[R]"}}, ""},
		{"one JSON value broken", doc, editList{{Offset: 9, Length: 7, Marker: "[R]"}}, "the file would no longer be valid JSON"},
		{"no line break at the end", line1, editList{{Offset: 19, Length: 5, Marker: "[R]"}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errText := func(err error) string {
				if err == nil {
					return ""
				}
				return err.Error()
			}
			if got := errText(verifyScrub([]byte(c.data), c.edits)); got != c.want {
				t.Fatalf("verifyScrub: %q, want %q", got, c.want)
			}
			p := filepath.Join(t.TempDir(), "f.jsonl")
			if err := os.WriteFile(p, []byte(c.data), 0o600); err != nil {
				t.Fatal(err)
			}
			file, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer file.Close()
			st, _ := file.Stat()
			f := &PlanFile{File: "f.jsonl", Current: store.StampOf([]byte(c.data), true, nil), Edits: EditsOf(c.edits...)}
			after, bad, err := checkPlanned(file, st, p, f)
			if err != nil {
				t.Fatal(err)
			}
			if got := errText(bad); got != c.want {
				t.Errorf("checkPlanned: %q, want %q", got, c.want)
			}
			if bad == nil && !after.SameContent(store.StampOf(applyEdits([]byte(c.data), c.edits), true, nil)) {
				t.Errorf("checkPlanned's stamp is not the scrubbed file's")
			}
			// A file that is not the planned one is a conflict.
			f.Current.SHA256 = strings.Repeat("0", 64)
			if _, _, err := checkPlanned(file, st, p, f); !isConflict(err) {
				t.Errorf("changed file: %v, want a conflict", err)
			}
		})
	}
}

func isConflict(err error) bool {
	var ce *store.ConflictError
	return errors.As(err, &ce)
}
