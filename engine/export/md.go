package export

import (
	"bytes"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// mdWriter builds a Markdown document in b, written out to out (when
// set) in pieces as it grows (flush).
type mdWriter struct {
	b   bytes.Buffer
	out io.Writer
}

// flushAt is how much of a streamed document a writer gathers before it
// writes it out: always after a whole entry.
const flushAt = 64 << 10

// flush writes what b holds to out once it holds at least n bytes.
func flushTo(out io.Writer, b *bytes.Buffer, n int) error {
	if b.Len() < max(n, 1) {
		return nil
	}
	_, err := out.Write(b.Bytes())
	b.Reset()
	return err
}

// longestRun is the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// mdEscape makes one line of untrusted text literal in Markdown inline
// context (headings, list items, table cells): line breaks fold; every
// character that could start emphasis, code, a link, HTML or an entity,
// or end a table cell, is backslash-escaped; and a start that would open
// a nested list is escaped too.
func mdEscape(s string) string {
	s = oneLine(exportClean(s), 1<<20)
	var b strings.Builder
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("\\`*_[]<>#|!~&", c) >= 0,
			i == 0 && strings.IndexByte("-+=", c) >= 0,
			i == digits && i > 0 && (c == '.' || c == ')'):
			b.WriteByte('\\')
		}
		if c >= '0' && c <= '9' && i == digits {
			digits++
		}
		b.WriteByte(c)
	}
	return b.String()
}

// RenderSessionMarkdown renders x as a Markdown document.
func RenderSessionMarkdown(x *SessionExport) []byte {
	var b bytes.Buffer
	_ = writeSessionMarkdown(&b, x, wholeEntries(x)) // a bytes.Buffer takes every write
	return b.Bytes()
}

// writeSessionMarkdown writes the export whose header is x and whose
// entries each gives to out as a Markdown document.
func writeSessionMarkdown(out io.Writer, x *SessionExport, each entryLists) error {
	w := &mdWriter{out: out}
	w.heading(1, "Claude Code session "+x.SessionID)
	w.line("| | |")
	w.line("|---|---|")
	for _, f := range sessionFacts(x) {
		w.line("| ", mdEscape(f.key), " | ", mdEscape(f.value), " |")
	}
	w.blank()

	w.heading(2, "Conversation")
	if err := w.entries(each, 0, 3); err != nil {
		return err
	}
	for i, br := range x.Branches {
		w.heading(2, "Branch not taken "+strconv.Itoa(i+1)+": from "+format.ShortID(br.From)+", rewound at line "+strconv.Itoa(br.ParentLine))
		w.line("*The session went back to message ", mdEscape(format.ShortID(br.Parent)), " and continued differently; this is the path it left (at each later fork, the newest reply).*")
		w.blank()
		if err := w.entries(each, 1+i, 3); err != nil {
			return err
		}
	}
	for i, sc := range x.Sidechains {
		title := "Sidechain " + strconv.Itoa(i+1) + ": subagent"
		if sc.AgentID != "" {
			title += " " + sc.AgentID
		}
		w.heading(2, title)
		w.line("- source: ", mdEscape(sidechainSource(sc)))
		w.line("- records: ", strconv.Itoa(sc.Records))
		if len(sc.Models) > 0 {
			w.line("- models: ", mdEscape(strings.Join(sc.Models, ", ")))
			w.line("- usage: ", responsesLine(sc.Usage.Responses, sc.Usage.Tokens))
		}
		w.blank()
		if err := w.entries(each, 1+len(x.Branches)+i, 3); err != nil {
			return err
		}
	}
	w.bullets("Legacy summaries", x.LegacySummaries)
	w.problems("Problems reading the transcript", x.Problems)
	return flushTo(w.out, &w.b, 0)
}

func appendixNote(n int) string {
	if n == 0 {
		return ""
	}
	return " (sections after the conversation)"
}

func sidechainSource(sc Sidechain) string {
	if sc.Source == SidechainInline {
		return "inline sidechain records of the main transcript"
	}
	return sc.Source
}

func (w *mdWriter) line(parts ...string) {
	for _, p := range parts {
		w.b.WriteString(p)
	}
	w.b.WriteByte('\n')
}

func (w *mdWriter) blank() { w.b.WriteByte('\n') }

func (w *mdWriter) heading(level int, text string) {
	w.line(strings.Repeat("#", level), " ", mdEscape(text))
	w.blank()
}

// fenced writes text as a fenced code block.
func (w *mdWriter) fenced(info, text string) {
	text = exportClean(text)
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	w.line(fence, info)
	w.b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		w.b.WriteByte('\n')
	}
	w.line(fence)
	w.blank()
}

