package export

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/model"
)

// entryByUUID finds an exported entry.
func entryByUUID(es []Entry, uuid string) *Entry {
	for i := range es {
		if es[i].UUID == uuid {
			return &es[i]
		}
	}
	return nil
}

func uuidsOfEntries(es []Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.UUID)
	}
	return strings.Join(out, ",")
}

// Figures of the real transcript, read with Python from the file:
// boundaries at lines 28 and 69, 51 records with a uuid.
func TestExportRealPartialCompactions(t *testing.T) {
	x := loadReal(t, "transcript-partial-compactions.jsonl")
	if x.Compactions != 2 {
		t.Errorf("compactions %d, want 2", x.Compactions)
	}
	var bs []*Boundary
	var lines []int
	for _, e := range x.Conversation {
		if e.Kind == EntryBoundary {
			bs = append(bs, e.Boundary)
			lines = append(lines, e.Line)
		}
	}
	if len(bs) != 2 || lines[0] != 28 || lines[1] != 69 {
		t.Fatalf("boundaries at %v", lines)
	}
	if *bs[0].PreTokens != 19110 || *bs[0].PostTokens != 2550 || bs[0].Trigger != model.TriggerManual || len(bs[0].Preserved) != 0 {
		t.Errorf("first boundary %+v", bs[0])
	}
	if *bs[1].PreTokens != 19495 || *bs[1].PostTokens != 2610 || len(bs[1].Preserved) != 1 {
		t.Errorf("second boundary %+v", bs[1])
	}
	kept := entryByUUID(x.Conversation, "4935c698-c7a9-4e5e-9586-384266894a46")
	if kept == nil || kept.PreservedBy != 2 {
		t.Errorf("preserved message %+v", kept)
	}
	if x.Unexported != 0 || len(x.Conversation) != 51 {
		t.Errorf("conversation has %d entries, %d unexported; want all 51 records", len(x.Conversation), x.Unexported)
	}
	// The leaf is the last last-prompt's leafUuid, read here with encoding/json.
	f, err := os.Open(filepath.Join(enginetest.RealDir, "transcript-partial-compactions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var leaf string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct{ Type, LeafUUID string }
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Type == "last-prompt" {
			leaf = r.LeafUUID
		}
	}
	if x.Leaf.UUID != leaf || x.Leaf.Source != timeline.LeafFromLastPrompt || x.Leaf.ChainEnd != model.ChainRoot {
		t.Errorf("leaf %+v, want %s from last-prompt", x.Leaf, leaf)
	}
	tr, err := model.ReadTranscript(os.DirFS(enginetest.RealDir), "transcript-partial-compactions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if x.Usage.Tokens != tr.Summary.Usage || x.Usage.Responses != tr.Summary.Responses {
		t.Errorf("usage %+v, the transcript summary says %+v in %d responses", x.Usage, tr.Summary.Usage, tr.Summary.Responses)
	}
}

func TestExportBoundaryFixture(t *testing.T) {
	x := loadFixture(t, fxBoundary())
	if got := uuidsOfEntries(x.Conversation); got != "u1,a1,b1,s1,u2,a2,m1,u3,a3" {
		t.Fatalf("conversation %s", got)
	}
	b1, s1, m1 := entryByUUID(x.Conversation, "b1"), entryByUUID(x.Conversation, "s1"), entryByUUID(x.Conversation, "m1")
	if b1.Boundary.Kind != timeline.BoundaryCompact || b1.Boundary.Number != 1 || b1.Boundary.Trigger != model.TriggerAuto || *b1.Boundary.PostTokens != 4100 {
		t.Errorf("compact boundary %+v", b1.Boundary)
	}
	if s1.Kind != EntryCompactSummary || !strings.Contains(s1.Blocks[0].Text, "tenant-keyed LRU") {
		t.Errorf("summary %+v", s1)
	}
	if m1.Boundary.Kind != timeline.BoundaryMicrocompact || m1.Boundary.Number != 2 || *m1.Boundary.TokensSaved != 21000 {
		t.Errorf("microcompact boundary %+v", m1.Boundary)
	}
	if x.Compactions != 2 || x.Usage.Responses != 3 || x.Usage.Tokens.InputTokens != 170000+5000+31000 {
		t.Errorf("compactions %d, usage %+v", x.Compactions, x.Usage)
	}
}

func TestExportBranches(t *testing.T) {
	x := loadFixture(t, fxBranches())
	if got := uuidsOfEntries(x.Conversation); got != "u1,a1,u2b,a2b" {
		t.Errorf("main chain %s", got)
	}
	if len(x.Branches) != 1 || x.Branches[0].Parent != "a1" || x.Branches[0].From != "u2" || uuidsOfEntries(x.Branches[0].Entries) != "u2,a2" {
		t.Errorf("branches %+v", x.Branches)
	}
	// Without the last-prompt record the newest main-chain record is the
	// leaf: here the same one.
	home := fxBranches()
	p := fxHome + fxSession + ".jsonl"
	lines := strings.Split(strings.TrimSpace(string(home[p].Data)), "\n")
	home[p] = &fstest.MapFile{Data: []byte(strings.Join(lines[:len(lines)-1], "\n") + "\n")}
	y := loadFixture(t, home)
	if y.Leaf.Source != timeline.LeafFromNewest || y.Leaf.UUID != "a2b" || len(y.Branches) != 1 {
		t.Errorf("leaf %+v, branches %d", y.Leaf, len(y.Branches))
	}
}

func TestExportTools(t *testing.T) {
	x := loadFixture(t, fxTools())
	if entryByUUID(x.Conversation, "r1") != nil {
		t.Errorf("a user record of results whose calls are shown should fold into the calls")
	}
	a1 := entryByUUID(x.Conversation, "a1")
	if a1 == nil || len(a1.Blocks) != 3 {
		t.Fatalf("a1 %+v", a1)
	}
	bash, read := a1.Blocks[1].Tool, a1.Blocks[2].Tool
	tests := []struct {
		name        string
		call        *ToolCall
		summary     string
		result      string
		isErr       bool
		inputSubstr string
	}{
		{"bash", bash, "ls -la", "total 8\ndrwxr-xr-x main.go\n", false, `"command": "ls -la"`},
		{"read error", read, "/home/me/app/missing.go", "File does not exist.", true, `"file_path"`},
		{"unknown tool", entryByUUID(x.Conversation, "a2").Blocks[1].Tool, "sql=select 1", "1", false, `"limit": 5`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.call.Summary != tt.summary {
				t.Errorf("summary %q, want %q", tt.call.Summary, tt.summary)
			}
			if tt.call.Result == nil || tt.call.Result.Text != tt.result || tt.call.Result.IsError != tt.isErr || tt.call.Result.Bytes != len(tt.result) {
				t.Errorf("result %+v", tt.call.Result)
			}
			if !strings.Contains(tt.call.Input, tt.inputSubstr) {
				t.Errorf("input %q lacks %q", tt.call.Input, tt.inputSubstr)
			}
		})
	}
	r2 := entryByUUID(x.Conversation, "r2")
	if r2 == nil || r2.Kind != EntryToolResults || len(r2.Blocks) != 1 || r2.Blocks[0].Result.ToolUseID != "toolu_gone" {
		t.Errorf("orphan result entry %+v", r2)
	}
}

