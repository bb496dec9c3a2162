package export

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/memscope/memscope/model"
)

// FuzzSessionExport feeds random transcripts (seeded with short lines in
// the real format: boundaries, summaries, pastes, tool calls, sidechains,
// hostile text) to the exporter and checks, for every format: no panic,
// valid UTF-8, no terminal controls in md and html, html made only of the
// export's own balanced tags (so every '<' from content was escaped), and
// json that decodes back to the same export. The main chain and branches
// never show a record twice, and Compactions counts the boundaries shown.
func FuzzSessionExport(f *testing.F) {
	for _, c := range fxCases {
		for _, line := range strings.Split(string(c.home()[fxHome+fxSession+".jsonl"].Data), "\n") {
			f.Add([]byte(line))
		}
	}
	cached := "pasted\ntext"
	hist := `{"display":"[Pasted text #1 +1 lines] x","pastedContents":{"1":{"id":1,"type":"text","contentHash":"` +
		string(model.HashPaste([]byte(cached))) + `"}},"timestamp":1795338060000,"project":"/p","sessionId":"s"}` + "\n"
	f.Fuzz(func(t *testing.T, data []byte) {
		home := fstest.MapFS{
			"s.jsonl":       {Data: data},
			"history.jsonl": {Data: []byte(hist)},
			"paste-cache/" + string(model.HashPaste([]byte(cached))) + ".txt": {Data: []byte(cached)},
		}
		x, err := LoadSessionExport(SessionSource{FS: home, Transcript: "s.jsonl", Home: home}, exportNow)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		boundaries := 0
		check := func(es []Entry) {
			for _, e := range es {
				if e.UUID != "" && seen[e.UUID] {
					t.Fatalf("record %q exported twice", e.UUID)
				}
				seen[e.UUID] = true
			}
		}
		check(x.Conversation)
		for _, e := range x.Conversation {
			if e.Kind == EntryBoundary {
				boundaries++
			}
		}
		for _, b := range x.Branches {
			check(b.Entries)
		}
		if boundaries != x.Compactions {
			t.Fatalf("%d boundaries shown, Compactions %d", boundaries, x.Compactions)
		}
		for _, format := range []Format{Markdown, HTML, JSON} {
			b, err := RenderSessionExport(x, format)
			if err != nil {
				t.Fatal(err)
			}
			if !utf8.Valid(b) {
				t.Fatalf("%s is not valid UTF-8", format)
			}
			switch format {
			case Markdown:
				checkNoControls(t, string(b))
			case HTML:
				checkHTML(t, string(b))
			case JSON:
				// Compared as decoded values: invalid UTF-8 in the input
				// is written as \ufffd the first time, as the character after.
				var back SessionExport
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatalf("json: %v", err)
				}
				again, _ := marshalExport(&back)
				var v1, v2 any
				if json.Unmarshal(b, &v1) != nil || json.Unmarshal(again, &v2) != nil || !reflect.DeepEqual(v1, v2) {
					t.Fatalf("json does not round-trip")
				}
			}
		}
	})
}