// details writes a collapsed block: summary is one line of plain text.
func (w *mdWriter) details(summary string, body func()) {
	w.line("<details>")
	w.line("<summary>", html.EscapeString(oneLine(exportClean(summary), 400)), "</summary>")
	w.blank()
	body()
	w.line("</details>")
	w.blank()
}

// bullets writes a section of escaped list items; nothing when empty.
func (w *mdWriter) bullets(title string, items []string) {
	if len(items) == 0 {
		return
	}
	w.heading(2, title)
	for _, it := range items {
		w.line("- ", mdEscape(it))
	}
	w.blank()
}

// problems writes the lines an export could not read, as bullets.
func (w *mdWriter) problems(title string, probs []model.Problem) {
	items := make([]string, len(probs))
	for i, p := range probs {
		items[i] = p.File + ":" + strconv.Itoa(p.Line) + ": " + string(p.Kind) + ": " + p.Reason
	}
	w.bullets(title, items)
}

// entries writes list part of each; consecutive attachments share a
// line.
func (w *mdWriter) entries(each entryLists, part, level int) error {
	var att []string
	attLine := 0
	endAttached := func() {
		if len(att) > 0 {
			w.line("*Context attached (line ", strconv.Itoa(attLine), "): ", strings.Join(att, " · "), "*")
			w.blank()
			att = att[:0]
		}
	}
	err := each(part, func(e *Entry) error {
		if e.Kind == EntryAttachment {
			if len(att) == 0 {
				attLine = e.Line
			}
			att = append(att, mdEscape(attachmentText(e.Attachment)))
			return nil
		}
		endAttached()
		w.entry(e, level)
		return flushTo(w.out, &w.b, flushAt)
	})
	endAttached()
	return err
}

func (w *mdWriter) entry(e *Entry, level int) {
	switch e.Kind {
	case EntryBoundary:
		w.line("---")
		w.blank()
		w.heading(2, boundaryTitle(e.Boundary, e.Timestamp))
		for _, f := range boundaryFacts(e.Boundary) {
			w.line("- ", mdEscape(f))
		}
		w.blank()
		return
	case EntrySystem:
		if e.Text == "" {
			return
		}
		w.heading(level, entryTitle(e))
		w.fenced("text", e.Text)
		return
	case EntryMeta:
		w.details(entryTitle(e), func() { w.blocks(e.Blocks) })
		return
	case EntryCompactSummary:
		w.heading(level, entryTitle(e))
		w.line("> **Compaction summary.** After the compaction above, the model saw this in place of the conversation before it.")
		w.blank()
		w.blocks(e.Blocks)
		return
	}
	w.heading(level, entryTitle(e))
	if e.PreservedBy > 0 {
		w.line("*Kept by compaction ", strconv.Itoa(e.PreservedBy), ": on resume the client relinks this message after that compaction's summary.*")
		w.blank()
	}
	if e.Usage != nil {
		w.line("*Usage: ", exportUsageLine(*e.Usage), "*")
		w.blank()
	}
	w.blocks(e.Blocks)
}

func (w *mdWriter) blocks(bs []Block) {
	bs = foldPastes(bs)
	for i := range bs {
		b := &bs[i]
		switch b.Kind {
		case BlockKindText:
			if strings.TrimSpace(b.Text) != "" {
				w.fenced("text", b.Text)
			}
		case BlockKindThinking:
			w.details("Thinking ("+strconv.Itoa(len([]rune(b.Text)))+" characters)", func() { w.fenced("text", b.Text) })
		case BlockKindToolCall:
			w.toolCall(b.Tool)
		case BlockKindToolResult:
			w.details("Tool result for "+b.Result.ToolUseID+" · "+exportSize(b.Result.Bytes), func() { w.fenced("text", b.Result.Text) })
		case BlockKindPaste:
			w.line("**", mdEscape(pasteTitle(b.Paste)), "**")
			w.blank()
			if b.Paste.Origin != PasteUnresolved {
				w.fenced("text", b.Paste.Text)
			}
		case BlockKindImage:
			w.line("*[image]*")
			w.blank()
		default:
			w.line("*[", mdEscape(b.Text), " block]*")
			w.blank()
		}
	}
}

func (w *mdWriter) toolCall(c *ToolCall) {
	w.details(toolTitle(c), func() {
		w.line("Input (", exportSize(c.InputBytes), "):")
		w.blank()
		w.fenced("json", c.Input)
		if r := c.Result; r != nil {
			label := "Result"
			if r.IsError {
				label = "Error result"
			}
			w.line(label, " (", exportSize(r.Bytes), ", line ", strconv.Itoa(r.Line), "):")
			w.blank()
			w.fenced("text", r.Text)
			if r.Images > 0 {
				w.line("*", strconv.Itoa(r.Images), " image(s) not shown*")
				w.blank()
			}
		}
	})
}
