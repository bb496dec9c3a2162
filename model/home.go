package model

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// HomeSource says how the Claude home folder was chosen.
type HomeSource string

// The ways a home is found, in priority order.
const (
	HomeFromFlag    HomeSource = "--home"
	HomeFromEnv     HomeSource = "$CLAUDE_CONFIG_DIR"
	HomeFromDefault HomeSource = "~/.claude"
	HomeFromConfig  HomeSource = "config home"
	HomeFromDemo    HomeSource = "demo"
)

// Home is a Claude home folder ($CLAUDE_CONFIG_DIR or ~/.claude) opened for
// reading. FS is rooted at Dir; paths given to it are slash-separated and
// relative to Dir ("projects/-home-me-app/memory/MEMORY.md").
type Home struct {
	// Dir is the absolute folder on disk (used for display and writes).
	Dir string
	// FS reads the home; DirFS(Dir) for a real home.
	FS fs.FS
	// Source says how Dir was chosen.
	Source HomeSource
}

// ResolveHomeDir picks the Claude home folder: the --home flag, else
// $CLAUDE_CONFIG_DIR, else ~/.claude. getenv and userHome are parameters so
// tests do not depend on the machine.
func ResolveHomeDir(flagDir string, getenv func(string) string, userHome func() (string, error)) (string, HomeSource, error) {
	return ResolveHomeDirWith(flagDir, "", getenv, userHome)
}

// ResolveHomeDirWith is ResolveHomeDir with the settings file's home
// (memscope's config.yaml) between $CLAUDE_CONFIG_DIR and ~/.claude.
func ResolveHomeDirWith(flagDir, configHome string, getenv func(string) string, userHome func() (string, error)) (string, HomeSource, error) {
	if flagDir != "" {
		abs, err := filepath.Abs(ExpandTilde(flagDir, userHome))
		return abs, HomeFromFlag, err
	}
	if env := getenv("CLAUDE_CONFIG_DIR"); env != "" {
		abs, err := filepath.Abs(ExpandTilde(env, userHome))
		return abs, HomeFromEnv, err
	}
	if configHome != "" {
		abs, err := filepath.Abs(ExpandTilde(configHome, userHome))
		return abs, HomeFromConfig, err
	}
	h, err := userHome()
	if err != nil {
		return "", HomeFromDefault, fmt.Errorf("find home folder: %w", err)
	}
	return filepath.Join(h, ".claude"), HomeFromDefault, nil
}

// ExpandTilde writes a leading ~ or ~/ of p as the user's home folder
// (p unchanged when that is unknown): --home, $CLAUDE_CONFIG_DIR and the
// settings file's paths.
func ExpandTilde(p string, userHome func() (string, error)) string {
	if p == "~" || len(p) > 1 && p[:2] == "~/" {
		if h, err := userHome(); err == nil {
			return filepath.Join(h, p[1:])
		}
	}
	return p
}

// OpenHome opens the folder dir as a Home. It fails when dir does not exist
// or is not a folder.
func OpenHome(dir string, source HomeSource) (*Home, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("open home %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("open home %s: not a folder", dir)
	}
	return &Home{Dir: dir, FS: HomeFS(dir), Source: source}, nil
}

// HomeExists reports whether dir is an existing folder.
func HomeExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir() && !errors.Is(err, fs.ErrNotExist)
}

// Abs returns the absolute on-disk path of a slash path inside the home.
func (h *Home) Abs(rel string) string {
	return filepath.Join(h.Dir, filepath.FromSlash(rel))
}
