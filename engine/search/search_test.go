package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

// plantedHome writes a home with noise and, in each store, strings found
// nowhere else; it returns the home's folder.
func plantedHome(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) { writeFile(t, dir, rel, content) }
	jsonl := func(recs ...any) string {
		var b strings.Builder
		for _, r := range recs {
			switch r := r.(type) {
			case string: // a raw line, written as it is
				b.WriteString(r)
			default:
				data, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(data)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	type m = map[string]any
	sid := "11111111-2222-4333-8444-555555555555"
	chain := func(typ, uuid, parent string, msg m) m {
		return m{"parentUuid": parent, "isSidechain": false, "type": typ, "message": msg, "uuid": uuid,
			"timestamp": "2026-11-20T10:00:00.000Z", "sessionId": sid, "cwd": "/work/app", "version": "2.1.330"}
	}
	// Noise: many records about other things, with the keys the syntax
	// checks look for.
	var noise []any
	for i := range 50 {
		noise = append(noise, chain("user", fmt.Sprintf("n-%d", i), "", m{"role": "user", "content": fmt.Sprintf("ordinary prompt %d\nwith a second line", i)}))
	}
	recs := []any{
		m{"type": "file-history-snapshot", "messageId": "u1", "snapshot": m{"trackedFileBackups": m{
			"main.go": m{"backupFileName": model.BackupFileName("/work/app/main.go", 1), "version": 1, "backupTime": "2026-11-20T10:00:00.000Z"}}}},
		chain("user", "u1", "", m{"role": "user", "content": "please find plantUserAlpha42 in the code"}), // line 2
		chain("assistant", "a1", "u1", m{"role": "assistant", "content": []m{
			{"type": "thinking", "thinking": "I think plantThinkingGamma about it"},
			{"type": "text", "text": "Here: plantAssistantBeta7."},
			{"type": "tool_use", "id": "t1", "name": "Bash", "input": m{"command": "grep plantToolUseDelta ."}},
		}}), // line 3
		chain("user", "r1", "a1", m{"role": "user", "content": []m{
			{"type": "tool_result", "tool_use_id": "t1", "content": []m{{"type": "text", "text": "out: plantToolResultEps"}}},
		}}), // line 4
		// A request blob repeats the whole conversation: not searched.
		m{"type": "api-request-blob", "body": "plantUserAlpha42 plantAssistantBeta7 plantToolResultEps"}, // line 5
		// An attachment carries memory text: searched in memory.
		m{"parentUuid": "r1", "type": "attachment", "uuid": "at1", "attachment": m{"type": "nested_memory", "content": "plantMemoryBodyZeta"}}, // line 6
		m{"parentUuid": nil, "logicalParentUuid": "at1", "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
			"uuid": "b1", "timestamp": "2026-11-20T11:00:00.000Z", "compactMetadata": m{"trigger": "manual", "preTokens": 100}}, // line 7
		m{"parentUuid": "b1", "type": "user", "isCompactSummary": true, "uuid": "s1", "timestamp": "2026-11-20T11:00:01.000Z",
			"message": m{"role": "user", "content": "This session is being continued. Summary: plantSummaryEta."}}, // line 8
		// Escapes the client never writes but JSON allows: found.
		`{"parentUuid":"s1","type":"assistant","uuid":"a2","timestamp":"2026-11-20T11:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"an esc\u0061pedPlant, a na\u00efvePlant, \u65e5\u672c\u8a9e and she said \"plantQuoted\" \/ ok"}]}}`, // line 9
	}
	write("projects/-work-app/"+sid+".jsonl", jsonl(append(recs, noise...)...))

	paste := "pasted text with plantPasteTheta inside\nsecond line\n"
	hash := model.HashPaste([]byte(paste))
	write("paste-cache/"+string(hash)+".txt", paste)
	write("paste-cache/00000000000000aa.txt", "an orphan paste: plantOrphanIota\n")
	write("history.jsonl", jsonl(
		m{"display": "ordinary history line", "timestamp": 1795345790000, "project": "/work/app", "sessionId": sid},
		m{"display": "look at plantHistoryKappa [Pasted text #1 +1 lines]", "timestamp": 1795345790406, "project": "/work/app", "sessionId": sid,
			"pastedContents": m{"1": m{"id": 1, "type": "text", "contentHash": string(hash)}}},
		m{"display": "[Pasted text #2] short", "timestamp": 1795345790500, "project": "/work/app",
			"pastedContents": m{"2": m{"id": 2, "type": "text", "content": "inline plantInlineLambda"}}},
	))
	write("projects/-work-app/memory/MEMORY.md", "- [Fact](fact.md) — a fact\n")
	write("projects/-work-app/memory/fact.md", "---\nname: fact\ndescription: plantFrontMu here\nmetadata:\n  type: project\n---\n\nThe body says plantMemoryBodyZeta.\n")
	write("CLAUDE.md", "# Rules\n\nAlways plantClaudeMdNu.\n")
	write("rules/style.md", "Prefer plantRuleXi.\n")
	write("file-history/"+sid+"/"+model.BackupFileName("/work/app/main.go", 1), "package main\n// plantBackupOmicron\n")
	return dir
}

// writeFile writes content to rel (slash-separated) under dir, making
// its folders.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runAll searches dir for query and returns every hit in order.
func runAll(t *testing.T, dir, query string, qo QueryOptions, mod func(*Options)) ([]Hit, Summary) {
	t.Helper()
	q, err := Compile(query, qo)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Home: model.DirFS(dir), HomeDir: dir, Query: q}
	if mod != nil {
		mod(&o)
	}
	var hits []Hit
	sum, err := Run(context.Background(), o, func(b Batch) error {
		hits = append(hits, b.Hits...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Hits != len(hits) {
		t.Errorf("summary counts %d hits, emitted %d", sum.Hits, len(hits))
	}
	return hits, sum
}

func TestPlantedStringsFoundOnceWhereTheyAre(t *testing.T) {
	t.Parallel()
	dir := plantedHome(t)
	sid := "11111111-2222-4333-8444-555555555555"
	tr := "projects/-work-app/" + sid + ".jsonl"
	hash := string(model.HashPaste([]byte("pasted text with plantPasteTheta inside\nsecond line\n")))
	cases := []struct {
		query string
		want  Hit
	}{
		{"plantUserAlpha42", Hit{Store: StoreTranscripts, File: tr, Line: 2, Where: "text", Role: "user", UUID: "u1", Compaction: CompactionBefore}},
		{"plantThinkingGamma", Hit{Store: StoreTranscripts, File: tr, Line: 3, Where: "thinking", Role: "assistant", UUID: "a1", Compaction: CompactionBefore}},
		{"plantAssistantBeta7", Hit{Store: StoreTranscripts, File: tr, Line: 3, Where: "text", Role: "assistant", UUID: "a1", Compaction: CompactionBefore}},
		{"plantToolUseDelta", Hit{Store: StoreTranscripts, File: tr, Line: 3, Where: "tool_use Bash input.command", Role: "assistant", UUID: "a1", Compaction: CompactionBefore}},
		{"plantToolResultEps", Hit{Store: StoreTranscripts, File: tr, Line: 4, Where: "tool_result", Role: "user", UUID: "r1", Compaction: CompactionBefore}},
		{"plantSummaryEta", Hit{Store: StoreTranscripts, File: tr, Line: 8, Where: "compact summary", Role: "summary", UUID: "s1", Compaction: CompactionAfter}},
		// Written as \u escapes (as Python's json writes what is not
		// ASCII): found where the query has a plain run (vePlant) and
		// where it has none (日本語, found by decoding the escapes).
		{"naïvePlant", Hit{Store: StoreTranscripts, File: tr, Line: 9, Where: "text", Role: "assistant", UUID: "a2", Compaction: CompactionAfter}},
		{"日本語", Hit{Store: StoreTranscripts, File: tr, Line: 9, Where: "text", Role: "assistant", UUID: "a2", Compaction: CompactionAfter}},
		{`said "plantQuoted" / ok`, Hit{Store: StoreTranscripts, File: tr, Line: 9, Where: "text", Role: "assistant", UUID: "a2", Compaction: CompactionAfter}},
		{"plantHistoryKappa", Hit{Store: StoreHistory, File: "history.jsonl", Line: 2, Where: "prompt", Role: "user"}},
		{"plantInlineLambda", Hit{Store: StoreHistory, File: "history.jsonl", Line: 3, Where: "paste #2", Role: "user"}},
		{"plantPasteTheta", Hit{Store: StorePastes, File: "paste-cache/" + hash + ".txt", Line: 1, Where: "line", Label: hash}},
		{"plantOrphanIota", Hit{Store: StorePastes, File: "paste-cache/00000000000000aa.txt", Line: 1, Where: "line", Label: "00000000000000aa"}},
		{"plantFrontMu", Hit{Store: StoreMemory, File: "projects/-work-app/memory/fact.md", Line: 3, Where: "frontmatter", Label: "auto memory"}},
		{"plantMemoryBodyZeta", Hit{Store: StoreMemory, File: "projects/-work-app/memory/fact.md", Line: 8, Where: "body", Label: "auto memory"}},
		{"plantClaudeMdNu", Hit{Store: StoreClaudeMd, File: "CLAUDE.md", Line: 3, Where: "line", Label: "user"}},
		{"plantRuleXi", Hit{Store: StoreClaudeMd, File: "rules/style.md", Line: 1, Where: "line", Label: "user"}},
		{"plantBackupOmicron", Hit{Store: StoreFileHistory, File: "file-history/" + sid + "/" + model.BackupFileName("/work/app/main.go", 1), Line: 2, Where: "line",
			Label: "backup v1 of /work/app/main.go"}},
	}
	for _, c := range cases {
		for _, qo := range []QueryOptions{{}, {Case: true}, {Regex: true}} {
			query := c.query
			if qo.Regex {
				query = regexpQuote(query)
			}
			hits, _ := runAll(t, dir, query, qo, nil)
			if len(hits) != 1 {
				t.Errorf("%q %+v: %d hits, want 1: %+v", query, qo, len(hits), hits)
				continue
			}
			h := hits[0]
			got := Hit{Store: h.Store, File: h.File, Line: h.Line, Where: h.Where, Role: h.Role, UUID: h.UUID, Compaction: h.Compaction}
			want := c.want
			if h.Store == StorePastes || h.Store == StoreMemory || h.Store == StoreClaudeMd || h.Store == StoreFileHistory {
				got.Label = h.Label
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q %+v:\n got %+v\nwant %+v", query, qo, got, want)
			}
			if s := h.Snippet[h.Match[0]:h.Match[1]]; !strings.EqualFold(s, c.query) {
				t.Errorf("%q: the snippet marks %q (snippet %q)", c.query, s, h.Snippet)
			}
		}
	}
}

// regexpQuote quotes s for RE2.
func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestSyntaxOnlyStringsAreNotFound(t *testing.T) {
	t.Parallel()
	dir := plantedHome(t)
	for _, q := range []string{"parentUuid", "isCompactSummary", `\n`, `"content"`, "tool_use_id", `\u0061`, "api-request-blob", "compact_boundary"} {
		hits, _ := runAll(t, dir, q, QueryOptions{}, nil)
		if len(hits) != 0 {
			t.Errorf("%q exists only in JSON syntax, yet: %+v", q, hits)
		}
	}
	// The noise prompts have a line break inside: found as text.
	hits, _ := runAll(t, dir, "prompt 7\nwith", QueryOptions{}, func(o *Options) { o.Stores = []Store{StoreTranscripts} })
	if len(hits) != 1 || hits[0].Line != 17 {
		t.Errorf("a line break in the text: %+v", hits)
	}
}

// A printable ASCII letter written as a \u escape (esc\u0061pedPlant) is
// matched as written: no JSON writer escapes one, and the prefilter
// skips, without a closer look, every line that does not hold the
// query's plain characters as they are (prefilter.go). The test pins the
// choice: changing it changes what the prefilter must look at.
func TestEscapedPlainLettersAreMatchedAsWritten(t *testing.T) {
	t.Parallel()
	dir := plantedHome(t)
	for _, qo := range []QueryOptions{{}, {Case: true}, {Regex: true}} {
		if hits, _ := runAll(t, dir, "escapedPlant", qo, nil); len(hits) != 0 {
			t.Errorf("%+v: %+v", qo, hits)
		}
	}
}

func TestSeenAndSinceAndProject(t *testing.T) {
	t.Parallel()
	dir := plantedHome(t)
	hits, _ := runAll(t, dir, "plantUserAlpha42", QueryOptions{}, nil)
	if len(hits) != 1 || hits[0].Seen == nil || *hits[0].Seen {
		t.Errorf("before the compaction the model does not see it: %+v", hits)
	}
	hits, _ = runAll(t, dir, "plantSummaryEta", QueryOptions{}, nil)
	if len(hits) != 1 || hits[0].Seen == nil || !*hits[0].Seen {
		t.Errorf("the summary is seen: %+v", hits)
	}
	hits, _ = runAll(t, dir, "PLANTuseralpha42", QueryOptions{}, nil)
	if len(hits) != 1 {
		t.Errorf("any case: %d hits", len(hits))
	}
	hits, _ = runAll(t, dir, "PLANTuseralpha42", QueryOptions{Case: true}, nil)
	if len(hits) != 0 {
		t.Errorf("--case: %d hits", len(hits))
	}
	since := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	hits, _ = runAll(t, dir, "plant", QueryOptions{}, func(o *Options) { o.Since = since; o.Stores = []Store{StoreTranscripts} })
	for _, h := range hits {
		if h.Time.Before(since) {
			t.Errorf("--since kept %+v", h)
		}
	}
	if len(hits) != 2 { // the summary and the escaped reply
		t.Errorf("--since: %d hits, want 2", len(hits))
	}
	hits, _ = runAll(t, dir, "plantHistoryKappa", QueryOptions{}, func(o *Options) { o.Project = &Project{Slug: "-work-other", Dir: "/work/other"} })
	if len(hits) != 0 {
		t.Errorf("another project's prompt: %+v", hits)
	}
	hits, _ = runAll(t, dir, "plantPasteTheta", QueryOptions{}, func(o *Options) { o.Stores = []Store{StoreHistory} })
	if len(hits) != 1 || len(hits[0].Prompts) != 1 || hits[0].Prompts[0].Line != 2 {
		t.Errorf("history alone searches its pastes, with the prompt that refers to one: %+v", hits)
	}
	hits, _ = runAll(t, dir, "plantOrphanIota", QueryOptions{}, func(o *Options) { o.Stores = []Store{StoreHistory} })
	if len(hits) != 0 {
		t.Errorf("an orphan paste is no prompt's: %+v", hits)
	}
}

func TestSecretsMaskedInSnippets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key := "ghp_" + strings.Repeat("a1B2c3D4e5", 3) + "f6G7h8"
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("the deploy token is "+key+" keep it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"deploy token", "a1B2c3D4e5"} {
		hits, _ := runAll(t, dir, q, QueryOptions{}, nil)
		if len(hits) != 1 {
			t.Fatalf("%q: %d hits", q, len(hits))
		}
		if strings.Contains(hits[0].Snippet, "a1B2c3D4e5") {
			t.Errorf("%q: the snippet shows the secret: %q", q, hits[0].Snippet)
		}
		if !strings.Contains(hits[0].Snippet, "[secret: ") {
			t.Errorf("%q: the snippet does not say a secret was masked: %q", q, hits[0].Snippet)
		}
		shown, _ := runAll(t, dir, q, QueryOptions{}, func(o *Options) { o.ShowSecrets = true })
		if !strings.Contains(shown[0].Snippet, key) {
			t.Errorf("%q with ShowSecrets: %q", q, shown[0].Snippet)
		}
	}
}

// A memory folder the settings moved (autoMemoryDirectory) is searched
// in whole-home mode, once, and its hits say where it is.
func TestMovedMemoryFolderIsSearched(t *testing.T) {
	t.Parallel()
	dir := plantedHome(t)
	moved := filepath.Join(dir, "elsewhere", "mem")
	writeFile(t, dir, "elsewhere/mem/moved.md", "---\nname: moved\n---\nplantMovedPi lives here\n")
	writeFile(t, dir, "settings.json", `{"autoMemoryDirectory": "`+moved+`"}`)
	hits, _ := runAll(t, dir, "plantMovedPi", QueryOptions{}, nil)
	if len(hits) != 1 {
		t.Fatalf("%d hits, want 1: %+v", len(hits), hits)
	}
	if h := hits[0]; h.Store != StoreMemory || h.File != "elsewhere/mem/moved.md" || h.Where != "body" || h.Project != "/work/app" {
		t.Errorf("the hit is %+v", h)
	}
	// The home's own memory folder is still searched.
	if hits, _ := runAll(t, dir, "plantMemoryBodyZeta", QueryOptions{}, nil); len(hits) != 1 {
		t.Errorf("the home's memory folder: %d hits, want 1", len(hits))
	}
}

// Ignoring case is Unicode's simple folding: k matches the Kelvin sign
// and s the long s, written as themselves or as \u escapes, in
// transcripts and text files; the anchor keeps k and s (a fast
// prefilter), and a line with such a character is still looked at.
func TestKelvinAndLongSFold(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sid := "11111111-2222-4333-8444-555555555555"
	write := func(rel, content string) { writeFile(t, dir, rel, content) }
	rec := func(uuid, text string) string {
		return `{"parentUuid":null,"type":"user","uuid":"` + uuid + `","sessionId":"` + sid + `","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	write("projects/-work-app/"+sid+".jsonl",
		rec("u1", "a plant\u212aelvin here")+ // written as an escape
			rec("u2", "a plantKelvin there")+ // written as itself
			rec("u3", "the plantLongſign")+
			rec("u4", "plainly nothing")+
			// Written as JSON escapes (\u212a, \u017f), as Python's json
			// writes them: found by the anchor without k and s (plant),
			// and where the query has no such run (kiosk: "io"), by the
			// look for the escapes.
			rec("u5", `a plant\u212aio\u017fk`)+
			rec("u6", `a \u212aio\u017Fk stand`))
	write("projects/-work-app/memory/k.md", "---\nname: k\n---\nplantKelvin in a memory\n")
	for _, c := range []struct {
		query string
		qo    QueryOptions
		want  []string // files#uuid or file
	}{
		{"plantkelvin", QueryOptions{}, []string{"u1", "u2", "k.md"}},
		{"PLANTKELVIN", QueryOptions{}, []string{"u1", "u2", "k.md"}},
		{"plantKelvin", QueryOptions{Case: true}, nil},
		{"plantlongsign", QueryOptions{}, []string{"u3"}},
		{"plant(k|x)elvin", QueryOptions{Regex: true}, []string{"u1", "u2", "k.md"}},
		{"plantkiosk", QueryOptions{}, []string{"u5"}},
		{"kiosk", QueryOptions{}, []string{"u5", "u6"}},
		{"kiosk", QueryOptions{Case: true}, nil},
	} {
		hits, _ := runAll(t, dir, c.query, c.qo, nil)
		var got []string
		for _, h := range hits {
			if h.UUID != "" {
				got = append(got, h.UUID)
			} else {
				got = append(got, filepath.Base(h.File))
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q %+v: hits %v, want %v", c.query, c.qo, got, c.want)
		}
	}
}

// Tool results the client saved to files beside a session are searched
// with the transcripts: every project's in a whole-home search, only the
// project's own when one project is searched.
func TestSavedToolResultsSearchedByProject(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, slug := range []string{"-work-app", "-work-other"} {
		sid := "11111111-2222-4333-8444-55555555555" + slug[len(slug)-1:]
		writeFile(t, dir, "projects/"+slug+"/"+sid+".jsonl",
			`{"type":"user","uuid":"u1","sessionId":"`+sid+`","cwd":"/work/`+slug[6:]+`","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"hello"}}`+"\n")
		writeFile(t, dir, "projects/"+slug+"/"+sid+"/tool-results/toolu_01.txt", "line one\nsavedResultNeedle in "+slug+"\n")
	}
	files := func(hits []Hit) []string {
		var out []string
		for _, h := range hits {
			if h.Store != StoreTranscripts || h.Line != 2 || h.Label != "tool result saved to a file" {
				t.Errorf("hit %+v", h)
			}
			out = append(out, strings.Split(h.File, "/")[1])
		}
		sort.Strings(out)
		return out
	}
	hits, _ := runAll(t, dir, "savedResultNeedle", QueryOptions{}, nil)
	if got := files(hits); strings.Join(got, " ") != "-work-app -work-other" {
		t.Errorf("whole home: %v", got)
	}
	hits, _ = runAll(t, dir, "savedResultNeedle", QueryOptions{}, func(o *Options) { o.Project = &Project{Slug: "-work-app", Dir: "/work/app"} })
	if got := files(hits); strings.Join(got, " ") != "-work-app" {
		t.Errorf("one project: %v", got)
	}
}

// A transcript a local GC rewrote keeps its older copy in
// <session>/before-cleanup/*.jsonl.replaced (2.1.332): search finds the
// rows that exist only there, labelled as earlier history.
func TestReplacedTranscriptSearched(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const sid = "11111111-2222-4333-8444-555555555555"
	line := func(text string) string {
		return `{"type":"user","uuid":"u1","sessionId":"` + sid + `","cwd":"/work/app","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	writeFile(t, dir, "projects/-work-app/"+sid+".jsonl", line("after the cleanup"))
	writeFile(t, dir, "projects/-work-app/"+sid+"/before-cleanup/1795860000000-0a1b2c3d.jsonl.replaced", line("prunedRowNeedle before the boundary"))
	hits, _ := runAll(t, dir, "prunedRowNeedle", QueryOptions{}, nil)
	if len(hits) != 1 || hits[0].SessionID != sid || !strings.HasSuffix(hits[0].File, ".jsonl.replaced") || !strings.Contains(hits[0].Label, "earlier history") {
		t.Errorf("hits %+v", hits)
	}
}

// TestLastCompactionFromEitherPass: the last compact boundary is found
// by the first pass when it comes after the file's first hit (the pass
// looks for boundaries from there on), else by a second pass over what
// the first passed over; either way every hit is placed against the
// last one, with the messages a partial compaction preserved seen.
// The boundaries sit past the first 1 MiB chunk too.
func TestLastCompactionFromEitherPass(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	user := func(uuid, text string) string {
		return fmt.Sprintf(`{"type":"user","uuid":%q,"message":{"role":"user","content":%q}}`, uuid, text)
	}
	boundary := func(uuid string, kept ...string) string {
		meta := `{"trigger":"auto"}`
		if len(kept) > 0 {
			ids, _ := json.Marshal(kept)
			meta = fmt.Sprintf(`{"trigger":"auto","preservedMessages":{"uuids":%s}}`, ids)
		}
		return fmt.Sprintf(`{"type":"system","subtype":"compact_boundary","uuid":%q,"content":"Conversation compacted","compactMetadata":%s}`, uuid, meta)
	}
	filler := user("f", strings.Repeat("filler words ", 100))
	var lines []string
	add := func(l string, n int) {
		for range n {
			lines = append(lines, l)
		}
	}
	add(user("u1", "alpha one"), 1) // line 1
	add(filler, 1000)
	add(boundary("b1"), 1) // line 1002
	add(user("u3", "alpha two"), 1)
	add(filler, 1000)
	add(boundary("b2", "u3"), 1) // line 2004
	add(user("u5", "alpha three"), 1)
	add(user("u6", "beta"), 1) // line 2006
	// Lines that name a boundary and are none: the last compaction is
	// still line 2004.
	add(`{"type":"system","subtype":"informational","uuid":"d1","content":"compact_boundary, said"}`, 1)
	add(`{"type":"system","subtype":"compact_boundary","uuid":"d2","content":"cut short`, 1)
	writeFile(t, dir, "projects/-w/aaaaaaaa-0000-4000-8000-000000000001.jsonl", strings.Join(lines, "\n")+"\n")
	type place struct {
		line int
		c    Compaction
		seen bool
	}
	for _, c := range []struct {
		query string
		want  []place
	}{
		{"alpha", []place{{1, CompactionBefore, false}, {1003, CompactionBefore, true}, {2005, CompactionAfter, true}}},
		{"one", []place{{1, CompactionBefore, false}}},
		{"two", []place{{1003, CompactionBefore, true}}},
		{"three", []place{{2005, CompactionAfter, true}}},
		{"beta", []place{{2006, CompactionAfter, true}}},
	} {
		hits, _ := runAll(t, dir, c.query, QueryOptions{}, func(o *Options) { o.Stores = []Store{StoreTranscripts} })
		var got []place
		for _, h := range hits {
			if h.Seen == nil {
				t.Fatalf("%q: a transcript hit without seen: %+v", c.query, h)
			}
			got = append(got, place{h.Line, h.Compaction, *h.Seen})
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: %v, want %v", c.query, got, c.want)
		}
	}
}
