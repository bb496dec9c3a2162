package export

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

// exportRealTranscripts are the two transcripts the real client wrote.
var exportRealTranscripts = []string{"transcript-interactive-pastes.jsonl", "transcript-partial-compactions.jsonl"}

func loadReal(t testing.TB, name string) *SessionExport {
	t.Helper()
	x, err := LoadSessionExport(SessionSource{FS: os.DirFS(enginetest.RealDir), Transcript: name}, exportNow)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// allExports is every golden case: the real transcripts and the fixtures.
func allExports(t *testing.T) map[string]*SessionExport {
	out := map[string]*SessionExport{}
	for _, n := range exportRealTranscripts {
		out["real-"+strings.TrimSuffix(strings.TrimPrefix(n, "transcript-"), ".jsonl")] = loadReal(t, n)
	}
	for _, c := range fxCases {
		out[c.name] = loadFixture(t, c.home())
	}
	return out
}

func TestExportGolden(t *testing.T) {
	for name, x := range allExports(t) {
		for _, f := range []Format{Markdown, HTML, JSON} {
			t.Run(name+"."+string(f), func(t *testing.T) {
				b, err := RenderSessionExport(x, f)
				if err != nil {
					t.Fatal(err)
				}
				switch f {
				case Markdown:
					checkMarkdown(t, x, string(b))
				case HTML:
					checkHTML(t, string(b))
				case JSON:
					checkJSON(t, x, b)
				}
				golden.RequireEqual(enginetest.GoldenNamed(t, "export_golden/"+name+"."+string(f)), b)
			})
		}
	}
}

// checkMarkdown: one "## Compaction N" or "## Microcompaction N" heading
// per boundary, a Conversation heading, a heading per sidechain and
// branch, and no terminal controls.
func checkMarkdown(t *testing.T, x *SessionExport, md string) {
	t.Helper()
	var boundaries int
	for _, e := range x.Conversation {
		if e.Kind == EntryBoundary {
			boundaries++
		}
	}
	headings := outsideFences(md)
	count := func(re string) int { return len(regexp.MustCompile(re).FindAllString(headings, -1)) }
	if got := count(`(?m)^## (Compaction|Microcompaction) \d+: `); got != boundaries {
		t.Errorf("%d compaction headings for %d boundaries", got, boundaries)
	}
	if got := count(`(?m)^## Conversation$`); got != 1 {
		t.Errorf("%d Conversation headings", got)
	}
	if got := count(`(?m)^## Sidechain \d+: `); got != len(x.Sidechains) {
		t.Errorf("%d sidechain headings for %d sidechains", got, len(x.Sidechains))
	}
	if got := count(`(?m)^## Branch not taken \d+: `); got != len(x.Branches) {
		t.Errorf("%d branch headings for %d branches", got, len(x.Branches))
	}
	checkNoControls(t, md)
	// Outside fenced blocks, '<' only opens the export's own tags.
	rest := regexp.MustCompile(`</?(details|summary)>`).ReplaceAllString(headings, "")
	if i := strings.Index(strings.ReplaceAll(rest, `\<`, ""), "<"); i >= 0 {
		t.Errorf("raw '<' outside fenced blocks: %q", snippet(strings.ReplaceAll(rest, `\<`, ""), i))
	}
}

// outsideFences returns md without the content of fenced code blocks.
func outsideFences(md string) string {
	var b strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(md, "\n") {
		trim := strings.TrimRight(line, "\n")
		switch {
		case fence == "" && strings.HasPrefix(trim, "```"):
			fence = strings.TrimRight(trim, "abcdefghijklmnopqrstuvwxyz")
		case fence != "" && trim == fence:
			fence = ""
		case fence == "":
			b.WriteString(line)
		}
	}
	return b.String()
}

func checkNoControls(t *testing.T, s string) {
	t.Helper()
	for i, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || model.IsBidiControl(r) {
			t.Errorf("control U+%04X at byte %d: %q", r, i, snippet(s, i))
			return
		}
	}
}

func snippet(s string, i int) string {
	return s[max(0, i-40):min(len(s), i+40)]
}

// allowedTags are the only tags the HTML export writes.
var allowedTags = map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true,
	"header": true, "h1": true, "h2": true, "h3": true, "table": true, "tr": true, "th": true, "td": true, "main": true,
	"section": true, "article": true, "p": true, "pre": true, "details": true, "summary": true, "ul": true, "li": true,
	"strong": true, "div": true}