func TestExportSidechains(t *testing.T) {
	x := loadFixture(t, fxSidechain())
	if len(x.Sidechains) != 2 {
		t.Fatalf("%d sidechains", len(x.Sidechains))
	}
	inl, sub := x.Sidechains[0], x.Sidechains[1]
	if inl.Source != SidechainInline || inl.AgentID != "inl1" || uuidsOfEntries(inl.Entries) != "sc1,sc2" {
		t.Errorf("inline sidechain %+v", inl)
	}
	if !strings.HasSuffix(sub.Source, "/subagents/agent-b2.jsonl") || sub.AgentID != "b2" || uuidsOfEntries(sub.Entries) != "x1,x2" ||
		sub.Usage.Responses != 1 || sub.Usage.Tokens.InputTokens != 500 {
		t.Errorf("subagent sidechain %+v", sub)
	}
	if entryByUUID(x.Conversation, "sc1") != nil {
		t.Errorf("sidechain records are not part of the main conversation")
	}
	if !containsString(x.Models, "claude-haiku-5") || x.Usage.Responses != 4 || x.Usage.Tokens.InputTokens != 3000+3100+700+500 {
		t.Errorf("models %v, usage %+v", x.Models, x.Usage)
	}
}

func TestExportPastes(t *testing.T) {
	x := loadFixture(t, fxPaste())
	type want struct {
		kinds  string
		origin PasteOrigin
		text   string
		status model.PasteStatus
	}
	tests := map[string]want{
		"u1": {"paste,text", PasteFromCache, "func main() {\n\tfmt.Println(\"hi\")\n}", model.PasteOK},
		"u2": {"text,paste,text", PasteFromHistory, "one\ntwo", ""},
		"u3": {"paste,text", PasteUnresolved, "", model.PasteMissing},
		"u4": {"text,paste,text", PasteFromTag, "line a\nline b", ""},
	}
	for uuid, w := range tests {
		t.Run(uuid, func(t *testing.T) {
			e := entryByUUID(x.Conversation, uuid)
			var kinds []string
			var p *Paste
			for _, b := range e.Blocks {
				kinds = append(kinds, string(b.Kind))
				if b.Paste != nil {
					p = b.Paste
				}
			}
			if strings.Join(kinds, ",") != w.kinds || p == nil {
				t.Fatalf("blocks %s, want %s", strings.Join(kinds, ","), w.kinds)
			}
			if p.Origin != w.origin || p.Text != w.text || p.Status != w.status {
				t.Errorf("paste %+v", p)
			}
		})
	}
	// A prompt of another session is not used, even with the same text.
	pm := newPasteMatcher([]*model.HistoryEntry{{Display: "[Pasted text #1] x", SessionID: "other", Project: fxCWD,
		PastedContents: map[model.PasteID]model.PastedContent{1: {ID: 1, Kind: model.PasteText, Inline: true, Content: "secret"}}}}, fxSession, fxCWD, nil)
	bs := pm.split("[Pasted text #1] x")
	if len(bs) != 2 || bs[0].Paste == nil || bs[0].Paste.Origin != PasteUnresolved || strings.Contains(bs[0].Paste.Text, "secret") {
		t.Errorf("other session's paste used: %+v", bs)
	}
}

