package ledger

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// inputSeeds are tool inputs of every shape: objects with escapes,
// repeated and odd names, nested values, and values that are not
// objects or not JSON.
var inputSeeds = []string{
	`{"file_path":"/a/b.go"}`,
	`{"command":"go test ./...\n","description":"run"}`,
	`{"file_path":"/a","file_path":"/b"}`,
	`{"file\u005fpath":"/esc","n":1,"o":{"x":[1,2]},"z":null}`,
	`{"todos":[{"content":"a","status":"pending"}]}`,
	` { "a" : "b" } `,
	`{"a":"\ud800"}`,
	`[1,2]`, `"str"`, `null`, `{`, `{"a":}`, ``, `{"a":"b"}x`,
}

// FuzzInputMembers holds inputMembers to json.Unmarshal into a
// map[string]json.RawMessage, and toolUse.str to json.Unmarshal into a
// string, on any input.
func FuzzInputMembers(f *testing.F) {
	for _, s := range inputSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var want map[string]json.RawMessage
		if json.Unmarshal([]byte(input), &want) != nil {
			want = nil
		}
		var js jsonscan.Scanner
		got := inputMembers(&js, input)
		if json.Valid([]byte(input)) && strings.TrimSpace(input) == input {
			// A value as the model's reader keeps it (checked, no white
			// space around): the home's walk reads the same members.
			if read := checkedInputMembers(input); !reflect.DeepEqual(read, got) {
				t.Fatalf("%q: members of the checked input %q, want %q", input, read, got)
			}
		}
		if want == nil && len(got) == 0 {
			return // null is a nil map for json, an empty one here: both read nothing
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: members %q, want %q", input, got, want)
		}
		for k, raw := range want {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				s = ""
			}
			if g := (toolUse{input: got}).str(k); g != s {
				t.Fatalf("%q: str(%q) = %q, want %q", input, k, g, s)
			}
		}
	})
}

// TestHomeChecksNoInputAgain: the home's ledger reads each tool input
// (a value of a line the model's reader checked) without checking it
// again; Build, given any transcript, still checks them. On main every
// input was checked twice (with the counter alone added there: 7 checks).
func TestHomeChecksNoInputAgain(t *testing.T) {
	dir, name := writeHome(t, false)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"tool_use"`) {
		t.Fatal("the session has no tool call: the test proves nothing")
	}
	before := inputChecks.Load()
	if ss, _ := Home(model.DirFS(dir), dir, nil); len(ss) != 1 || ss[0].Boundaries[0].Had[KindFile] == 0 {
		t.Fatalf("sessions = %+v", ss)
	}
	if n := inputChecks.Load() - before; n != 0 {
		t.Errorf("the home's ledger checked %d tool inputs again, want 0", n)
	}
	Build(readTestdata(t, "rules-session.jsonl"))
	if inputChecks.Load() == before {
		t.Error("Build checked no input: the counter counts nothing")
	}
}

// TestLargestFirst: the work order is by size, largest first, ties in
// their place; it is a permutation of miss's positions.
func TestLargestFirst(t *testing.T) {
	files := []model.TranscriptFile{{Size: 5}, {Size: 100}, {Size: 7}, {Size: 100}, {Size: 1}}
	got := largestFirst(files, []int{0, 1, 2, 3, 4})
	if want := []int{1, 3, 2, 0, 4}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if got := largestFirst(files, []int{4, 2, 0}); !reflect.DeepEqual(got, []int{1, 2, 0}) {
		t.Errorf("order of a subset %v, want [1 2 0] (positions in miss)", got)
	}
}
