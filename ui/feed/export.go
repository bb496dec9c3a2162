package feed

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/engine/memindex"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

// Exports from the panes: x/X in Replay writes a session as Markdown or
// HTML, x in Memories the open project's memory as Markdown, into a
// folder under the name memscope export would offer, never over an
// existing file, through the writer w (the app's, with its fault seam).

// Exported ends an export: the file written, or why not.
type Exported struct {
	Path string
	Err  error
}

// ExportSession writes the session of transcript (a name in home) in
// format into dir.
func ExportSession(home *model.Home, w model.WriteFS, dir, transcript string, format export.Format, now time.Time) tea.Cmd {
	return func() tea.Msg {
		s, err := export.OpenSession(export.SessionSource{FS: home.FS, Transcript: transcript, Home: home.FS}, now)
		if err != nil {
			return Exported{Err: fmt.Errorf("export %s: %w", transcript, err)}
		}
		defer s.Close()
		id := strings.TrimSuffix(filepath.Base(transcript), ".jsonl")
		p, err := writeNewFile(w, dir, export.DefaultName(id, format), func(out io.Writer) error { return s.Write(out, format) })
		return Exported{Path: p, Err: err}
	}
}

// ExportMemory writes the memory store s of project (its folder) in
// format into dir.
func ExportMemory(s *memstore.Store, project string, w model.WriteFS, dir string, format export.Format, now time.Time, th memindex.StalenessThresholds) tea.Cmd {
	return func() tea.Msg {
		data, err := export.MemoryStore(s, project, format, now, th)
		if err != nil {
			return Exported{Err: err}
		}
		p, err := writeNewFile(w, dir, export.DefaultMemoryExportName(project, format), func(out io.Writer) error {
			_, err := out.Write(data)
			return err
		})
		return Exported{Path: p, Err: err}
	}
}

// writeNewFile writes what write writes (an export, streamed) to
// dir/name, or name-2, name-3… when that exists, through w and the atomic writer: an export never replaces a
// file, not even one appearing meanwhile (the next name is taken then),
// and a failed write leaves nothing behind.
func writeNewFile(w model.WriteFS, dir, name string, write func(io.Writer) error) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i < 1000; i++ {
		p := filepath.Join(dir, name)
		if i > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s-%d%s", stem, i, ext))
		}
		err := model.CreateFileAtomicWith(w, p, 0o600, time.Time{}, write)
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
