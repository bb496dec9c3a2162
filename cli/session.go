package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/model"
)

// sessionFile is a transcript named on the command line (the SESSION of
// replay, compact, extract, export and files), opened for reading.
type sessionFile struct {
	fsys fs.FS
	// name is the path inside fsys; disk the file on disk.
	name, disk string
	size       int64
	// home is the home the session was found in; nil for a path.
	home  *opened
	close func()
}

// openSession finds SESSION: a path to a .jsonl file, or a session id (or
// a unique prefix of one) looked up among the home's transcripts.
func openSession(e *env, hf *homeFlags, arg string) (*sessionFile, error) {
	if strings.HasSuffix(arg, ".jsonl") || strings.ContainsRune(arg, filepath.Separator) {
		abs, err := filepath.Abs(arg)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, badInput(fmt.Errorf("transcript %s: %w", arg, err))
		}
		return &sessionFile{fsys: model.DirFS(filepath.Dir(abs)), name: filepath.Base(abs), disk: abs, size: st.Size(), close: func() {}}, nil
	}
	o, err := e.openHome(hf)
	if err != nil {
		return nil, err
	}
	f, err := export.FindSession(o.home.FS, arg)
	if err != nil {
		o.close()
		return nil, badInput(fmt.Errorf("%w (%s)", err, o.home.Dir))
	}
	return &sessionFile{fsys: o.home.FS, name: f.Path, disk: o.home.Abs(f.Path), size: f.Size, home: o, close: o.close}, nil
}
