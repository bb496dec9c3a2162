package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/views/msgs"
)

// Exports from the panes: x/X in Replay writes the session as Markdown or
// HTML, x in Memories the open project's memory as Markdown, into
// Options.ExportDir under the name memscope export would offer, never
// over an existing file.

type exportedMsg struct {
	path string
	err  error
}

func (m Model) exportDir() string {
	if m.opts.ExportDir != "" {
		return m.opts.ExportDir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// handleExport serves ExportSession and ExportMemory.
func (m Model) handleExport(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case msgs.ExportSession:
		format, err := export.ParseFormat(msg.Format)
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil, true
		}
		home, now, dir := m.opts.Home, m.opts.Now(), m.exportDir()
		m.setStatus("exporting "+msg.Path+"…", false)
		return m, func() tea.Msg {
			x, err := export.LoadSessionExport(export.SessionSource{FS: home.FS, Transcript: msg.Path, Home: home.FS}, now)
			if err != nil {
				return exportedMsg{err: fmt.Errorf("export %s: %w", msg.Path, err)}
			}
			data, err := export.RenderSessionExport(x, format)
			if err != nil {
				return exportedMsg{err: err}
			}
			id := strings.TrimSuffix(filepath.Base(msg.Path), ".jsonl")
			p, err := writeNewFile(dir, export.DefaultName(id, format), data)
			return exportedMsg{path: p, err: err}
		}, true
	case msgs.ExportMemory:
		format, err := export.ParseFormat(msg.Format)
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil, true
		}
		store, project := m.data.project.store, m.data.openPath()
		if store == nil {
			m.setStatus("export memory: the open project's memory folder is not on disk", true)
			return m, nil, true
		}
		now, dir := m.opts.Now(), m.exportDir()
		return m, func() tea.Msg {
			data, err := export.MemoryStore(store, project, format, now)
			if err != nil {
				return exportedMsg{err: err}
			}
			p, err := writeNewFile(dir, export.DefaultMemoryExportName(project, format), data)
			return exportedMsg{path: p, err: err}
		}, true
	case exportedMsg:
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
		} else {
			m.setStatus("exported to "+msg.path, false)
		}
		return m, nil, true
	}
	return m, nil, false
}

// writeNewFile writes data to dir/name, or name-2, name-3… when that
// exists: an export never replaces a file. The file is created
// exclusively, so a file appearing meanwhile is not overwritten either;
// a failed write removes the partial file.
func writeNewFile(dir, name string, data []byte) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i < 1000; i++ {
		p := filepath.Join(dir, name)
		if i > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s-%d%s", stem, i, ext))
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("export to %s: %w", p, err)
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(p)
			return "", fmt.Errorf("export to %s: %w", p, err)
		}
		return p, nil
	}
	return "", fmt.Errorf("export to %s: 999 files of that name already", filepath.Join(dir, name))
}
