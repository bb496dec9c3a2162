package scan

import "sync"

// The secret scan of a whole home (transcripts, history, pastes…) reads
// a gigabyte or more, almost none of it secret. Go's regexp runs at a few
// MB/s on patterns without a literal prefix, so the rules cannot see every
// byte. Instead every secret rule names anchors (scanRule.anchors):
// case-sensitive literals of which each match holds one. One pass over
// the raw bytes looks for any two-byte piece of an anchor in a 64 Kibit
// table (eight kilobytes: it stays in the first-level cache), and only
// where the table says yes compares the anchors that have that piece;
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
	// byPair lists the anchors filed under each piece.
	byPair map[uint16][]anchorLit
	rules  []scanRule
}

// SecretAnchors is the anchor set of the secret rules, built once.
var SecretAnchors = sync.OnceValue(func() *Anchors {
	a := &Anchors{byPair: map[uint16][]anchorLit{}}
	for _, r := range scanRuleSet() {
		if r.category != CategorySecret {
			continue
		}
		if r.anchors == nil {
			panic("scan: secret rule " + string(r.id) + " has no anchors")
		}
		if len(a.rules) == anchorRuleLimit {
			panic("scan: more secret rules than a RuleMask holds")
		}
		bit := RuleMask(1) << len(a.rules)
		a.rules = append(a.rules, r)
		for _, lit := range r.anchors {
			a.add(lit, bit)
		}
	}
	return a
})

// add files lit under its rarest-looking two bytes.
func (a *Anchors) add(lit string, rules RuleMask) {
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
	for i, l := range a.byPair[p] {
		if l.lit == lit {
			a.byPair[p][i].rules |= rules
			return
		}
	}
	a.bits[p>>6] |= 1 << (p & 63)
	a.byPair[p] = append(a.byPair[p], anchorLit{lit: lit, at: at, rules: rules})
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

// Find appends to out every anchor in b, in order of position, and
// returns it. Overlapping anchors are all reported.
func (a *Anchors) Find(b []byte, out []AnchorHit) []AnchorHit {
	if len(b) < 2 {
		return out
	}
	bits := &a.bits
	prev := uint32(b[0])
	for i := 1; i < len(b); i++ {
		c := uint32(b[i])
		p := (prev<<8 | c) & 0xFFFF
		prev = c
		if bits[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, l := range a.byPair[uint16(p)] {
			s := i - 1 - l.at
			if s >= 0 && s+len(l.lit) <= len(b) && string(b[s:s+len(l.lit)]) == l.lit {
				out = append(out, AnchorHit{Start: s, End: s + len(l.lit), Rules: l.rules})
			}
		}
	}
	return out
}
