package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/model"
)

func TestPromptsFromTranscript(t *testing.T) {
	data, u := enginetest.WireSession()
	tr := enginetest.ReadConvo(t, data, enginetest.WithText)
	zone := time.FixedZone("UTC-5", -5*3600)
	p := PromptsFromTranscript(tr, zone)

	var got []string
	for _, in := range p.Inputs {
		got = append(got, in.UUID)
		if in.SessionID != "5d1e0c7a-3f2b-4c8d-9e6a-1b2c3d4e5f60" || in.Timestamp.Location() != zone {
			t.Errorf("input %s: session %q, zone %v", in.UUID, in.SessionID, in.Timestamp.Location())
		}
	}
	want := []string{u["question"], u["remember"], u["correction"], u["scoped"], u["role"]}
	if !slices.Equal(got, want) {
		t.Errorf("inputs %q, want %q", got, want)
	}
	wantSkipped := map[PromptSkip]int{SkipToolResult: 1, SkipMeta: 1, SkipSidechain: 1, SkipCompactSummary: 1, SkipRepeatedUUID: 1}
	if !reflect.DeepEqual(p.Skipped, wantSkipped) {
		t.Errorf("skipped %v, want %v", p.Skipped, wantSkipped)
	}
	// 23:30:15 UTC on the 5th is 18:30 on the 5th five hours west: the
	// user's calendar, not UTC's, anchors relative dates.
	if ts := p.Inputs[1].Timestamp; ts.Day() != 5 || ts.Hour() != 18 {
		t.Errorf("remember prompt at %v", ts)
	}
	// The image block is left out; the text is the text block alone.
	if p.Inputs[1].Text != "Remember that the billing service owns the invoices table, so schema changes there go through the billing team first." {
		t.Errorf("text %q", p.Inputs[1].Text)
	}
}

func TestPromptsFromTranscriptNeedsText(t *testing.T) {
	data, _ := enginetest.WireSession()
	// Without content blocks a tool result cannot be told from a prompt.
	cases := []struct {
		opts               model.ScanOptions
		notKept, toolUsers int
	}{{model.ScanOptions{}, 6, 0}, {model.ScanOptions{Content: true}, 5, 1}}
	for _, c := range cases {
		p := PromptsFromTranscript(enginetest.ReadConvo(t, data, c.opts), nil)
		if len(p.Inputs) != 0 || p.Skipped[SkipTextNotKept] != c.notKept || p.Skipped[SkipToolResult] != c.toolUsers {
			t.Errorf("opts %+v: %d inputs, skipped %v; want %d skipped as text not kept", c.opts, len(p.Inputs), p.Skipped, c.notKept)
		}
	}
}

func TestExtractFromTranscript(t *testing.T) {
	data, u := enginetest.WireSession()
	tr := enginetest.ReadConvo(t, data, enginetest.WithText)
	res, p, err := FromTranscript(context.Background(), tr, nil, nil, time.UTC)
	if err != nil || len(p.Inputs) != 5 {
		t.Fatalf("err %v, %d inputs", err, len(p.Inputs))
	}
	type want struct {
		uuid  string
		typ   CandidateType
		quote string
	}
	wants := []want{
		{u["remember"], CandidateProject, "Remember that the billing service owns the invoices table"},
		{u["correction"], CandidateFeedback, "No, don't split the migrations into separate deploys"},
		{u["role"], CandidateUser, "I'm a data engineer"},
	}
	if len(res.Candidates) != len(wants) {
		for _, c := range res.Candidates {
			t.Logf("got %s %s %q", c.Type, c.Name, c.Provenance.Quote)
		}
		t.Fatalf("%d candidates, want %d", len(res.Candidates), len(wants))
	}
	for i, w := range wants {
		c := res.Candidates[i]
		if c.Provenance.MessageUUID != w.uuid || c.Type != w.typ || !strings.HasPrefix(c.Provenance.Quote, w.quote) ||
			c.Provenance.SessionID != "5d1e0c7a-3f2b-4c8d-9e6a-1b2c3d4e5f60" {
			t.Errorf("candidate %d: %s %s from %s %q", i, c.Type, c.Name, c.Provenance.MessageUUID, c.Provenance.Quote)
		}
	}
	if !strings.Contains(res.Candidates[1].Body, "**Why:** The schema and the code must ship together.") {
		t.Errorf("correction body lacks its reason:\n%s", res.Candidates[1].Body)
	}
	if len(res.Rejected) != 1 || res.Rejected[0].Provenance.MessageUUID != u["scoped"] || res.Rejected[0].Reason != exWhyInProgress {
		t.Errorf("rejected %+v", res.Rejected)
	}
	// Nothing from the sidechain, the meta caveat or the summary, though
	// each says "remember that".
	for _, c := range res.Candidates {
		if c.Provenance.MessageUUID == u["sidechain"] || c.Provenance.MessageUUID == u["meta"] || c.Provenance.MessageUUID == u["summary"] {
			t.Errorf("candidate from a skipped record: %+v", c)
		}
	}
}

