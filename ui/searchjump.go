package ui

import (
	"github.com/memscope/memscope/ui/feed"
	"strings"

	tea "charm.land/bubbletea/v2"

	engsearch "github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/hit"
	"github.com/memscope/memscope/views/files"
	"github.com/memscope/memscope/views/prompt"
)

// Search hits in CLAUDE.md files and file-history backups open in the
// Prompt and Files panes at the hit. A CLAUDE.md hit waits for two
// things: the file's text (read for the hit, since what the pane holds
// is the text as sent, without comments and frontmatter) and the preview
// of the project that loads it (another project's CLAUDE.md opens that
// project first). A backup hit is the Files pane's to follow: it asks for
// the session and goes to the version.

// promptHit is a CLAUDE.md hit on its way to the Prompt pane.
type promptHit struct {
	hit engsearch.Hit
	// abs is the file's absolute path; project the folder whose preview
	// lists it; note the status line's words for the hit.
	abs, project, note string
	// read is set once the file's text is in.
	read    bool
	content string
}

// promptHitReadMsg is a CLAUDE.md hit's file, read.
type promptHitReadMsg struct {
	abs     string
	content string
	err     error
}

// spotOf is where a hit in a text file is, for a pane's detail: its
// label (the file's kind, or "backup vN of …") says what the text is.
func spotOf(h engsearch.Hit) hit.Spot {
	return hit.Spot{Line: h.Line, Offset: h.Offset, Where: h.Label, Snippet: h.Snippet, Match: h.Match}
}

// openClaudeMdHit opens the project whose prompt loads the hit's file
// (when it is another), brings the Prompt pane forward and reads the
// file; the pane shows the hit once both are in (applyPromptHit).
func (m *Model) openClaudeMdHit(h engsearch.Hit, note string) tea.Cmd {
	abs := h.File
	if !strings.HasPrefix(abs, "/") {
		abs = feed.JoinAbs(m.opts.Home.Dir, h.File)
	}
	load := m.openProjectOf(h)
	focus := m.setFocus(panePrompt)
	m.promptHit = &promptHit{hit: h, abs: abs, project: m.previewProject(), note: note}
	root := m.root()
	read := func() tea.Msg {
		data, err := model.ReadFileBounded(root, model.RootName(abs), model.MaxDocumentBytes)
		return promptHitReadMsg{abs: abs, content: string(data), err: err}
	}
	return tea.Batch(load, focus, read)
}

// promptHitRead takes the hit's file and shows the hit if the preview is
// in.
func (m *Model) promptHitRead(msg promptHitReadMsg) {
	ph := m.promptHit
	if ph == nil || ph.abs != msg.abs {
		return // a later jump replaced it
	}
	if msg.err != nil {
		m.promptHit = nil
		m.setStatus(ph.note+": "+msg.err.Error(), true)
		return
	}
	ph.read, ph.content = true, msg.content
	m.applyPromptHit()
}

// applyPromptHit shows the waiting CLAUDE.md hit in the Prompt pane once
// its file is read and the pane shows the preview of its project, or
// says why the pane cannot.
func (m *Model) applyPromptHit() {
	ph := m.promptHit
	if ph == nil || !ph.read {
		return
	}
	if !strings.HasPrefix(ph.project, "/") {
		m.promptHit = nil
		m.setStatus(ph.note+": the Prompt pane cannot preview "+model.SanitizeLine(ph.project)+" (its transcripts do not say which folder it is), so it cannot show "+model.SanitizeLine(ph.abs), false)
		return
	}
	if m.p.prompt.Project() != ph.project {
		return // the project's preview is on its way
	}
	m.promptHit = nil
	if !m.p.prompt.ShowHit(prompt.Hit{Path: ph.abs, Spot: spotOf(ph.hit), Content: ph.content}) {
		m.setStatus(ph.note+": the Prompt pane lists the files "+model.SanitizeLine(ph.project)+" loads, and "+model.SanitizeLine(ph.abs)+" is not among them", false)
	}
}

// openFileHistoryHit brings the Files pane forward at the backup's
// version; the pane asks for what it does not have yet.
func (m *Model) openFileHistoryHit(h engsearch.Hit, note string) tea.Cmd {
	focus := m.setFocus(paneFiles) // lists the sessions again when they are stale
	return tea.Batch(focus, m.p.files.OpenHit(files.FileHit{SessionID: h.SessionID, Backup: h.File, Spot: spotOf(h), Note: note, Relisting: m.loading["files"]}))
}