func TestSplitPasteTagsEdges(t *testing.T) {
	tests := []struct {
		in    string
		kinds string
	}{
		{`<pasted_content id="a">x</pasted_content id="a">`, "paste"},
		{`<pasted_content id="a">x`, "text"},
		{`<pasted_content id="a">x</pasted_content id="b">`, "text"},
		{`a<pasted_content id="1">x</pasted_content id="1">b<pasted_content id="2">y</pasted_content id="2">`, "text,paste,text,paste"},
		{`<pasted_content id="a`, "text"},
		{"", ""},
	}
	for _, tt := range tests {
		var kinds []string
		var joined strings.Builder
		for _, b := range splitPasteTags(tt.in) {
			kinds = append(kinds, string(b.Kind))
			if b.Paste != nil {
				joined.WriteString(b.Paste.Text)
			} else {
				joined.WriteString(b.Text)
			}
		}
		if strings.Join(kinds, ",") != tt.kinds {
			t.Errorf("%q: %s, want %s", tt.in, strings.Join(kinds, ","), tt.kinds)
		}
		if tt.kinds == "text" && joined.String() != tt.in {
			t.Errorf("%q: text changed to %q", tt.in, joined.String())
		}
	}
}

func TestToolSummary(t *testing.T) {
	long := strings.Repeat("a", 300)
	tests := []struct {
		name, tool, input, want string
	}{
		{"bash", "Bash", `{"command":"go test ./...\n  -run X"}`, "go test ./... -run X"},
		{"grep two fields", "Grep", `{"pattern":"TODO","path":"src"}`, "TODO · src"},
		{"todo", "TodoWrite", `{"todos":[{},{},{}]}`, "3 todos"},
		{"generic", "mcp__x", `{"url":"https://example.com"}`, "https://example.com"},
		{"keys only", "mcp__x", `{"n":1,"m":[2]}`, "m, n"},
		{"not an object", "X", `[1,2]`, "[1,2]"},
		{"empty", "X", ``, ""},
		{"long", "Bash", `{"command":"` + long + `"}`, strings.Repeat("a", 119) + "…"},
		{"invalid utf8", "Bash", "{\"command\":\"a\xffb\"}", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ToolSummary(tt.tool, json.RawMessage(tt.input))
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if utf8.RuneCountInString(got) > toolSummaryMax || strings.ContainsAny(got, "\n\r") {
				t.Errorf("summary not one short line: %q", got)
			}
		})
	}
}

