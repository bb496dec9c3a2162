package export

import (
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/timeline"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// exportClean makes untrusted transcript text safe to put in a document a
// person may also print in a terminal: escape sequences and control
// characters go, bidi controls become visible, invalid UTF-8 becomes
// U+FFFD. HTML and Markdown escaping come on top of it.
func exportClean(s string) string { return model.SanitizeForTerminal(s) }

// exportTime formats a time for people: UTC, to the second.
func exportTime(t time.Time) string {
	if t.IsZero() {
		return "unknown time"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// groupDigits writes n with thousands separators: 1234567 → "1,234,567".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// exportUsageLine is a usage in words: "input 3 · output 12 · cache read 9 ·
// cache write 4".
func exportUsageLine(u model.Usage) string {
	return "input " + groupDigits(u.InputTokens) + " · output " + groupDigits(u.OutputTokens) +
		" · cache read " + groupDigits(u.CacheReadInputTokens) + " · cache write " + groupDigits(u.CacheCreationInputTokens)
}

// responsesLine is "N responses · <usage>", with "1 response".
func responsesLine(n int, u model.Usage) string {
	s := strconv.Itoa(n) + " responses · "
	if n == 1 {
		s = "1 response · "
	}
	return s + exportUsageLine(u)
}

// optTokens is a token figure the client may leave out.
func optTokens(p *int) string {
	if p == nil {
		return "not recorded"
	}
	return groupDigits(int64(*p))
}

// leafSourceText says in words how the leaf was chosen.
func leafSourceText(s timeline.LeafSource) string {
	switch s {
	case timeline.LeafFromLastPrompt:
		return "the newest last-prompt record's leaf, as the client resumes"
	case timeline.LeafFromNewest:
		return "the newest main-chain record (no usable last-prompt)"
	case timeline.LeafGiven:
		return "given"
	}
	return "none: the transcript has no main-chain record"
}

// chainEndText says in words how the walk from the leaf ended.
func chainEndText(e model.ChainEnd) string {
	switch e {
	case model.ChainRoot:
		return "reaches the start of the session"
	case model.ChainMissingParent:
		return "stops at a parent that is not in the file (earlier messages are missing)"
	case model.ChainCycle:
		return "stops where the parent links loop"
	}
	return "has no leaf"
}

// boundaryTitle is a compaction's heading text.
func boundaryTitle(b *Boundary, at time.Time) string {
	kind := "Compaction"
	if b.Kind == timeline.BoundaryMicrocompact {
		kind = "Microcompaction"
	}
	trig := string(b.Trigger)
	switch {
	case b.Compaction == timeline.CompactionPartial:
		trig = "partial (rewind menu)"
	case trig == "":
		trig = "trigger not recorded"
	}
	return kind + " " + strconv.Itoa(b.Number) + ": " + trig + ", " + exportTime(at)
}

// boundaryFacts are the lines under a compaction's heading.
func boundaryFacts(b *Boundary) []string {
	var out []string
	if b.Kind == timeline.BoundaryMicrocompact {
		out = append(out, "old tool results cleared; tokens before: "+optTokens(b.PreTokens)+"; saved: "+optTokens(b.TokensSaved))
		return out
	}
	line := "tokens before: " + optTokens(b.PreTokens) + "; after: " + optTokens(b.PostTokens)
	if b.DurationMs != nil {
		line += "; took " + groupDigits(int64(*b.DurationMs)) + " ms"
	}
	if b.CumulativeDroppedTokens != nil {
		line += "; dropped so far: " + groupDigits(int64(*b.CumulativeDroppedTokens))
	}
	out = append(out, line)
	if b.Compaction == timeline.CompactionPartial {
		n := "an unrecorded number of messages"
		if b.MessagesSummarized != nil {
			n = format.Count(*b.MessagesSummarized, "message", "messages")
		}
		what := "partial compaction from the rewind menu: " + n + " summarized"
		if d := timeline.DirectionText(b.Direction); d != "" {
			what += "; " + d
		}
		out = append(out, what)
	}
	if len(b.Preserved) > 0 {
		ids := make([]string, len(b.Preserved))
		for i, u := range b.Preserved {
			ids[i] = format.ShortID(u)
		}
		out = append(out, "partial: "+strconv.Itoa(len(b.Preserved))+" message(s) kept and relinked after the summary on resume ("+strings.Join(ids, ", ")+")")
	} else {
		out = append(out, "full: on resume the model sees only the summary and what follows")
	}
	return out
}

// toolTitle is the one-line summary of a folded tool call.
func toolTitle(c *ToolCall) string {
	s := "Tool call: " + c.Name
	if c.Summary != "" {
		s += " — " + c.Summary
	}
	switch r := c.Result; {
	case r == nil:
		s += " → no result"
	case r.IsError:
		s += " → error, " + exportSize(r.Bytes)
	default:
		s += " → " + exportSize(r.Bytes) + " result"
	}
	return s
}

// pasteTitle is the label of a paste.
func pasteTitle(p *Paste) string {
	s := "Pasted text #" + p.ID
	if p.Origin == PasteUnresolved {
		s = "Paste " + p.Placeholder + " not expanded: " + p.Reason
		return s
	}
	s += " · " + strconv.Itoa(p.Lines) + " line breaks · "
	switch p.Origin {
	case PasteFromTag:
		s += "inline in the message"
	case PasteFromHistory:
		s += "from history.jsonl"
	case PasteFromCache:
		s += "from " + p.File
		if p.Status == model.PasteHashMismatch {
			s += " (content does not match its hash)"
		}
	}
	return s
}

// attachmentText is an attachment in a few words.
func attachmentText(a *Attachment) string {
	s := a.Type
	if s == "" {
		s = "attachment"
	}
	if len(a.Files) > 0 {
		names := a.Files
		more := ""
		if len(names) > 3 {
			names, more = names[:3], ", …"
		}
		s += " (" + strings.Join(names, ", ") + more + ")"
	}
	return s + " " + exportSize(a.Bytes)
}

// entryTitle is an entry's heading: who, model, when, line.
func entryTitle(e *Entry) string {
	var who string
	switch e.Kind {
	case EntryUser:
		who = "User"
	case EntryAssistant:
		who = "Assistant"
		if e.Model != "" {
			who += " · " + e.Model
		}
	case EntryMeta:
		who = "Meta message (written by the client, not typed)"
	case EntryToolResults:
		who = "Tool results"
	case EntryCompactSummary:
		who = "Compaction summary"
	case EntrySystem:
		who = "System: " + e.Subtype
	case EntryAttachment:
		who = "Attachment"
	case EntryBoundary:
		who = "Boundary"
	}
	return who + " · " + exportTime(e.Timestamp) + " · line " + strconv.Itoa(e.Line)
}

// fact is one row of an export's header table.
type fact struct{ key, value string }

// sessionFacts are the header rows of a session export, shared by the
// Markdown and HTML renderers.
func sessionFacts(x *SessionExport) []fact {
	fs := []fact{
		{"Project", x.CWD},
		{"Transcript", x.Path},
		{"Started", exportTime(x.Started)},
		{"Last activity", exportTime(x.LastActivity)},
	}
	if x.Version != "" || x.GitBranch != "" {
		fs = append(fs, fact{"Client", "Claude Code " + x.Version + " · git branch " + x.GitBranch})
	}
	fs = append(fs, fact{"Models", strings.Join(x.Models, ", ")},
		fact{"Usage", responsesLine(x.Usage.Responses, x.Usage.Tokens)})
	for _, m := range x.Usage.ByModel {
		fs = append(fs, fact{"Usage of " + m.Model, responsesLine(m.Responses, m.Tokens)})
	}
	fs = append(fs,
		fact{"Main chain", "leaf " + format.ShortID(x.Leaf.UUID) + " (line " + strconv.Itoa(x.Leaf.Line) + "), chosen as " +
			leafSourceText(x.Leaf.Source) + "; the chain " + chainEndText(x.Leaf.ChainEnd)},
		fact{"Compactions", strconv.Itoa(x.Compactions)},
		fact{"Branches not taken", strconv.Itoa(len(x.Branches)) + appendixNote(len(x.Branches))},
		fact{"Sidechains", strconv.Itoa(len(x.Sidechains)) + appendixNote(len(x.Sidechains))})
	if x.Unexported > 0 {
		fs = append(fs, fact{"Records on no exported path", strconv.Itoa(x.Unexported)})
	}
	return append(fs, fact{"Exported", exportTime(x.ExportedAt) + " by memscope"})
}

// foldPastes rewrites a message of text and pastes for reading: the text
// as typed, with each paste as its placeholder, then the pastes. Blocks
// of other kinds leave the message as it is.
func foldPastes(bs []Block) []Block {
	var prompt strings.Builder
	var pastes []Block
	for _, b := range bs {
		switch b.Kind {
		case BlockKindText:
			prompt.WriteString(b.Text)
		case BlockKindPaste:
			prompt.WriteString(pastePlaceholder(b.Paste))
			pastes = append(pastes, b)
		default:
			return bs
		}
	}
	if len(pastes) == 0 {
		return bs
	}
	return append([]Block{{Kind: BlockKindText, Text: prompt.String()}}, pastes...)
}

// pastePlaceholder is how a paste shows inside the prompt text.
func pastePlaceholder(p *Paste) string {
	if p.Placeholder != "" {
		return p.Placeholder
	}
	s := "[Pasted text #" + p.ID
	if p.Lines > 0 {
		s += " +" + strconv.Itoa(p.Lines) + " lines"
	}
	return s + "]"
}

// exportSize is a size in an export: the client's way (ClientFileSize,
// "24.4KB"), but "1 byte", not the client's "1 bytes".
func exportSize(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return format.ClientFileSize(n)
}
