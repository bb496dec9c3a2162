package cli

import (
	"fmt"

	"github.com/memscope/memscope/model"
)

// openArchiveHome opens a .tar.gz written by memscope archive as a home:
// it is extracted read-only into a temporary folder that close removes.
// Skipped entries are said on stderr, so --json output stays clean.
func (e *env) openArchiveHome(archive string) (*opened, error) {
	home, closeHome, probs, err := model.OpenTarHome(archive)
	if err != nil {
		return nil, err
	}
	for _, p := range probs {
		fmt.Fprintf(e.stderr, "memscope: %s: %s\n", archive, model.SanitizeForTerminal(p.Error()))
	}
	fmt.Fprintf(e.stderr, "memscope: reading archive %s (extracted read-only to %s)\n", archive, home.Dir)
	return &opened{home: home, root: mountHome(e.root, home, ""), close: func() {
		if err := closeHome(); err != nil {
			fmt.Fprintf(e.stderr, "memscope: %v\n", err)
		}
	}}, nil
}