func TestExportBadInput(t *testing.T) {
	big := strings.Repeat("x", 10<<20)
	tests := []struct {
		name  string
		data  string
		check func(t *testing.T, x *SessionExport)
	}{
		{"empty file", "", func(t *testing.T, x *SessionExport) {
			if len(x.Conversation) != 0 || x.Leaf.Source != timeline.LeafNone {
				t.Errorf("%+v", x)
			}
		}},
		{"incomplete tail", `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n" + `{"type":"assistant","uuid":"a1"`, func(t *testing.T, x *SessionExport) {
			if len(x.Conversation) != 1 || len(x.Problems) != 1 || x.Problems[0].Kind != model.ProblemIncompleteTail || x.Problems[0].Line != 2 {
				t.Errorf("conversation %d, problems %+v", len(x.Conversation), x.Problems)
			}
		}},
		{"malformed middle line, CRLF and BOM", "\ufeff" + `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\r\nnot json\r\n" +
			`{"type":"user","uuid":"u2","parentUuid":"u1","message":{"role":"user","content":"a\r\nb"}}` + "\r\n", func(t *testing.T, x *SessionExport) {
			if uuidsOfEntries(x.Conversation) != "u1,u2" || len(x.Problems) != 1 || x.Problems[0].Line != 2 || x.Problems[0].Kind != model.ProblemMalformed {
				t.Errorf("conversation %s, problems %+v", uuidsOfEntries(x.Conversation), x.Problems)
			}
		}},
		{"10 MiB line", `{"type":"user","uuid":"u1","message":{"role":"user","content":"` + big + `"}}` + "\n", func(t *testing.T, x *SessionExport) {
			if len(x.Conversation) != 1 || x.Conversation[0].Blocks[0].Text != big {
				t.Errorf("the long message did not come through whole")
			}
		}},
		{"one response over two lines", `{"type":"assistant","uuid":"a1","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":7,"output_tokens":1}}}` + "\n" +
			`{"type":"assistant","uuid":"a2","parentUuid":"a1","requestId":"r","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Read","input":{}}],"usage":{"input_tokens":7,"output_tokens":1}}}` + "\n", func(t *testing.T, x *SessionExport) {
			if len(x.Conversation) != 2 || x.Conversation[0].Usage == nil || x.Conversation[1].Usage != nil || x.Usage.Responses != 1 || x.Usage.Tokens.InputTokens != 7 {
				t.Errorf("usage shown %v/%v, totals %+v", x.Conversation[0].Usage, x.Conversation[1].Usage, x.Usage)
			}
		}},
		{"invalid utf8 and a parent loop", `{"type":"user","uuid":"u1","parentUuid":"u2","message":{"role":"user","content":"a` + "\xff\xfe" + `b"}}` + "\n" +
			`{"type":"user","uuid":"u2","parentUuid":"u1","message":{"role":"user","content":"c"}}` + "\n", func(t *testing.T, x *SessionExport) {
			if x.Leaf.ChainEnd != model.ChainCycle || len(x.Conversation) != 2 {
				t.Errorf("leaf %+v, %d entries", x.Leaf, len(x.Conversation))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := fstest.MapFS{"s.jsonl": {Data: []byte(tt.data)}}
			x, err := LoadSessionExport(SessionSource{FS: home, Transcript: "s.jsonl", Home: home}, exportNow)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, x)
			for _, f := range []Format{Markdown, HTML, JSON} {
				b, err := RenderSessionExport(x, f)
				if err != nil || !utf8.Valid(b) {
					t.Errorf("%s: err %v, valid UTF-8 %v", f, err, utf8.Valid(b))
				}
				if f == HTML && len(b) < 10<<20 {
					checkHTML(t, string(b))
				}
			}
		})
	}
}

func TestExportSessionAPI(t *testing.T) {
	home := fxPaste()
	home[fxHome+"5e551011-ffff-4000-8000-00000000bbbb.jsonl"] = &fstest.MapFile{Data: []byte("")}
	h := &model.Home{Dir: "/home/me/.claude", FS: home}
	tests := []struct {
		id      string
		wantErr string
	}{
		{fxSession, ""},
		{"5e551011-0000", ""},
		{"5e551011", "ambiguous"},
		{"nope", "no session"},
		{"", "no session"},
	}
	for _, tt := range tests {
		b, err := Session(h, tt.id, JSON, exportNow)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tt.id, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%q: error %v, want %q", tt.id, err, tt.wantErr)
		case tt.wantErr == "":
			var x SessionExport
			if err := json.Unmarshal(b, &x); err != nil || x.SessionID != fxSession || len(x.Conversation) != 8 {
				t.Errorf("%q: %v, session %q, %d entries", tt.id, err, x.SessionID, len(x.Conversation))
			}
		}
	}
	if _, err := Session(h, fxSession, "pdf", exportNow); err == nil {
		t.Errorf("unknown format accepted")
	}
}

func TestExportNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{DefaultName(fxSession, HTML), "claude-session-5e551011.html"},
		{DefaultName("../../x", Markdown), "claude-session-x.md"},
		{DefaultName("", JSON), "claude-session-session.json"},
		{DefaultMemoryExportName("/home/me/shop-api", Markdown), "claude-memory-shop-api.md"},
		{DefaultMemoryExportName("/", JSON), "claude-memory-project.json"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	for _, s := range []string{"md", "HTML", " json ", "markdown"} {
		if _, err := ParseFormat(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if _, err := ParseFormat("pdf"); err == nil {
		t.Errorf("pdf accepted")
	}
}