// The memories on disk come from a real folder layout: the correction is
// already there (in other words), so it is a duplicate of that file.
func TestExtractFromTranscriptDeduplicatesAgainstTheFolder(t *testing.T) {
	mem := fstest.MapFS{
		"memory/MEMORY.md":              {Data: []byte("- [One deploy](feedback_one_deploy.md) — migrations ship with the code\n")},
		"memory/feedback_one_deploy.md": {Data: []byte("---\nname: one-deploy\ndescription: Never split migrations into separate deploys\nmetadata:\n  node_type: memory\n  type: feedback\n---\n\nNever split the migrations into separate deploys.\n\n**Why:** schema and code ship together.\n")},
		"memory/notes.md":               {Data: []byte("Invoices belong to billing.\n")},
	}
	md, probs := model.ReadMemoryDir(mem, "memory")
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	existing := ExistingFromMemoryDir(md)
	wantExisting := []ExistingMemory{
		{Name: "one-deploy", Description: "Never split migrations into separate deploys", Body: "\nNever split the migrations into separate deploys.\n\n**Why:** schema and code ship together.\n", Type: CandidateFeedback},
		{Name: "notes", Body: "Invoices belong to billing.\n", Type: "untyped"},
	}
	if !reflect.DeepEqual(existing, wantExisting) {
		t.Fatalf("existing %+v", existing)
	}
	data, u := enginetest.WireSession()
	res, _, err := FromTranscript(context.Background(), enginetest.ReadConvo(t, data, enginetest.WithText), existing, RuleExtractor{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Duplicates) != 1 || res.Duplicates[0].Matches != "one-deploy" || res.Duplicates[0].Candidate.Provenance.MessageUUID != u["correction"] {
		t.Errorf("duplicates %+v", res.Duplicates)
	}
	for _, c := range res.Candidates {
		if c.Provenance.MessageUUID == u["correction"] {
			t.Errorf("the correction is both a duplicate and a candidate: %+v", c)
		}
	}
}

type failingExtractor struct{}

func TestExtractFromTranscriptErrors(t *testing.T) {
	data, _ := enginetest.WireSession()
	tr := enginetest.ReadConvo(t, data, enginetest.WithText)
	if _, _, err := FromTranscript(context.Background(), tr, nil, failingExtractor{}, nil); err == nil || !strings.Contains(err.Error(), "s.jsonl") {
		t.Errorf("err %v, want the extractor's error with the file", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := FromTranscript(ctx, tr, nil, nil, nil); err == nil {
		t.Error("a cancelled extraction did not fail")
	}
}

func TestCandidateMemoryType(t *testing.T) {
	cases := []struct {
		in   CandidateType
		want model.MemoryType
	}{
		{CandidateUser, model.TypeUser},
		{CandidateFeedback, model.TypeFeedback},
		{CandidateProject, model.TypeProject},
		{CandidateReference, model.TypeReference},
		{"", model.TypeUntyped},
		{"Feedback", model.TypeUntyped},
	}
	for _, c := range cases {
		if got := c.in.MemoryType(); got != c.want {
			t.Errorf("%q → %q, want %q", c.in, got, c.want)
		}
	}
}

// Odd files: what the reader skips is reported, and what it reads is
// still extracted.
func TestExtractFromOddTranscripts(t *testing.T) {
	t.Parallel()
	remember := "Remember that invoices are archived after seven years, because the auditors ask for them."
	one := func(text string) string {
		c := enginetest.NewConvo("odd", time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
		c.User(text)
		return c.B.String()
	}
	good := one(remember)
	pad := strings.Repeat("x", 10<<20)
	cases := []struct {
		name       string
		data       string
		inputs     int
		candidates int
		problem    model.ProblemKind
	}{
		{"empty file", "", 0, 0, ""},
		{"blank lines", "\n\n \n", 0, 0, ""},
		{"BOM and CRLF", "\ufeff" + strings.ReplaceAll(good, "\n", "\r\n"), 1, 1, ""},
		{"invalid UTF-8 in the prompt", strings.Replace(good, "invoices", "invo\xff\xfeices", 1), 1, 1, model.ProblemEncoding},
		{"10 MiB line", one(pad + "\n" + remember), 1, 1, ""},
		{"malformed line before", "{not json\n" + good, 1, 1, model.ProblemMalformed},
		{"incomplete tail", good + good[:len(good)/2], 1, 1, model.ProblemIncompleteTail},
		{"no message", `{"type":"user","uuid":"u1","parentUuid":null}` + "\n", 0, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := enginetest.ReadConvo(t, c.data, enginetest.WithText)
			res, p, err := FromTranscript(context.Background(), tr, nil, nil, nil)
			if err != nil || len(p.Inputs) != c.inputs || len(res.Candidates) != c.candidates {
				t.Fatalf("err %v, %d inputs, %d candidates; want %d, %d", err, len(p.Inputs), len(res.Candidates), c.inputs, c.candidates)
			}
			var kinds []model.ProblemKind
			for _, pr := range tr.Summary.Problems {
				kinds = append(kinds, pr.Kind)
				if pr.Line < 1 {
					t.Errorf("problem without a line: %+v", pr)
				}
			}
			if (c.problem == "") != (len(kinds) == 0) || c.problem != "" && !slices.Contains(kinds, c.problem) {
				t.Errorf("problems %v, want %q", kinds, c.problem)
			}
			if c.candidates > 0 && !strings.Contains(res.Candidates[0].Body, "archived after seven years") {
				t.Errorf("body %q", res.Candidates[0].Body)
			}
		})
	}
}

// On the two real transcripts, every prompt read is a user record of the
// main chain, and every user record is either read or skipped for a
// reason; compact summaries (counted with encoding/json, not the model
// reader) are never read.
func TestPromptsFromRealTranscripts(t *testing.T) {
	for _, name := range []string{"transcript-interactive-pastes.jsonl", "transcript-partial-compactions.jsonl"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(enginetest.RealDir, name))
			if err != nil {
				t.Fatal(err)
			}
			users, summaries := 0, 0
			for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
				var r struct {
					Type             string          `json:"type"`
					Message          json.RawMessage `json:"message"`
					IsCompactSummary bool            `json:"isCompactSummary"`
				}
				if json.Unmarshal([]byte(line), &r) == nil && r.Type == "user" && len(r.Message) > 0 {
					users++
					if r.IsCompactSummary {
						summaries++
					}
				}
			}
			tr := enginetest.ReadReal(t, name)
			p := PromptsFromTranscript(tr, nil)
			total := len(p.Inputs)
			for _, n := range p.Skipped {
				total += n
			}
			if total != users || p.Skipped[SkipCompactSummary] != summaries || len(p.Inputs) == 0 {
				t.Errorf("%d inputs + skipped %v = %d; %d user records, %d summaries", len(p.Inputs), p.Skipped, total, users, summaries)
			}
			for _, in := range p.Inputs {
				r := tr.Get(in.UUID)
				if r == nil || r.Type != model.RecordUser || r.IsSidechain || r.IsCompactSummary || r.IsMeta || in.Text == "" || in.SessionID == "" {
					t.Errorf("input %s is not a main-chain prompt: %+v", in.UUID, r)
				}
			}
		})
	}
}

func (failingExtractor) Extract(context.Context, []Input, []ExistingMemory) (Result, error) {
	return Result{}, fmt.Errorf("model unavailable")
}

// 2.1.331 marks where a user row came from: hook output and rows the
// client injected are not something the user said; typed and recorded
// rows are.
func TestPromptsSkipHookAndHarnessRows(t *testing.T) {
	row := func(uuid, source string) string {
		return `{"type":"user","uuid":"` + uuid + `","sessionId":"s","rowSource":"` + source + `","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"Remember that the build needs Go 1.26 for the tests to pass."}}` + "\n"
	}
	data := row("a", "local") + row("b", "hook") + row("c", "harness") + row("d", "recorded") + row("e", "")
	tr, err := model.ReadTranscriptWith(fstest.MapFS{"t.jsonl": {Data: []byte(data)}}, "t.jsonl", model.ScanOptions{Content: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	p := PromptsFromTranscript(tr, time.UTC)
	var got []string
	for _, in := range p.Inputs {
		got = append(got, in.UUID)
	}
	if !slices.Equal(got, []string{"a", "d", "e"}) || p.Skipped[SkipNotTyped] != 2 {
		t.Errorf("inputs %v skipped %v", got, p.Skipped)
	}
}
