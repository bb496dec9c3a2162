package export

import (
	"bytes"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/memscope/memscope/internal/format"
)

// exportCSP allows inline styles and nothing else: no scripts, no
// network, no frames, no forms.
const exportCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

const exportCSS = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --dim: #59636e; --line: #d1d9e0;
  --user: #ddf4ff; --asst: #f6f8fa; --cmp: #fff8c5; --cmpline: #d4a72c; --err: #cf222e; --side: #fbefff; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --dim: #9198a1; --line: #3d444d;
    --user: #0c2d48; --asst: #151b23; --cmp: #3b2e05; --cmpline: #bb8009; --err: #ff7b72; --side: #2e1537; }
}
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg);
  max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; word-break: break-all; }
h2 { font-size: 1.25rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2.5rem; }
h3 { font-size: 1rem; margin: 0 0 .5rem; }
table.facts { border-collapse: collapse; margin: 1rem 0; }
table.facts th { text-align: left; padding: .2rem 1rem .2rem 0; color: var(--dim); font-weight: normal; vertical-align: top; }
table.facts td { padding: .2rem 0; word-break: break-word; }
.entry { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; background: var(--asst); }
.entry.user { background: var(--user); }
.entry.summary { background: var(--cmp); border-color: var(--cmpline); }
.entry.preserved { border-left: 4px solid var(--cmpline); }
.boundary { border-top: 3px double var(--cmpline); margin-top: 2.5rem; }
.boundary h2 { border: none; }
.sidechain { background: var(--side); border-radius: 6px; padding: .5rem 1rem; }
.note, .att, .usage { color: var(--dim); font-size: .9rem; margin: .25rem 0; }
.err { color: var(--err); }
pre { white-space: pre-wrap; word-break: break-word; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  margin: .5rem 0; padding: .5rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); overflow-x: auto; }
details { margin: .5rem 0; }
summary { cursor: pointer; color: var(--dim); }
.paste-label { font-weight: 600; margin: .5rem 0 0; }
`

// htmlWriter builds an HTML document in b, written out to out in pieces
// as it grows.
type htmlWriter struct {
	b   bytes.Buffer
	out io.Writer
}

// RenderSessionHTML renders x as one self-contained HTML page.
func RenderSessionHTML(x *SessionExport) ([]byte, error) {
	var b bytes.Buffer
	if err := writeSessionHTML(&b, x, wholeEntries(x)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeSessionHTML writes the export whose header is x and whose entries
// each gives to out as one self-contained HTML page.
func writeSessionHTML(out io.Writer, x *SessionExport, each entryLists) error {
	w := &htmlWriter{out: out}
	w.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
		"<meta http-equiv=\"Content-Security-Policy\" content=\"", exportCSP, "\">\n",
		"<meta name=\"referrer\" content=\"no-referrer\">\n<title>Claude Code session ")
	w.line(x.SessionID)
	w.raw("</title>\n<style>", exportCSS, "</style>\n</head>\n<body>\n<header>\n<h1>Claude Code session ")
	w.line(x.SessionID)
	w.raw("</h1>\n<table class=\"facts\">\n")
	for _, f := range sessionFacts(x) {
		w.raw("<tr><th>")
		w.line(f.key)
		w.raw("</th><td>")
		w.line(f.value)
		w.raw("</td></tr>\n")
	}
	w.raw("</table>\n</header>\n<main>\n<section id=\"conversation\">\n<h2>Conversation</h2>\n")
	if err := w.entries(each, 0); err != nil {
		return err
	}
	w.raw("</section>\n")
	for i, br := range x.Branches {
		w.raw("<section class=\"branch\" id=\"branch-", strconv.Itoa(i+1), "\">\n<h2>")
		w.line("Branch not taken " + strconv.Itoa(i+1) + ": from " + format.ShortID(br.From) + ", rewound at line " + strconv.Itoa(br.ParentLine))
		w.raw("</h2>\n<p class=\"note\">")
		w.line("The session went back to message " + format.ShortID(br.Parent) + " and continued differently; this is the path it left (at each later fork, the newest reply).")
		w.raw("</p>\n")
		if err := w.entries(each, 1+i); err != nil {
			return err
		}
		w.raw("</section>\n")
	}
	for i, sc := range x.Sidechains {
		title := "Sidechain " + strconv.Itoa(i+1) + ": subagent"
		if sc.AgentID != "" {
			title += " " + sc.AgentID
		}
		w.raw("<section class=\"sidechain\" id=\"sidechain-", strconv.Itoa(i+1), "\">\n<h2>")
		w.line(title)
		w.raw("</h2>\n<p class=\"note\">")
		w.line("source: " + sidechainSource(sc) + " · records: " + strconv.Itoa(sc.Records))
		if len(sc.Models) > 0 {
			w.line(" · models: " + strings.Join(sc.Models, ", ") + " · usage: " + responsesLine(sc.Usage.Responses, sc.Usage.Tokens))
		}
		w.raw("</p>\n")
		if err := w.entries(each, 1+len(x.Branches)+i); err != nil {
			return err
		}
		w.raw("</section>\n")
	}
	if len(x.LegacySummaries) > 0 {
		w.raw("<section id=\"legacy-summaries\">\n<h2>Legacy summaries</h2>\n<ul>\n")
		for _, s := range x.LegacySummaries {
			w.raw("<li>")
			w.line(s)
			w.raw("</li>\n")
		}
		w.raw("</ul>\n</section>\n")
	}
	if len(x.Problems) > 0 {
		w.raw("<section id=\"problems\">\n<h2>Problems reading the transcript</h2>\n<ul>\n")
		for _, p := range x.Problems {
			w.raw("<li>")
			w.line(p.File + ":" + strconv.Itoa(p.Line) + ": " + string(p.Kind) + ": " + p.Reason)
			w.raw("</li>\n")
		}
		w.raw("</ul>\n</section>\n")
	}
	w.raw("</main>\n</body>\n</html>\n")
	return flushTo(w.out, &w.b, 0)
}

// raw writes markup; only ever called with constants.
func (w *htmlWriter) raw(parts ...string) {
	for _, p := range parts {
		w.b.WriteString(p)
	}
}

// text writes untrusted text, cleaned and escaped.
func (w *htmlWriter) text(s string) { w.b.WriteString(html.EscapeString(exportClean(s))) }

// line writes one line of untrusted text (line breaks folded).
func (w *htmlWriter) line(s string) { w.text(oneLine(s, 1<<20)) }

func (w *htmlWriter) pre(s string) {
	w.raw("<pre>")
	w.text(s)
	w.raw("</pre>\n")
}

func (w *htmlWriter) details(summary string, body func()) {
	w.raw("<details><summary>")
	w.line(summary)
	w.raw("</summary>\n")
	body()
	w.raw("</details>\n")
}

// entries writes list part of each; consecutive attachments share a
// line.
func (w *htmlWriter) entries(each entryLists, part int) error {
	var att []string
	attLine := 0
	endAttached := func() {
		if len(att) > 0 {
			w.raw("<p class=\"att\">")
			w.line("Context attached (line " + strconv.Itoa(attLine) + "): " + strings.Join(att, " · "))
			w.raw("</p>\n")
			att = att[:0]
		}
	}
	err := each(part, func(e *Entry) error {
		if e.Kind == EntryAttachment {
			if len(att) == 0 {
				attLine = e.Line
			}
			att = append(att, attachmentText(e.Attachment))
			return nil
		}
		endAttached()
		w.entry(e)
		return flushTo(w.out, &w.b, flushAt)
	})
	endAttached()
	return err
}

func (w *htmlWriter) entry(e *Entry) {
	switch e.Kind {
	case EntryBoundary:
		w.raw("<section class=\"boundary\" id=\"compaction-", strconv.Itoa(e.Boundary.Number), "\">\n<h2>")
		w.line(boundaryTitle(e.Boundary, e.Timestamp))
		w.raw("</h2>\n<ul>\n")
		for _, f := range boundaryFacts(e.Boundary) {
			w.raw("<li>")
			w.line(f)
			w.raw("</li>\n")
		}
		w.raw("</ul>\n</section>\n")
		return
	case EntrySystem:
		if e.Text == "" {
			return
		}
	case EntryMeta:
		w.raw("<div class=\"entry meta\">\n")
		w.details(entryTitle(e), func() { w.blocks(e.Blocks) })
		w.raw("</div>\n")
		return
	}
	class := "entry"
	switch {
	case e.Kind == EntryUser:
		class += " user"
	case e.Kind == EntryCompactSummary:
		class += " summary"
	}
	if e.PreservedBy > 0 {
		class += " preserved"
	}
	w.raw("<article class=\"", class, "\">\n<h3>")
	w.line(entryTitle(e))
	w.raw("</h3>\n")
	if e.Kind == EntryCompactSummary {
		w.raw("<p class=\"note\"><strong>Compaction summary.</strong> After the compaction above, the model saw this in place of the conversation before it.</p>\n")
	}
	if e.PreservedBy > 0 {
		w.raw("<p class=\"note\">")
		w.line("Kept by compaction " + strconv.Itoa(e.PreservedBy) + ": on resume the client relinks this message after that compaction's summary.")
		w.raw("</p>\n")
	}
	if e.Usage != nil {
		w.raw("<p class=\"usage\">")
		w.line("Usage: " + exportUsageLine(*e.Usage))
		w.raw("</p>\n")
	}
	if e.Kind == EntrySystem {
		w.pre(e.Text)
	}
	w.blocks(e.Blocks)
	w.raw("</article>\n")
}

func (w *htmlWriter) blocks(bs []Block) {
	bs = foldPastes(bs)
	for i := range bs {
		b := &bs[i]
		switch b.Kind {
		case BlockKindText:
			if strings.TrimSpace(b.Text) != "" {
				w.pre(b.Text)
			}
		case BlockKindThinking:
			w.details("Thinking ("+strconv.Itoa(len([]rune(b.Text)))+" characters)", func() { w.pre(b.Text) })
		case BlockKindToolCall:
			w.toolCall(b.Tool)
		case BlockKindToolResult:
			w.details("Tool result for "+b.Result.ToolUseID+" · "+exportSize(b.Result.Bytes), func() { w.pre(b.Result.Text) })
		case BlockKindPaste:
			w.raw("<p class=\"paste-label\">")
			w.line(pasteTitle(b.Paste))
			w.raw("</p>\n")
			if b.Paste.Origin != PasteUnresolved {
				w.pre(b.Paste.Text)
			}
		case BlockKindImage:
			w.raw("<p class=\"note\">[image]</p>\n")
		default:
			w.raw("<p class=\"note\">[")
			w.line(b.Text)
			w.raw(" block]</p>\n")
		}
	}
}

func (w *htmlWriter) toolCall(c *ToolCall) {
	w.details(toolTitle(c), func() {
		w.raw("<p class=\"note\">")
		w.line("Input (" + exportSize(c.InputBytes) + "):")
		w.raw("</p>\n")
		w.pre(c.Input)
		if r := c.Result; r != nil {
			label := "Result"
			if r.IsError {
				label = "Error result"
			}
			w.raw("<p class=\"note\">")
			w.line(label + " (" + exportSize(r.Bytes) + ", line " + strconv.Itoa(r.Line) + "):")
			w.raw("</p>\n")
			w.pre(r.Text)
			if r.Images > 0 {
				w.raw("<p class=\"note\">")
				w.line(strconv.Itoa(r.Images) + " image(s) not shown")
				w.raw("</p>\n")
			}
		}
	})
}
