package extract

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

var exSlugShape = regexp.MustCompile(`^(?:user|feedback|project|reference)-[a-z0-9-]+$`)

func FuzzExtract(f *testing.F) {
	f.Add("No, don't mock the database in integration tests. Last time a mock hid a broken migration.", int64(0))
	f.Add("I'm a data engineer. I prefer SQL over ORMs.\r\nRemember that.", int64(86400*3))
	f.Add("The release ships by Friday <pasted_content id=\"a\">x</pasted_content id=\"a\"> see https://linear.app/a/project/b", int64(-86400))
	f.Add("<system-reminder>don't</system-reminder>```\nnever\n```\x1b[31myes, keep using tabs\u202e", int64(1))
	f.Fuzz(func(t *testing.T, text string, offset int64) {
		ts := monday.Add(time.Duration(offset%(400*86400)) * time.Second)
		msgs := []Input{{SessionID: "s", UUID: "u1", Timestamp: ts, Text: text}, {SessionID: "s", UUID: "u2", Timestamp: ts, Text: text}}
		existing := []ExistingMemory{{Name: "feedback-keep", Description: "Keep answers short", Body: "Short answers.\n\n**Why:** x\n"}}
		res, err := RuleExtractor{}.Extract(context.Background(), msgs, existing)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := RuleExtractor{}.Extract(context.Background(), msgs, existing)
		if !reflect.DeepEqual(res, again) {
			t.Fatalf("not deterministic:\n%+v\n%+v", res, again)
		}
		names := map[string]bool{"feedback-keep": true}
		for _, c := range res.Candidates {
			checkCandidate(t, c)
			if u := c.Provenance.MessageUUID; u != "u1" && u != "u2" {
				t.Fatalf("provenance %+v names no input", c.Provenance)
			}
			if names[c.Name] {
				t.Fatalf("name %q used twice", c.Name)
			}
			names[c.Name] = true
		}
		for _, d := range res.Duplicates {
			if d.Matches == "" || d.Similarity < DefaultDuplicateThreshold || d.Similarity > 1 {
				t.Fatalf("duplicate %+v", d)
			}
		}
		for _, r := range res.Rejected {
			if r.Reason == "" || r.Rule == "" || r.Provenance.Quote == "" {
				t.Fatalf("rejection %+v lacks rule, reason or quote", r)
			}
		}
	})
}

// checkCandidate asserts what every candidate must be, whatever the input.
func checkCandidate(t *testing.T, c Candidate) {
	t.Helper()
	if !exSlugShape.MatchString(c.Name) || len(c.Name) > len("reference-")+exNameMax || !strings.HasPrefix(c.Name, string(c.Type)+"-") {
		t.Fatalf("bad name %q for type %s", c.Name, c.Type)
	}
	if c.Description == "" || strings.ContainsAny(c.Description, "\n\r") || len(c.Description) > exDescriptionMax+len("…") {
		t.Fatalf("bad description %q", c.Description)
	}
	if q := c.Provenance.Quote; q == "" || len(q) > exQuoteMax+len("…") || c.Provenance.MessageUUID == "" {
		t.Fatalf("bad provenance %+v", c.Provenance)
	}
	for _, s := range []string{c.Description, c.Body, c.Provenance.Quote} {
		if !utf8.ValidString(s) || model.SanitizeForTerminal(s) != s {
			t.Fatalf("unsafe text %q", s)
		}
	}
	switch c.Type {
	case CandidateFeedback, CandidateProject:
		if !strings.Contains(c.Body, "\n**Why:** ") || !strings.Contains(c.Body, "\n**How to apply:** ") {
			t.Fatalf("%s body lacks Why/How: %q", c.Type, c.Body)
		}
	case CandidateReference:
		if !strings.Contains(c.Body, "\nLink: http") {
			t.Fatalf("reference body lacks its link: %q", c.Body)
		}
	case CandidateUser:
	default:
		t.Fatalf("unknown type %q", c.Type)
	}
}

func FuzzExtractDates(f *testing.F) {
	f.Add("by Friday and next week, end of the month", int64(0))
	f.Add("in 10 days or the day after tomorrow; next Friday, Dec 4", int64(86400*6))
	f.Fuzz(func(t *testing.T, s string, offset int64) {
		ts := monday.Add(time.Duration(offset%(4000*86400)) * time.Second)
		out, dates := exResolveDates(s, ts)
		if len(dates) == 0 && out != s {
			t.Fatalf("no dates resolved but text changed: %q -> %q", s, out)
		}
		for _, d := range dates {
			if days := d.Sub(ts).Hours() / 24; days < -2 || days > 999*7+1 {
				t.Fatalf("%q at %s resolved to %s", s, ts, d)
			}
			if !strings.Contains(out, d.Format(exISODate)) && !strings.Contains(out, d.Format("January 2006")) {
				t.Fatalf("date %s not written into %q", d.Format(exISODate), out)
			}
		}
		if again, _ := exResolveDates(s, ts); again != out {
			t.Fatalf("not deterministic: %q vs %q", out, again)
		}
	})
}

func BenchmarkRuleExtractor(b *testing.B) {
	texts := []string{
		"No, don't mock the database in integration tests. Last time a mock hid a broken migration and we had to roll back.",
		"Can you look at why the build is red? <pasted_content id=\"1\">" + strings.Repeat("error line\n", 200) + "</pasted_content id=\"1\">",
		"I'm a backend engineer and new to the React side of this codebase",
		"The mobile release ships by Friday, and the API must be frozen by end of next week.",
		"Pipeline bugs are tracked in the Linear project INGEST: https://linear.app/acme/project/ingest-42",
		"ok thanks, that works. let's move on to the exporter and add a flag for the output path",
		"<command-name>/compact</command-name>\n<command-message>compact</command-message>",
		"```go\nfunc main() {}\n```\nwhy does this not compile?",
	}
	var msgs []Input
	size := 0
	for i := range 250 {
		t := texts[i%len(texts)]
		msgs = append(msgs, Input{SessionID: "s", UUID: "u", Timestamp: monday, Text: t})
		size += len(t)
	}
	existing := make([]ExistingMemory, 0, 150)
	for i := range 150 {
		existing = append(existing, ExistingMemory{Name: "m" + string(rune('a'+i%26)), Description: "Some existing memory about topic number " + strings.Repeat("x", i%7),
			Body: "A body of a typical memory with a rule.\n\n**Why:** because.\n**How to apply:** always.\n"})
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		if _, err := (RuleExtractor{}).Extract(context.Background(), msgs, existing); err != nil {
			b.Fatal(err)
		}
	}
}
