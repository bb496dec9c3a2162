package cli

import (
	"fmt"

	"github.com/memscope/memscope/config"
)

// settingsState is the settings file, read once per run (env.settings).
type settingsState struct {
	cfg config.Config
	// err is why the file was not used (the defaults are in cfg).
	err error
	// notice is what was said about the file on stderr, for the terminal
	// app's status line.
	notice string
}

// settings reads memscope's settings file (config.Path) the first time a
// command asks, and says on stderr what is wrong with it: an unknown
// setting (ignored), or a file that cannot be used (the defaults apply).
func (e *env) settings() config.Config {
	if e.cfg == nil {
		e.cfg = &settingsState{}
	}
	s := e.cfg
	if s.cfg.Sources != nil {
		return s.cfg
	}
	path, err := config.Path(e.getenv, e.userHome)
	if err != nil {
		s.cfg, s.err = config.Default(), err
	} else {
		s.cfg, s.err = config.Load(path)
	}
	for _, p := range s.cfg.Problems {
		fmt.Fprintf(e.stderr, "memscope: config %s\n", p)
		s.notice = "config: " + p
	}
	if s.err != nil {
		fmt.Fprintf(e.stderr, "memscope: %v; using the default settings\n", s.err)
		s.notice = s.err.Error() + "; using the default settings"
	}
	return s.cfg
}
