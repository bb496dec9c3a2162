package model

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

const fixtureHome = "testdata/history/home"

const fixtureSession = SessionID("90f1c313-1390-4b18-a0c3-3b92641c73e5")

func readFixtureHistory(t *testing.T) *History {
	t.Helper()
	h, err := ReadHistory(os.DirFS(fixtureHome), HistoryPath)
	if err != nil {
		t.Fatalf("ReadHistory: %v", err)
	}
	return h
}

func entryAtLine(t *testing.T, h *History, line int) *HistoryEntry {
	t.Helper()
	for i := range h.Entries {
		if h.Entries[i].Line == line {
			return &h.Entries[i]
		}
	}
	t.Fatalf("no entry for line %d", line)
	return nil
}

func TestReadHistoryFixtureProblems(t *testing.T) {
	h := readFixtureHistory(t)
	want := []struct {
		line int
		kind ProblemKind
	}{
		{8, ProblemMalformed},
		{9, ProblemMalformed},
		{12, ProblemEncoding},
		{13, ProblemIncompleteTail},
	}
	if len(h.Problems) != len(want) {
		t.Fatalf("problems = %+v, want %d", h.Problems, len(want))
	}
	for i, w := range want {
		p := h.Problems[i]
		if p.Line != w.line || p.Kind != w.kind || p.File != HistoryPath || p.Reason == "" {
			t.Errorf("problem %d = %+v, want line %d kind %s in %s", i, p, w.line, w.kind, HistoryPath)
		}
	}
	if len(h.Entries) != 10 {
		t.Errorf("entries = %d, want 10 (13 lines: 2 malformed, 1 partial)", len(h.Entries))
	}
}

func TestReadHistoryFixtureEntries(t *testing.T) {
	h := readFixtureHistory(t)
	tests := []struct {
		line      int
		display   string
		project   string
		session   SessionID
		format    HistoryFormat
		timestamp time.Time
		pastes    []PastedContent
	}{
		{1, "[Pasted text #1 +3 lines] and this", "/home/me/app", fixtureSession, HistoryFormatCurrent,
			time.Date(2026, 11, 22, 11, 10, 3, 498e6, time.UTC),
			[]PastedContent{{ID: 1, Kind: PasteText, Inline: true, Content: "one\ntwo\nthree\nfour"}}},
		{2, "[Pasted text #1 +40 lines] summarize this", "/home/me/app", fixtureSession, HistoryFormatCurrent,
			time.UnixMilli(1795345810000).UTC(),
			[]PastedContent{{ID: 1, Kind: PasteText, Hash: "b20ad400088fc484"}}},
		{5, "[Image #1] what is this", "/home/me/app", fixtureSession, HistoryFormatCurrent,
			time.UnixMilli(1795345840000).UTC(),
			[]PastedContent{{ID: 1, Kind: PasteImage, Inline: true, Content: "iVBORw0KGgo=", MediaType: "image/png", Filename: "shot.png"}}},
		{6, "[Pasted text #1 +42 lines] Show me the latest API changes", "my-project", "", HistoryFormatSeed,
			time.Date(2024, 4, 17, 17, 17, 10, 0, time.UTC),
			[]PastedContent{{ID: 1, Kind: PasteText, Hash: "abc123def456ghi"}, {ID: 2, Kind: PasteImage}}},
		{7, "old line without session", "/home/me/other", "", HistoryFormatCurrent,
			time.UnixMilli(1700000000000).UTC(), []PastedContent{}},
		{11, "crlf line", "/home/me/app", fixtureSession, HistoryFormatCurrent,
			time.UnixMilli(1795345860000).UTC(), []PastedContent{}},
		{12, "bad utf8 \uFFFD", "/home/me/app", fixtureSession, HistoryFormatCurrent,
			time.UnixMilli(1795345870000).UTC(), []PastedContent{}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("line", tt.line), func(t *testing.T) {
			e := entryAtLine(t, h, tt.line)
			if e.Display != tt.display || e.Project != tt.project || e.SessionID != tt.session || e.Format != tt.format {
				t.Errorf("got %q %q %q %s, want %q %q %q %s", e.Display, e.Project, e.SessionID, e.Format, tt.display, tt.project, tt.session, tt.format)
			}
			if !e.Timestamp.Equal(tt.timestamp) {
				t.Errorf("timestamp = %v, want %v", e.Timestamp, tt.timestamp)
			}
			got := e.SortedPastes()
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tt.pastes) {
				t.Errorf("pastes = %+v, want %+v", got, tt.pastes)
			}
		})
	}
}

