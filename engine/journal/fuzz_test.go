package journal

import (
	"encoding/json"
	"strings"
	"testing"
)

// Any bytes parse without panic; what parses validates and survives a
// rewrite; nothing is dropped silently.
func FuzzJournal(f *testing.F) {
	f.Add([]byte(`{"id":"20261122-111420.836","time":"2026-11-22T11:14:20.836Z","op":"rename","summary":"s","files":[{"path":"a.md","existed":true,"before":"aGk=","mode":420,"after":""}]}` + "\n"))
	f.Add([]byte("garbage\n{\"id\":\"x\",\"files\":[]}\n{\"id\":\"cut"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, probs := ParseEntries(Path, data)
		for _, e := range entries {
			if err := e.validate(); err != nil {
				t.Fatalf("parsed entry does not validate: %v", err)
			}
		}
		nonBlank := 0
		for _, line := range strings.Split(strings.TrimPrefix(string(data), "\ufeff"), "\n") {
			if strings.TrimSpace(strings.TrimSuffix(line, "\r")) != "" {
				nonBlank++
			}
		}
		if len(entries)+len(probs) != nonBlank {
			t.Fatalf("%d entries + %d problems for %d lines", len(entries), len(probs), nonBlank)
		}
		j, _ := Parse(Path, data)
		again, probs2 := ParseEntries(Path, j.Bytes())
		a, _ := json.Marshal(entries)
		b, _ := json.Marshal(again)
		if string(a) != string(b) || len(probs2) != len(probs) {
			t.Fatalf("rewrite changed the journal: %s vs %s, problems %d vs %d", a, b, len(probs), len(probs2))
		}
	})
}
