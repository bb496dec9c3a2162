package cli

import (
	"path/filepath"

	"github.com/memscope/memscope/engine/gate"
)

// gateLogPath is the file name (gate.jsonl, memscope.log) in memscope's
// state folder ($XDG_STATE_HOME/memscope): the hook writes there, gate
// log reads it.
func gateLogPath(e *env, name string) (string, error) {
	dir, err := gate.StateDir(e.getenv, e.userHome)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}
