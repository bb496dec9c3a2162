package export

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/memscope/memscope/model"
)

// pasteMatcher marks and expands pastes in a session's user messages.
// The client writes the prompt to the transcript with pastes expanded and
// to history.jsonl with "[Pasted text #N +M lines]" placeholders, so a
// message is matched with its history line either way: its text equals
// the history display with the pastes expanded (the paste is then marked
// where it sits), or the display itself (the paste is then expanded from
// the history line or the paste cache, as the History pane does).
type pasteMatcher struct {
	byDisplay  map[string]*model.HistoryEntry
	byExpanded map[string]expandedPrompt
	pastes     PasteResolver
	resolved   map[model.PasteHash]model.PasteResolution
}

// expandedPrompt is a history display with its text pastes expanded, and
// where each paste sits in it.
type expandedPrompt struct {
	text  string
	spans []pasteSpan
}

type pasteSpan struct {
	start, end int
	paste      Paste
}

func newPasteMatcher(history []*model.HistoryEntry, session, cwd string, pastes PasteResolver) *pasteMatcher {
	pm := &pasteMatcher{byDisplay: map[string]*model.HistoryEntry{}, byExpanded: map[string]expandedPrompt{},
		pastes: pastes, resolved: map[model.PasteHash]model.PasteResolution{}}
	for _, e := range history {
		if e == nil || string(e.SessionID) != session && (e.SessionID != "" || e.Project != cwd || cwd == "") {
			continue
		}
		refs := e.Placeholders()
		if len(refs) == 0 {
			continue
		}
		key := strings.TrimSpace(e.Display)
		if _, dup := pm.byDisplay[key]; !dup {
			pm.byDisplay[key] = e
		}
		if x, ok := pm.expand(e, refs); ok {
			k := strings.TrimSpace(x.text)
			if _, dup := pm.byExpanded[k]; !dup {
				pm.byExpanded[k] = x
			}
		}
	}
	return pm
}

// leadingSpace is the length of the white space TrimSpace takes off the
// front of s: the shift between a trimmed match and its spans.
func leadingSpace(s string) int {
	return len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace))
}

// clamp keeps i within [lo, hi], so a match that is off by trimmed white
// space still cuts the text in order and inside it.
func clamp(i, lo, hi int) int {
	return max(lo, min(i, hi))
}

// splitSpans cuts text at the pastes of x, which sits at offset off.
func splitSpans(text string, off int, x expandedPrompt) []Block {
	var out []Block
	last := 0
	for _, s := range x.spans {
		start := clamp(off+s.start, last, len(text))
		out = appendText(out, text[last:start])
		p := s.paste
		out = append(out, Block{Kind: BlockKindPaste, Paste: &p})
		last = clamp(off+s.end, start, len(text))
	}
	return appendText(out, text[last:])
}

// placeholderRefs are the text paste placeholders of a message that
// matched no history line.
func placeholderRefs(text string) []model.PlaceholderRef {
	var out []model.PlaceholderRef
	for _, ph := range model.ParsePlaceholders(text) {
		if ph.Kind != model.PlaceholderImage {
			out = append(out, model.PlaceholderRef{Placeholder: ph})
		}
	}
	return out
}

// appendText adds text as blocks, with <pasted_content> tags marked.
func appendText(out []Block, text string) []Block {
	if text == "" {
		return out
	}
	return append(out, splitPasteTags(text)...)
}

// The tags the client puts around pasted text inside a message.
const (
	pasteTagOpen  = `<pasted_content id="`
	pasteTagClose = `</pasted_content id="`
)

// splitPasteTags marks text between <pasted_content id="x"> and
// </pasted_content id="x"> as pastes. An unclosed tag is left as text.
func splitPasteTags(text string) []Block {
	var out []Block
	for {
		i := strings.Index(text, pasteTagOpen)
		if i < 0 {
			break
		}
		idEnd := strings.Index(text[i+len(pasteTagOpen):], `">`)
		if idEnd < 0 {
			break
		}
		id := text[i+len(pasteTagOpen) : i+len(pasteTagOpen)+idEnd]
		bodyStart := i + len(pasteTagOpen) + idEnd + 2
		closing := pasteTagClose + id + `">`
		j := strings.Index(text[bodyStart:], closing)
		if j < 0 || strings.Contains(id, `"`) {
			break
		}
		if i > 0 {
			out = append(out, Block{Kind: BlockKindText, Text: text[:i]})
		}
		body := text[bodyStart : bodyStart+j]
		out = append(out, Block{Kind: BlockKindPaste, Paste: &Paste{ID: id, Origin: PasteFromTag,
			Lines: strings.Count(body, "\n"), Text: body}})
		text = text[bodyStart+j+len(closing):]
	}
	if text != "" {
		out = append(out, Block{Kind: BlockKindText, Text: text})
	}
	return out
}

