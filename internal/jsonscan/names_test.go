package jsonscan

import (
	"fmt"
	"slices"
	"testing"
)

// namesCases are sets a Names must answer as a map does: empty, one
// name, the empty name, names alike but for a byte in the middle (same
// length, first and last bytes) and many generated ones.
func namesCases() [][]string {
	var many []string
	for i := range 3000 {
		many = append(many, fmt.Sprintf("k%dx", i))
	}
	return [][]string{
		nil,
		{"type"},
		{""},
		{"aXb", "aYb", "aZb", "a", "ab", "abc", "abcd"},
		{"type", "version", "attachment", "message", "uuid", "parentUuid", "timestamp", "sessionId", "toolUseResult", "subtype"},
		many,
	}
}

func TestNamesAnswersAsAMap(t *testing.T) {
	for _, names := range namesCases() {
		n := NewNames(names...)
		set := map[string]bool{}
		for _, s := range names {
			set[s] = true
		}
		if n.Len() != len(set) {
			t.Fatalf("Len %d, want %d", n.Len(), len(set))
		}
		sorted := slices.Sorted(func(yield func(string) bool) {
			for s := range set {
				if !yield(s) {
					return
				}
			}
		})
		for i, s := range sorted {
			if got := n.Index([]byte(s)); got != i || n.Name(i) != s {
				t.Fatalf("Index(%q) = %d, Name = %q; want %d", s, got, n.Name(i), i)
			}
		}
		for _, s := range []string{"", "x", "typ", "types", "Type", "aWb", "k3000x", "k12y", "versionversionversion"} {
			if got := n.Has([]byte(s)); got != set[s] {
				t.Errorf("%d names: Has(%q) = %v, want %v", len(names), s, got, set[s])
			}
		}
	}
}

func TestNamesLookUpAllocatesNothing(t *testing.T) {
	n := NewNames("type", "version", "attachment")
	key := []byte("version")
	if a := testing.AllocsPerRun(100, func() { n.Has(key) }); a != 0 {
		t.Fatalf("%v allocations a look-up", a)
	}
}

func FuzzNames(f *testing.F) {
	f.Add("type", "version", "typf")
	f.Add("", "a", "")
	f.Add("aXb", "aYb", "aZb")
	f.Fuzz(func(t *testing.T, a, b, q string) {
		n := NewNames(a, b)
		if got, want := n.Has([]byte(q)), q == a || q == b; got != want {
			t.Fatalf("NewNames(%q, %q).Has(%q) = %v, want %v", a, b, q, got, want)
		}
	})
}
