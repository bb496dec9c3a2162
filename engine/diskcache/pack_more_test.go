package diskcache

import (
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// ownedNames is names unpacked with StartOwned: its strings are slices
// of the payload Load hands Unpack.
type ownedNames []string

func (n ownedNames) Pack() []byte { return names(n).Pack() }

// Unpack is names' Unpack on an Unpacker started with StartOwned (a
// damaged form leaves part of a value: the test loads none).
func (n *ownedNames) Unpack(b []byte) error {
	var u Unpacker
	u.StartOwned(b, 7)
	*n = make(ownedNames, u.Count(1))
	for i := range *n {
		(*n)[i] = u.Str()
	}
	return u.Done()
}

// TestLoadHandsUnpackAPayloadOfItsOwn: what StartOwned relies on. A
// value loaded keeps its strings while the file is written again and
// loaded again, and while other files are loaded: each Load reads into
// a buffer no later Load reuses (a pooled read buffer would change the
// first value's strings under it; stat's cache unpacks this way).
func TestLoadHandsUnpackAPayloadOfItsOwn(t *testing.T) {
	s := newStore(t, model.OSWriteFS{})
	first := ownedNames{strings.Repeat("a", 300), "projects/p/x.jsonl"}
	if err := Save(s, "names.1", "n", first); err != nil {
		t.Fatal(err)
	}
	got, ok := Load[ownedNames](s, "names.1", "n")
	if !ok || got[0] != first[0] || got[1] != first[1] {
		t.Fatalf("loaded %q (ok %v)", got, ok)
	}
	for i, v := range []ownedNames{{strings.Repeat("b", 300), "projects/q/y.jsonl"}, {strings.Repeat("c", 300), "zzzzzzzzzzzzzzzzzz"}} {
		name := []string{"n", "m"}[i]
		if err := Save(s, "names.1", name, v); err != nil {
			t.Fatal(err)
		}
		if again, ok := Load[ownedNames](s, "names.1", name); !ok || again[1] != v[1] {
			t.Fatalf("loaded %q (ok %v), want %q", again, ok, v)
		}
	}
	if got[0] != first[0] || got[1] != first[1] {
		t.Errorf("the first value's strings changed under it: %.20q…, %q", got[0], got[1])
	}
	// The problems' pair reads back what it wrote, none as nil.
	for _, probs := range [][]model.Problem{nil, {{File: "f", Line: 3, Kind: model.ProblemMalformed, Reason: "ü"}, {}}} {
		p := Packer{B: []byte{1}}
		p.Problems(probs)
		var u Unpacker
		u.Start(p.B, 1)
		back := u.Problems()
		if u.Done() != nil || len(back) != len(probs) || (probs == nil) != (back == nil) || len(probs) > 0 && back[0] != probs[0] {
			t.Errorf("problems %+v read back as %+v", probs, back)
		}
	}
}
