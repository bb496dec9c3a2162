package cli

import (
	"errors"
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
	home *opened
	// vault is the vault the session was read from, when the home no
	// longer has it ("" otherwise).
	vault string
	close func()
}

// openSessionOrVault is openSession that, for a session id the home no
// longer has, reads the vault's copy instead (vaultDir: --vault). A home
// without a vault answers as openSession does.
func openSessionOrVault(e *env, hf *homeFlags, arg, vaultDir string) (*sessionFile, error) {
	sf, err := openSession(e, hf, arg)
	var nse *export.NoSessionError
	if !errors.As(err, &nse) {
		return sf, err
	}
	o, oerr := e.openHome(hf)
	if oerr != nil {
		return nil, err
	}
	lost, v, verr := openLost(e, o, vaultDir)
	if verr != nil {
		o.close()
		return nil, err
	}
	f, ferr := export.FindSession(lost, arg)
	if ferr != nil {
		lost.Close()
		o.close()
		if errors.As(ferr, &nse) {
			return nil, err
		}
		return nil, badInput(fmt.Errorf("vault %s: %w", v.Dir, ferr))
	}
	return &sessionFile{fsys: lost, name: f.Path, disk: o.home.Abs(f.Path), size: f.Size, home: o, vault: v.Dir,
		close: func() { lost.Close(); o.close() }}, nil
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
