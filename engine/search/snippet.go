package search

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/model"
)

// The snippet shows the match on its line with some context: at most
// snippetBefore characters before it and snippetAfter after it (less when
// the line ends), a match cut to snippetMatch characters, and "…" where
// the line goes on. Secrets the scanner finds within secretMargin bytes
// of the match are masked, so a search cannot print a key on a shared
// screen: the scan looks that far around so that a secret cut by the
// snippet's edge is still recognised whole.
const (
	snippetBefore = 40
	snippetAfter  = 80
	snippetMatch  = 120
	secretMargin  = 1024
)

// Ellipsis marks text cut from a snippet.
const Ellipsis = "…"

// newlineMark shows a line break inside a snippet.
const newlineMark = "⏎"

// makeSnippet cuts the text around text[start:end] (a match) and returns
// it with the match's byte range in it; the secrets sec finds in text
// are masked (nil masks none).
func makeSnippet(text string, start, end int, sec *textSecrets) (string, [2]int) {
	ws := start
	for n := 0; ws > 0 && n < snippetBefore; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:ws])
		if text[ws-size] == '\n' {
			break
		}
		ws -= size
	}
	atLineStart := ws == 0 || text[ws-1] == '\n'
	for atLineStart && ws < start && (text[ws] == ' ' || text[ws] == '\t') {
		ws++ // indentation says nothing on a snippet's one line
	}
	me := end
	if cut := runeOffset(text[start:end], snippetMatch); cut < end-start {
		me = start + cut
	}
	we := me
	for n := 0; we < len(text) && n < snippetAfter; n++ {
		if text[we] == '\n' {
			break
		}
		_, size := utf8.DecodeRuneInString(text[we:])
		we += size
	}
	var spans []scan.SecretSpan
	if sec != nil {
		spans = sec.around(text, ws, we)
	}
	// No secret may straddle an edge of the match or of the snippet:
	// the edges move out to the secret's, which is masked whole.
	ms := start
	for _, sp := range spans {
		if sp.Start < ms && ms < sp.End {
			ms = sp.Start
		}
		if sp.Start < me && me < sp.End {
			me = sp.End
		}
		if sp.Start < we && we < sp.End {
			we = sp.End
		}
	}
	var b strings.Builder
	if !atLineStart {
		b.WriteString(Ellipsis)
	}
	write := func(from, to int) {
		for len(spans) > 0 && spans[0].End <= from {
			spans = spans[1:] // inside a match that was cut
		}
		for len(spans) > 0 && spans[0].Start < to {
			sp := spans[0]
			b.WriteString(clean(text[from:max(sp.Start, from)]))
			b.WriteString("[secret: " + sp.Excerpt + "]")
			from = sp.End
			spans = spans[1:]
		}
		if from < to {
			b.WriteString(clean(text[from:to]))
		}
	}
	var m [2]int
	write(ws, ms)
	m[0] = b.Len()
	write(ms, me)
	if me < end {
		b.WriteString(Ellipsis)
	}
	m[1] = b.Len()
	write(max(me, end), max(we, end))
	if we < len(text) && text[we] != '\n' {
		b.WriteString(Ellipsis)
	}
	return b.String(), m
}

// textSecrets finds the secrets around the snippets of one text. Every
// secret rule's match holds one of its anchors: a window without any
// (most snippets) has no secret, found in one pass instead of every
// rule's (a many-hit search spent half its time here). A text with
// many snippets (a tool result saved to a file, a hit on most of its
// lines) has its anchors found once, in one pass over it (indexed),
// instead of once for each snippet's window, which overlap: two
// windows of 2 KiB and more for each line of 60 bytes was a tenth of
// `parser|reader|writer`.
type textSecrets struct {
	// indexed says hits are every anchor of the text.
	indexed bool
	hits    []scan.AnchorHit
}

// index finds every anchor of text once, when its snippets' windows
// together are longer than it (n snippets).
func (s *textSecrets) index(text string, n int) {
	if n*2*secretMargin > len(text) {
		s.indexed, s.hits = true, scan.SecretAnchors().Find(stringBytes(text), nil)
		// Find gives them in the order of the byte pair each is filed
		// under: by their starts, a window's are found by a search.
		slices.SortFunc(s.hits, func(a, b scan.AnchorHit) int { return a.Start - b.Start })
	}
}

// anchorIn reports whether text[rs:re] holds a secret rule's anchor
// (whole: Find over text[rs:re] finds exactly the anchors that lie
// inside it).
func (s *textSecrets) anchorIn(text string, rs, re int) bool {
	if !s.indexed {
		return len(scan.SecretAnchors().Find(stringBytes(text[rs:re]), nil)) > 0
	}
	i, _ := slices.BinarySearchFunc(s.hits, rs, func(h scan.AnchorHit, at int) int { return h.Start - at })
	for ; i < len(s.hits) && s.hits[i].Start < re; i++ {
		if s.hits[i].End <= re {
			return true
		}
	}
	return false
}

// around lists the secrets that overlap text[ws:we], found by scanning
// secretMargin bytes around it, clipped to start no earlier than ws (a
// secret that begins before the snippet is masked from its edge).
func (s *textSecrets) around(text string, ws, we int) []scan.SecretSpan {
	rs, re := max(ws-secretMargin, 0), min(we+secretMargin, len(text))
	for rs > 0 && !utf8.RuneStart(text[rs]) {
		rs--
	}
	for re < len(text) && !utf8.RuneStart(text[re]) {
		re++
	}
	if !s.anchorIn(text, rs, re) {
		return nil
	}
	var out []scan.SecretSpan
	for _, sp := range scan.SecretSpans(text[rs:re]) {
		sp.Start += rs
		sp.End += rs
		if sp.End <= ws || sp.Start >= we {
			continue
		}
		sp.Start = max(sp.Start, ws)
		out = append(out, sp)
	}
	return out
}

// clean makes text fit one row of a terminal: line breaks shown as ⏎,
// tabs as spaces, carriage returns dropped, terminal controls removed.
func clean(s string) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = snippetReplacer.Replace(s)
	}
	return model.SanitizeForTerminal(s)
}

var snippetReplacer = strings.NewReplacer("\r\n", newlineMark, "\n", newlineMark, "\r", "", "\t", " ")

// runeOffset is the byte offset of the n-th rune of s (len(s) when s is
// shorter).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}