// expand replaces the resolvable text placeholders of e's display with
// their text. ok is false when none could be.
func (pm *pasteMatcher) expand(e *model.HistoryEntry, refs []model.PlaceholderRef) (expandedPrompt, bool) {
	var b strings.Builder
	var x expandedPrompt
	last := 0
	for _, ref := range refs {
		p := pm.resolve(ref)
		if p.Origin == PasteUnresolved || ref.Kind == model.PlaceholderImage {
			continue
		}
		b.WriteString(e.Display[last:ref.Start])
		x.spans = append(x.spans, pasteSpan{start: b.Len(), end: b.Len() + len(p.Text), paste: p})
		b.WriteString(p.Text)
		last = ref.End
	}
	if len(x.spans) == 0 {
		return x, false
	}
	b.WriteString(e.Display[last:])
	x.text = b.String()
	return x, true
}

// resolve finds the text of one placeholder: inline in the history line,
// else through the paste cache.
func (pm *pasteMatcher) resolve(ref model.PlaceholderRef) Paste {
	p := Paste{ID: strconv.Itoa(int(ref.ID)), Placeholder: ref.Placeholder.String(), Origin: PasteUnresolved, Lines: ref.Lines}
	switch {
	case ref.Kind == model.PlaceholderImage:
		p.Reason = "an image paste; its content is not kept as text"
	case ref.Paste == nil:
		p.Reason = fmt.Sprintf("the history line has no pastedContents #%d", ref.ID)
	case ref.Paste.Kind == model.PasteImage:
		p.Reason = "an image paste; its content is not kept as text"
	case ref.Paste.Inline:
		p.Origin, p.Text = PasteFromHistory, ref.Paste.Content
	case ref.Paste.Hash == "":
		p.Reason = "the history line has neither content nor contentHash"
	default:
		res, ok := pm.resolved[ref.Paste.Hash]
		if !ok {
			res = model.PasteResolution{Hash: ref.Paste.Hash, Status: model.PasteMissing, Reason: "no paste cache to read"}
			if pm.pastes != nil {
				res = pm.pastes.Resolve(ref.Paste.Hash)
			}
			pm.resolved[ref.Paste.Hash] = res
		}
		p.Hash, p.Status, p.File = res.Hash, res.Status, res.Path
		switch res.Status {
		case model.PasteOK, model.PasteHashMismatch:
			p.Origin, p.Text = PasteFromCache, res.Content
			p.Reason = res.Reason
		default:
			p.Reason = res.Reason
			if res.Status == model.PasteMissing {
				p.Reason = fmt.Sprintf("%s is gone (the paste cache is swept after cleanupPeriodDays)", res.Path)
			}
		}
	}
	if p.Origin != PasteUnresolved {
		p.Lines = strings.Count(p.Text, "\n")
	}
	return p
}

// split turns a user message's text into text and paste blocks.
func (pm *pasteMatcher) split(text string) []Block {
	key := strings.TrimSpace(text)
	if x, ok := pm.byExpanded[key]; ok && key != "" {
		return splitSpans(text, strings.Index(text, key)-leadingSpace(x.text), x)
	}
	if e, ok := pm.byDisplay[key]; ok && key != "" {
		return pm.splitPlaceholders(text, strings.Index(text, key)-leadingSpace(e.Display), e.Placeholders())
	}
	if refs := placeholderRefs(text); len(refs) > 0 {
		return pm.splitPlaceholders(text, 0, refs)
	}
	return splitPasteTags(text)
}

// splitPlaceholders replaces the placeholders of text (whose refs are
// relative to offset off) with paste blocks, expanded where possible.
func (pm *pasteMatcher) splitPlaceholders(text string, off int, refs []model.PlaceholderRef) []Block {
	var out []Block
	last := 0
	for _, ref := range refs {
		start := clamp(off+ref.Start, last, len(text))
		out = appendText(out, text[last:start])
		p := pm.resolve(ref)
		if p.Origin == PasteUnresolved && ref.Paste == nil && ref.Kind != model.PlaceholderImage {
			p.Reason = "no history line of this session holds this prompt"
		}
		out = append(out, Block{Kind: BlockKindPaste, Paste: &p})
		last = clamp(off+ref.End, start, len(text))
	}
	return appendText(out, text[last:])
}