var voidTags = map[string]bool{"meta": true}

var tagRE = regexp.MustCompile(`<(/?)([a-zA-Z0-9]+)([^<>]*)>`)

// checkHTML: a doctype, only known tags, balanced, no script, no
// resource loaded from anywhere, no terminal controls.
func checkHTML(t *testing.T, doc string) {
	t.Helper()
	if !strings.HasPrefix(doc, "<!DOCTYPE html>\n") {
		t.Fatalf("no doctype")
	}
	body := strings.TrimPrefix(doc, "<!DOCTYPE html>\n")
	style := regexp.MustCompile(`(?s)<style>.*?</style>`).FindString(body)
	if strings.Contains(style, "@import") || strings.Contains(style, "url(") {
		t.Errorf("style sheet loads something: %s", style)
	}
	body = strings.Replace(body, style, "<style></style>", 1)
	var stack []string
	last := 0
	for _, m := range tagRE.FindAllStringSubmatchIndex(body, -1) {
		if strings.ContainsAny(body[last:m[0]], "<>") {
			t.Fatalf("stray < or > in text: %q", snippet(body, last))
		}
		last = m[1]
		closing, name, attrs := body[m[2]:m[3]], body[m[4]:m[5]], body[m[6]:m[7]]
		if !allowedTags[name] {
			t.Fatalf("tag <%s> is not one the export writes: %q", name, snippet(body, m[0]))
		}
		for _, bad := range []string{"src=", "href=", "on", "style="} {
			for _, a := range strings.Fields(attrs) {
				if strings.HasPrefix(strings.ToLower(a), bad) {
					t.Fatalf("attribute %q on <%s>", a, name)
				}
			}
		}
		switch {
		case voidTags[name]:
		case closing == "":
			stack = append(stack, name)
		case len(stack) == 0 || stack[len(stack)-1] != name:
			t.Fatalf("</%s> closes %v", name, stack)
		default:
			stack = stack[:len(stack)-1]
		}
	}
	if strings.ContainsAny(body[last:], "<>") || len(stack) != 0 {
		t.Fatalf("unclosed %v", stack)
	}
	for _, bad := range []string{"http://", "https://"} {
		if i := strings.Index(strings.Join(tagRE.FindAllString(body, -1), ""), bad); i >= 0 {
			t.Errorf("a tag names %s", bad)
		}
	}
	if !strings.Contains(doc, "Content-Security-Policy") {
		t.Errorf("no Content-Security-Policy")
	}
	checkNoControls(t, doc)
}

// sessionExportFields are the documented top-level fields of the JSON
// export (SessionExport), listed here by hand so a change shows up.
var sessionExportFields = []string{"schema", "sessionId", "path", "cwd", "clientVersion", "gitBranch", "started",
	"lastActivity", "exportedAt", "models", "usage", "leaf", "compactions", "conversation", "branches", "sidechains",
	"legacySummaries", "unexported", "problems"}

// checkJSON: valid, only documented fields, and decodes back to x.
func checkJSON(t *testing.T, x *SessionExport, b []byte) {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for k := range top {
		if !containsString(sessionExportFields, k) {
			t.Errorf("undocumented field %q", k)
		}
	}
	for _, k := range []string{"schema", "sessionId", "conversation", "branches", "sidechains", "problems", "usage", "leaf"} {
		if _, ok := top[k]; !ok {
			t.Errorf("field %q missing", k)
		}
	}
	if string(top["schema"]) != `"`+SessionExportSchema+`"` {
		t.Errorf("schema %s", top["schema"])
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var back SessionExport
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("decode into SessionExport: %v", err)
	}
	again, _ := marshalExport(&back)
	if !bytes.Equal(again, b) {
		t.Errorf("JSON does not round-trip")
	}
}

func TestExportSortedFieldsDocumented(t *testing.T) {
	// Keep the list above in step with the struct: encode a full value.
	b, _ := marshalExport(&SessionExport{Version: "v", GitBranch: "b", LegacySummaries: []string{"s"}})
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range top {
		got = append(got, k)
	}
	sort.Strings(got)
	want := append([]string{}, sessionExportFields...)
	for _, k := range []string{"started", "lastActivity"} { // omitzero
		want = removeString(want, k)
	}
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("fields %v, documented %v", got, want)
	}
}

func removeString(ss []string, s string) []string {
	var out []string
	for _, v := range ss {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}
