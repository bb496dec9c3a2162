package scan

import (
	"math/bits"
	"sync"
)

// The secret scan of a whole home (transcripts, history, pastes…) reads
// a gigabyte or more, almost none of it secret. Go's regexp runs at a few
// MB/s on patterns without a literal prefix, so the rules cannot see every
// byte. Instead every secret rule names anchors (scanRule.anchors):
// case-sensitive literals of which each match holds one. Each anchor is
// filed under one two-byte piece of it, in a 64 Kibit table (eight
// kilobytes: it stays in the first-level cache). One pass over the raw
// bytes finds the candidate pieces (on amd64 64 bytes at a time, see
// anchors_amd64.go; else every byte pair), looks each up in the table,
// and only where the table says yes compares the anchors filed there;
// the rules then run only on the lines, and only over the strings, that
// hold one of their anchors.

// anchorRuleLimit is how many secret rules a mask can name.
const anchorRuleLimit = 64

// RuleMask is a set of secret rules, one bit per rule of SecretRules.
type RuleMask uint64

// AnchorHit is one anchor found in raw bytes: where it starts and ends,
// and the rules it may start a match of.
type AnchorHit struct {
	Start, End int
	Rules      RuleMask
}

// anchorLit is one anchor, the offset of the two bytes it is filed
// under, and the rules it belongs to.
type anchorLit struct {
	lit   string
	at    int
	rules RuleMask
}

// Anchors finds the anchors of every secret rule in raw bytes.
type Anchors struct {
	// bits has a bit set for each two-byte piece an anchor is filed under.
	bits [1 << 10]uint64
	// rank counts the pieces filed in the words of bits before each: a
	// piece's anchors are lists[its word's rank + the bits set below its
	// own in its word] (no map lookup where the table says yes).
	rank  [1 << 10]uint16
	lists [][]anchorLit
	// teddy is the candidate search's tables (anchors_amd64.go).
	teddy teddyMasks
	rules []scanRule
}

// SecretAnchors is the anchor set of the secret rules, built once.
var SecretAnchors = sync.OnceValue(func() *Anchors {
	var rules []scanRule
	var lits []string
	var masks []RuleMask
	for _, r := range scanRuleSet() {
		if r.category != CategorySecret {
			continue
		}
		if r.anchors == nil {
			panic("scan: secret rule " + string(r.id) + " has no anchors")
		}
		if len(rules) == anchorRuleLimit {
			panic("scan: more secret rules than a RuleMask holds")
		}
		bit := RuleMask(1) << len(rules)
		rules = append(rules, r)
		for _, lit := range r.anchors {
			lits, masks = append(lits, lit), append(masks, bit)
		}
	}
	a := newAnchors(lits, masks)
	a.rules = rules
	return a
})

// newAnchors files each lit for the rules of its mask.
func newAnchors(lits []string, masks []RuleMask) *Anchors {
	a := &Anchors{}
	byPair := map[uint16][]anchorLit{}
	for i, lit := range lits {
		add(byPair, lit, masks[i])
	}
	for p := range byPair {
		a.bits[p>>6] |= 1 << (p & 63)
	}
	n := 0
	for w := range a.bits {
		a.rank[w] = uint16(n)
		n += bits.OnesCount64(a.bits[w])
	}
	a.lists = make([][]anchorLit, n)
	for p, ls := range byPair {
		a.lists[a.index(p)] = ls
	}
	a.teddy = teddyFor(byPair)
	return a
}

// index is where in lists the anchors filed under piece p are (p must
// be filed).
func (a *Anchors) index(p uint16) int {
	w := a.bits[p>>6]
	return int(a.rank[p>>6]) + bits.OnesCount64(w&(1<<(p&63)-1))
}

// add files lit under its rarest-looking two bytes.
func add(byPair map[uint16][]anchorLit, lit string, rules RuleMask) {
	if len(lit) < 2 {
		panic("scan: anchor " + lit + " is shorter than two bytes")
	}
	at, best := 0, -1
	for i := 0; i+1 < len(lit); i++ {
		if s := byteRarity(lit[i]) + byteRarity(lit[i+1]); s > best {
			at, best = i, s
		}
	}
	p := uint16(lit[at])<<8 | uint16(lit[at+1])
	for i, l := range byPair[p] {
		if l.lit == lit {
			byPair[p][i].rules |= rules
			return
		}
	}
	byPair[p] = append(byPair[p], anchorLit{lit: lit, at: at, rules: rules})
}

// byteRarity ranks how seldom a byte occurs in text and code, roughly:
// lower-case letters and spaces are everywhere, upper case and digits
// less so, the punctuation of token formats least.
func byteRarity(c byte) int {
	switch {
	case c >= 'a' && c <= 'z', c == ' ':
		return 0
	case c == 'e' || c == 't' || c == 'a', c == '.' || c == ',':
		return 1
	case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return 3
	default:
		return 2
	}
}

// findFrom appends to out every anchor in b whose filed piece ends at
// byte from (at least 1) or after, in order of position; the loop of
// short inputs and processors without AVX2, and the tail of the others.
func (a *Anchors) findFrom(b []byte, from int, out []AnchorHit) []AnchorHit {
	if from >= len(b) {
		return out
	}
	bits := &a.bits
	prev := uint32(b[from-1])
	for i := from; i < len(b); i++ {
		c := uint32(b[i])
		p := (prev<<8 | c) & 0xFFFF
		prev = c
		if bits[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		out = a.verify(b, i, uint16(p), out)
	}
	return out
}

// verify appends the anchors filed under piece p, which ends at b[i],
// that b holds there.
func (a *Anchors) verify(b []byte, i int, p uint16, out []AnchorHit) []AnchorHit {
	for _, l := range a.lists[a.index(p)] {
		s := i - 1 - l.at
		// The first byte alone tells most pieces that are not anchors
		// (a timestamp's "03" is not "sk-ant-api03-") without a call.
		if s >= 0 && s+len(l.lit) <= len(b) && b[s] == l.lit[0] && string(b[s:s+len(l.lit)]) == l.lit {
			out = append(out, AnchorHit{Start: s, End: s + len(l.lit), Rules: l.rules})
		}
	}
	return out
}