func TestHistoryForProjectNewestFirst(t *testing.T) {
	h := readFixtureHistory(t)
	var lines []int
	for _, e := range h.ForProject("/home/me/app") {
		lines = append(lines, e.Line)
	}
	if fmt.Sprint(lines) != "[12 11 10 5 4 3 2 1]" {
		t.Errorf("lines = %v", lines)
	}
	if got := fmt.Sprint(h.Projects()); got != "[/home/me/app /home/me/other my-project]" {
		t.Errorf("projects = %s", got)
	}
	if n := len(h.ForProject("/nowhere")); n != 0 {
		t.Errorf("unknown project has %d entries", n)
	}
}

func histLine(display, project string, ts int64) string {
	return fmt.Sprintf(`{"display":%q,"pastedContents":{},"timestamp":%d,"project":%q}`, display, ts, project)
}

func TestHistoryUpArrowWindow(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 250; i++ {
		b.WriteString(histLine(fmt.Sprint("a", i), "/a", int64(i)) + "\n")
		if i%50 == 0 {
			b.WriteString(histLine(fmt.Sprint("b", i), "/b", int64(i)) + "\n")
		}
	}
	fsys := fstest.MapFS{HistoryPath: {Data: []byte(b.String())}}
	h, err := ReadHistory(fsys, HistoryPath)
	if err != nil {
		t.Fatal(err)
	}
	up := h.UpArrow("/a")
	if len(up) != 100 || up[0].Display != "a250" || up[99].Display != "a151" {
		t.Fatalf("up arrow: %d entries, first %q last %q", len(up), up[0].Display, up[len(up)-1].Display)
	}
	marked := map[string]int{}
	for _, e := range h.Entries {
		if e.InUpArrow {
			marked[e.Project]++
		}
	}
	if marked["/a"] != 100 || marked["/b"] != 5 {
		t.Errorf("marked = %v, want /a:100 /b:5", marked)
	}
	if all := h.ForProject("/a"); len(all) != 250 || all[249].InUpArrow || !all[99].InUpArrow || all[100].InUpArrow {
		t.Errorf("window marks wrong at the edge")
	}
}

func TestScanHistoryInputs(t *testing.T) {
	t.Parallel()
	good := histLine("x", "/p", 1)
	big := strings.Repeat("y", 10<<20)
	tests := []struct {
		name        string
		input       string
		wantEntries int
		wantKinds   []ProblemKind
		wantLines   []int
	}{
		{"empty file", "", 0, nil, nil},
		{"only BOM", "\xef\xbb\xbf", 0, nil, nil},
		{"blank lines", "\n\n  \n" + good + "\n\n", 1, nil, nil},
		{"BOM then line", "\xef\xbb\xbf" + good + "\n", 1, nil, nil},
		{"CRLF", good + "\r\n" + good + "\r\n", 2, nil, nil},
		{"valid last line without newline", good + "\n" + good, 2, nil, nil},
		{"partial last line", good + "\n" + good[:20], 1, []ProblemKind{ProblemIncompleteTail}, []int{2}},
		{"malformed middle", good + "\n{oops\n" + good + "\n", 2, []ProblemKind{ProblemMalformed}, []int{2}},
		{"no display", good + "\n{\"timestamp\":5}\n", 1, []ProblemKind{ProblemMalformed}, []int{2}},
		{"array line", "[1,2]\n", 0, []ProblemKind{ProblemMalformed}, []int{1}},
		{"bad timestamp", `{"display":"x","timestamp":"yesterday"}` + "\n", 0, []ProblemKind{ProblemMalformed}, []int{1}},
		{"paste without id", `{"display":"x","pastedContents":{"a":{"type":"text"}}}` + "\n", 0, []ProblemKind{ProblemMalformed}, []int{1}},
		{"invalid UTF-8 kept", "{\"display\":\"\xff\xfe\"}\n", 1, []ProblemKind{ProblemEncoding}, []int{1}},
		{"10 MiB line", histLine(big, "/p", 1) + "\n" + good + "\n", 2, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []*HistoryEntry
			probs, err := ScanHistory(strings.NewReader(tt.input), "h.jsonl", func(e *HistoryEntry) { entries = append(entries, e) })
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != tt.wantEntries {
				t.Errorf("entries = %d, want %d", len(entries), tt.wantEntries)
			}
			if len(probs) != len(tt.wantKinds) {
				t.Fatalf("problems = %+v, want kinds %v", probs, tt.wantKinds)
			}
			for i := range probs {
				if probs[i].Kind != tt.wantKinds[i] || probs[i].Line != tt.wantLines[i] || probs[i].File != "h.jsonl" {
					t.Errorf("problem %d = %+v, want %s at line %d", i, probs[i], tt.wantKinds[i], tt.wantLines[i])
				}
			}
		})
	}
}

