package cli

import (
	"encoding/json"
	"sort"
	"testing"
)

// missingKeys lists the keys of want that obj (a JSON object) lacks.
func missingKeys(obj map[string]json.RawMessage, want ...string) []string {
	var out []string
	for _, k := range want {
		if _, ok := obj[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// The field names issue 4 lists for `replay --json`, checked on the raw
// JSON so a renamed field cannot hide behind a zero value.
func TestReplayJSONFieldNames(t *testing.T) {
	e, out, errb := testEnv(t)
	if code := run(e, []string{"replay", realPartialCompactions, "--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	if m := missingKeys(top, "session", "records", "boundaries", "resume", "branches", "sidechains", "turns"); m != nil {
		t.Errorf("top level lacks %v", m)
	}
	var bs, ts []map[string]json.RawMessage
	var res map[string]json.RawMessage
	if json.Unmarshal(top["boundaries"], &bs) != nil || json.Unmarshal(top["turns"], &ts) != nil || json.Unmarshal(top["resume"], &res) != nil || len(bs) == 0 || len(ts) == 0 {
		t.Fatalf("boundaries %s turns %s resume %s", top["boundaries"], top["turns"], top["resume"])
	}
	for _, b := range bs {
		if m := missingKeys(b, "uuid", "kind", "timestamp", "trigger", "preTokens", "postTokens"); m != nil {
			t.Errorf("boundary lacks %v", m)
		}
	}
	for _, tu := range ts {
		if m := missingKeys(tu, "uuid", "contextTokens"); m != nil {
			t.Errorf("turn lacks %v", m)
		}
	}
	if m := missingKeys(res, "leaf", "messages", "fromBoundary", "fallback"); m != nil {
		t.Errorf("resume lacks %v", m)
	}
}

// realPartialCompactions is testdata/home's byte-identical copy of the
// real transcript model/testdata/transcripts/transcript-partial-compactions.jsonl.
const realPartialCompactions = "../testdata/home/projects/-tmp-rc-work-beta/fedcb1e2-dbe4-5555-90b5-52df88de5bed.jsonl"
