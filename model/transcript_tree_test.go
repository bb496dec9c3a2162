package model

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// chainLine writes one chain record; parent "" is null.
func chainLine(typ, uuid, parent string, extra string) string {
	p := "null"
	if parent != "" {
		p = fmt.Sprintf("%q", parent)
	}
	return fmt.Sprintf(`{"type":%q,"uuid":%q,"parentUuid":%s%s}`, typ, uuid, p, extra) + "\n"
}

func readString(t *testing.T, s string) *Transcript {
	t.Helper()
	tr, err := ReadTranscript(fstest.MapFS{"t.jsonl": {Data: []byte(s)}}, "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func uuids(rs []*Record) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.UUID)
	}
	return strings.Join(out, " ")
}

func TestTranscriptTreeRewindAndSidechain(t *testing.T) {
	// u1 → a1 → u2 → a2, then a rewind to a1: u2b → a2b. A Task subagent
	// hangs off a2b as a sidechain of three records.
	s := chainLine("user", "u1", "", "") +
		chainLine("assistant", "a1", "u1", "") +
		chainLine("user", "u2", "a1", "") +
		chainLine("assistant", "a2", "u2", "") +
		chainLine("user", "u2b", "a1", "") +
		chainLine("assistant", "a2b", "u2b", "") +
		chainLine("user", "s1", "a2b", `,"isSidechain":true,"agentId":"ag1"`) +
		chainLine("assistant", "s2", "s1", `,"isSidechain":true,"agentId":"ag1"`) +
		chainLine("user", "s3", "s2", `,"isSidechain":true,"agentId":"ag1"`) +
		`{"type":"last-prompt","lastPrompt":"second try","leafUuid":"a2b"}` + "\n" +
		`{"type":"api-request-blob","message":{"content":"big"}}` + "\n"
	tr := readString(t, s)
	if len(tr.Records) != 10 {
		t.Errorf("kept %d records, want 10 (the blob is only counted)", len(tr.Records))
	}
	if tr.Summary.Types["api-request-blob"] != 1 {
		t.Errorf("blob not counted: %v", tr.Summary.Types)
	}
	br := tr.Branches()
	if len(br) != 1 || br[0].Parent.UUID != "a1" || uuids(br[0].Children) != "u2 u2b" {
		t.Errorf("branches %+v", br)
	}
	sc := tr.Sidechains()
	if len(sc) != 1 || sc[0].Root.UUID != "s1" || sc[0].AgentID != "ag1" || sc[0].Records != 3 {
		t.Errorf("sidechains %+v", sc)
	}
	lp := tr.LastPrompt()
	if lp == nil || lp.LeafUUID != "a2b" || lp.LastPrompt != "second try" {
		t.Errorf("last prompt %+v", lp)
	}
	chain, end := tr.Chain(lp.LeafUUID)
	if uuids(chain) != "u1 a1 u2b a2b" || end != ChainRoot {
		t.Errorf("chain %q end %s", uuids(chain), end)
	}
	if n := tr.NewestChainRecord(); n == nil || n.UUID != "a2b" {
		t.Errorf("newest non-sidechain %+v", n)
	}
}

func TestTranscriptChainEnds(t *testing.T) {
	cases := []struct {
		name, in, leaf, chain string
		end                   ChainEnd
	}{
		{"missing parent", chainLine("user", "b", "gone", "") + chainLine("user", "c", "b", ""), "c", "b c", ChainMissingParent},
		{"cycle", chainLine("user", "x", "y", "") + chainLine("user", "y", "x", ""), "x", "y x", ChainCycle},
		{"self loop", chainLine("user", "x", "x", ""), "x", "x", ChainCycle},
		{"no leaf", chainLine("user", "x", "", ""), "nope", "", ChainNoLeaf},
		{"boundary stops", chainLine("user", "old", "", "") +
			chainLine("system", "b", "", `,"subtype":"compact_boundary","logicalParentUuid":"old"`) +
			chainLine("user", "sum", "b", `,"isCompactSummary":true`), "sum", "b sum", ChainRoot},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := readString(t, c.in)
			chain, end := tr.Chain(c.leaf)
			if uuids(chain) != c.chain || end != c.end {
				t.Errorf("chain %q end %s, want %q %s", uuids(chain), end, c.chain, c.end)
			}
		})
	}
}

func TestTranscriptDuplicatesAndLegacySummary(t *testing.T) {
	s := chainLine("user", "u1", "", `,"message":{"content":"first"}`) +
		chainLine("user", "u1", "", `,"message":{"content":"again"}`) +
		`{"type":"summary","summary":"Fixing the login bug","leafUuid":"u1"}` + "\n"
	tr := readString(t, s)
	if len(tr.DuplicateUUIDs) != 1 || tr.Get("u1").Line != 1 {
		t.Errorf("duplicates %v, indexed line %d", tr.DuplicateUUIDs, tr.Get("u1").Line)
	}
	ls := tr.LegacySummaries()
	if len(ls) != 1 || ls[0].Summary != "Fixing the login bug" || ls[0].LeafUUID != "u1" {
		t.Errorf("legacy summaries %+v", ls)
	}
	if len(tr.Branches()) != 0 {
		t.Errorf("a duplicate line must not look like a rewind: %+v", tr.Branches())
	}
}

// Expected chains were computed with Python over the same files.
func TestTranscriptTreeReal(t *testing.T) {
	cases := []struct {
		file, leaf, root string
		chain, kept      int
	}{
		{"transcript-partial-compactions.jsonl", "e8b83a07-cc30-47e0-aed3-e0bce2d9ca5a", "fbefccd4-8fb3-4f3e-b7b7-259b07c9b4e7", 18, 51 + 6},
		{"transcript-interactive-pastes.jsonl", "206ef6e0-ea06-4755-9718-192aa506bb26", "55629524-62ec-492b-a2f2-17b735401876", 21, 21 + 2},
	}
	for _, c := range cases {
		tr, err := ReadTranscript(os.DirFS("testdata/transcripts"), c.file)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Records) != c.kept {
			t.Errorf("%s: kept %d, want %d chain + last-prompt records", c.file, len(tr.Records), c.kept)
		}
		lp := tr.LastPrompt()
		if lp == nil || lp.LeafUUID != c.leaf {
			t.Fatalf("%s: last prompt %+v", c.file, lp)
		}
		chain, end := tr.Chain(lp.LeafUUID)
		if len(chain) != c.chain || chain[0].UUID != c.root || end != ChainRoot {
			t.Errorf("%s: chain of %d from %s (%s)", c.file, len(chain), chain[0].UUID, end)
		}
		if len(tr.Branches()) != 0 || len(tr.Sidechains()) != 0 {
			t.Errorf("%s: unexpected branches/sidechains", c.file)
		}
	}
}