func TestScanHistoryBigLineKeptWhole(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("z", 10<<20)
	var got *HistoryEntry
	_, err := ScanHistory(strings.NewReader(histLine(big, "/p", 7)+"\n"), "h", func(e *HistoryEntry) { got = e })
	if err != nil || got == nil || len(got.Display) != 10<<20 || got.Line != 1 {
		t.Fatalf("10 MiB display not read whole (err %v)", err)
	}
}

func TestParseHistoryLineVariants(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		wantErr bool
		check   func(e HistoryEntry) bool
	}{
		{"id as string", `{"display":"d","pastedContents":{"4":{"id":"4","content":"c"}}}`, false,
			func(e HistoryEntry) bool {
				return e.PastedContents[4].Content == "c" && e.PastedContents[4].Kind == PasteText
			}},
		{"id from key", `{"display":"d","pastedContents":{"7":{"type":"text","contentHash":"h"}}}`, false,
			func(e HistoryEntry) bool { return e.PastedContents[7].Hash == "h" && !e.PastedContents[7].Inline }},
		{"ISO timestamp", `{"display":"d","timestamp":"2026-01-02T03:04:05Z"}`, false,
			func(e HistoryEntry) bool { return e.Timestamp.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) }},
		{"no timestamp", `{"display":"d"}`, false,
			func(e HistoryEntry) bool { return e.Timestamp.IsZero() && e.PastedContents == nil }},
		{"huge timestamp", `{"display":"d","timestamp":1e300}`, true, nil},
		{"empty inline content", `{"display":"d","pastedContents":{"1":{"id":1,"content":""}}}`, false,
			func(e HistoryEntry) bool { return e.PastedContents[1].Inline && e.PastedContents[1].Content == "" }},
		{"seed with project key", `{"prompt":"p","project":"/x"}`, false,
			func(e HistoryEntry) bool { return e.Format == HistoryFormatSeed && e.Project == "/x" }},
		{"wrong type for project", `{"display":"d","project":5}`, true, nil},
		{"fractional id", `{"display":"d","pastedContents":{"x":{"id":1.5}}}`, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseHistoryLine([]byte(tt.line), 3)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err == nil && (e.Line != 3 || !tt.check(e)) {
				t.Errorf("entry %+v does not match", e)
			}
		})
	}
}

func TestReadHistoryMissingFile(t *testing.T) {
	_, err := ReadHistory(fstest.MapFS{}, HistoryPath)
	if err == nil || !strings.Contains(err.Error(), HistoryPath) {
		t.Fatalf("err = %v", err)
	}
}

// syntheticHistory builds n history lines, every tenth with a hashed paste.
func syntheticHistory(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, `{"display":"[Pasted text #1 +40 lines] look at prompt %d","pastedContents":{"1":{"id":1,"type":"text","contentHash":"%016x"}},"timestamp":%d,"project":"/home/me/proj%d","sessionId":"90f1c313-1390-4b18-a0c3-3b92641c73e5"}`+"\n", i, i, 1795345790406+int64(i), i%30)
			continue
		}
		fmt.Fprintf(&b, `{"display":"prompt number %d with some ordinary words in it","pastedContents":{},"timestamp":%d,"project":"/home/me/proj%d","sessionId":"90f1c313-1390-4b18-a0c3-3b92641c73e5"}`+"\n", i, 1795345790406+int64(i), i%30)
	}
	return b.Bytes()
}

func BenchmarkReadHistory100k(b *testing.B) {
	data := syntheticHistory(100_000)
	fsys := fstest.MapFS{HistoryPath: {Data: data}}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		h, err := ReadHistory(fsys, HistoryPath)
		if err != nil || len(h.Entries) != 100_000 {
			b.Fatalf("entries %d err %v", len(h.Entries), err)
		}
	}
}
