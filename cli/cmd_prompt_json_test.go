package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// rawObject decodes one JSON object keeping its values raw, so a test can
// see which keys are present and whether a value is null.
func rawObject(t *testing.T, data []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, data)
	}
	return m
}

func rawArray(t *testing.T, data json.RawMessage) []json.RawMessage {
	t.Helper()
	var a []json.RawMessage
	if err := json.Unmarshal(data, &a); err != nil || a == nil {
		t.Fatalf("not a JSON array: %v\n%s", err, data)
	}
	return a
}

// requireKeys fails unless obj has every key; arrays must be arrays, not
// null, so scripts can iterate without a check.
func requireKeys(t *testing.T, where string, obj map[string]json.RawMessage, keys []string, arrays ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			have := make([]string, 0, len(obj))
			for h := range obj {
				have = append(have, h)
			}
			sort.Strings(have)
			t.Errorf("%s lacks %q (has %v)", where, k, have)
		}
	}
	for _, k := range arrays {
		if v := strings.TrimSpace(string(obj[k])); !strings.HasPrefix(v, "[") {
			t.Errorf("%s.%s = %s, want an array", where, k, v)
		}
	}
}

// TestPromptJSONFieldNames checks the field names issue 3 lists on the raw
// JSON (a renamed field would otherwise decode as a zero value), for a
// full project and for an empty one.
func TestPromptJSONFieldNames(t *testing.T) {
	home, proj := promptFixture(t)
	empty := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		layers   bool
		recalled bool
	}{
		{"full", []string{"--home", home, "--project", proj, "--query", "deploy on friday"}, true, true},
		{"empty project, memory off", []string{"--home", filepath.Join(empty, "home"), "--project", empty, "--bare"}, false, false},
	}
	if err := os.MkdirAll(filepath.Join(empty, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, out, errb := testEnv(t)
			if code := run(e, append([]string{"prompt", "--json"}, tt.args...)); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			top := rawObject(t, out.Bytes())
			requireKeys(t, "top", top, []string{"project", "memoryDir", "layers", "memoryIndex", "recalled", "missingImports", "conditionalRules", "text"},
				"layers", "recalled", "missingImports", "conditionalRules")
			layers := rawArray(t, top["layers"])
			if (len(layers) > 0) != tt.layers {
				t.Errorf("%d layers", len(layers))
			}
			for i, l := range layers {
				requireKeys(t, fmt.Sprintf("layers[%d]", i), rawObject(t, l), []string{"kind", "path", "chars", "tokens", "truncated", "reason"})
			}
			ix := rawObject(t, top["memoryIndex"])
			requireKeys(t, "memoryIndex", ix, []string{"lines", "chars", "loadedLines", "loadedChars", "truncated", "warning", "droppedEntries"}, "droppedEntries")
			recalled := rawArray(t, top["recalled"])
			if (len(recalled) > 0) != tt.recalled {
				t.Errorf("%d recalled", len(recalled))
			}
			for _, r := range recalled {
				requireKeys(t, "recalled[]", rawObject(t, r), []string{"file", "score", "ageDays", "freshnessWarning"})
			}
		})
	}
}
