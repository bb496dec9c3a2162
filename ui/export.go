package ui

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/model"
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
		home, now, dir, w := m.opts.Home, m.opts.Now(), m.exportDir(), m.writes()
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
			p, err := writeNewFile(w, dir, export.DefaultName(id, format), data)
			return exportedMsg{path: p, err: err}
		}, true
	case msgs.ExportMemory:
		format, err := export.ParseFormat(msg.Format)
		if err != nil {
			m.setStatus(err.Error(), true)
			return m, nil, true
		}
		store, project := m.feeds.project.Cur().Store, m.openPath()
		if store == nil {
			m.setStatus("export memory: the open project's memory folder is not on disk", true)
			return m, nil, true
		}
		now, dir, w, th := m.opts.Now(), m.exportDir(), m.writes(), m.opts.Staleness
		return m, func() tea.Msg {
			data, err := export.MemoryStore(store, project, format, now, th)
			if err != nil {
				return exportedMsg{err: err}
			}
			p, err := writeNewFile(w, dir, export.DefaultMemoryExportName(project, format), data)
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
// exists, through w and the atomic writer: an export never replaces a
// file, not even one appearing meanwhile (the next name is taken then),
// and a failed write leaves nothing behind.
func writeNewFile(w model.WriteFS, dir, name string, data []byte) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i < 1000; i++ {
		p := filepath.Join(dir, name)
		if i > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s-%d%s", stem, i, ext))
		}
		err := model.CreateFileAtomicWith(w, p, 0o600, time.Time{}, func(out io.Writer) error {
			_, err := out.Write(data)
			return err
		})
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("export to %s: %w", p, err)
		}
		return p, nil
	}
	return "", fmt.Errorf("export to %s: 999 files of that name already", filepath.Join(dir, name))
}
