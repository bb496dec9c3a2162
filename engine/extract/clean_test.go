package extract

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
)

func TestExCleanMessage(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		keep    []string
		dropped []string
	}{
		{"pasted block with id", "before <pasted_content id=\"9f2c\">SECRET PASTE\nmore</pasted_content id=\"9f2c\"> after",
			[]string{"before", "after"}, []string{"SECRET PASTE", "more"}},
		{"system reminder", "<system-reminder>\nCONTEXT\n</system-reminder>\nmine", []string{"mine"}, []string{"CONTEXT"}},
		{"command wrappers", "<command-name>/model</command-name><command-message>model</command-message><command-args>opus</command-args>",
			nil, []string{"/model", "opus"}},
		{"local command output", "<local-command-stdout>Set model to X</local-command-stdout>ok", []string{"ok"}, []string{"Set model"}},
		{"bash output", "<bash-input>ls</bash-input><bash-stdout>a.txt</bash-stdout><bash-stderr></bash-stderr>hm", []string{"hm"}, []string{"a.txt"}},
		{"unclosed wrapper runs to the end", "fine <system-reminder>REST", []string{"fine"}, []string{"REST"}},
		{"fenced code", "look\n```sh\nrm -rf /\n```\nthen", []string{"look", "then"}, []string{"rm -rf"}},
		{"tilde fence unclosed", "x\n~~~\nCODE", []string{"x"}, []string{"CODE"}},
		{"short code span kept", "use `pnpm` here", []string{"use pnpm here"}, []string{"`"}},
		{"long code span dropped", "see `if (x) { y(); }` there", []string{"see", "there"}, []string{"y();"}},
		{"indented code", "text\n    func main() {}\n\tx := 1", []string{"text"}, []string{"func main", "x := 1"}},
		{"stack trace lines", "oops\nTraceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    at com.x.Y.z(Y.java:10)",
			[]string{"oops"}, []string{"Traceback", "a.py", "Y.java"}},
		{"log lines", "2026-11-23T10:00:00Z starting\n[ERROR] boom\nok then", []string{"ok then"}, []string{"starting", "boom"}},
		{"quote and prompt", "> earlier answer\n$ make test\nmine", []string{"mine"}, []string{"earlier answer", "make test"}},
		{"placeholders", "[Pasted text #3 +12 lines] and [Image #1] and [...Truncated text #2 +4 lines...]", []string{"and"}, []string{"Pasted", "Image", "Truncated"}},
		{"escapes", "\x1b[31mred\x1b[0m text", []string{"red text"}, []string{"\x1b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := exCleanMessage(tc.in)
			for _, k := range tc.keep {
				if !strings.Contains(got, k) {
					t.Errorf("%q lost %q", got, k)
				}
			}
			for _, d := range tc.dropped {
				if strings.Contains(got, d) {
					t.Errorf("%q still has %q", got, d)
				}
			}
		})
	}
}

func TestExSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two! Three? four", []string{"One.", "Two!", "Three? four"}},
		{"Use e.g. pnpm. Then go", []string{"Use e.g. pnpm.", "Then go"}},
		{"see https://x.dev/a.b. Next", []string{"see https://x.dev/a.b.", "Next"}},
		{"- first item\n* second\n2. third\n\n", []string{"first item", "second", "third"}},
		{"Wait... What", []string{"Wait...", "What"}},
		{"It costs $3.50 today.", []string{"It costs $3.50 today."}},
		{"", nil},
	}
	for _, tc := range tests {
		if got := exSentences(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("exSentences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRuleExtractorRealTranscripts feeds the user messages of the two real
// transcripts (prose replaced by filler) through the extractor: filler
// says nothing worth remembering, so nothing may be proposed, and the
// real message shapes (pastes, long lines) must not trip it.
func TestRuleExtractorRealTranscripts(t *testing.T) {
	for _, name := range []string{"transcript-interactive-pastes.jsonl", "transcript-partial-compactions.jsonl"} {
		f, err := os.Open(filepath.Join(enginetest.RealDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var msgs []Input
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var rec struct {
				Type      string `json:"type"`
				UUID      string `json:"uuid"`
				SessionID string `json:"sessionId"`
				Timestamp string `json:"timestamp"`
				Message   struct {
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Type != "user" {
				continue
			}
			var text string
			if json.Unmarshal(rec.Message.Content, &text) != nil {
				continue
			}
			ts, _ := time.Parse(time.RFC3339Nano, rec.Timestamp)
			msgs = append(msgs, Input{SessionID: rec.SessionID, UUID: rec.UUID, Timestamp: ts, Text: text})
		}
		f.Close()
		if err := sc.Err(); err != nil || len(msgs) < 3 {
			t.Fatalf("%s: %d user messages, %v", name, len(msgs), err)
		}
		res, err := RuleExtractor{}.Extract(context.Background(), msgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Candidates)+len(res.Rejected)+len(res.Duplicates) != 0 {
			t.Errorf("%s: filler produced %+v", name, res)
		}
	}
}
