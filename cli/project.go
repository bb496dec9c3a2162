package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/model"
)

// projectSlug finds the projects/ folder of a project path (relative to
// the working folder). A slug works too: slugging a slug changes nothing.
func projectSlug(e *env, h *model.Home, p string) (string, error) {
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, "-") {
		if wd, err := e.getwd(); err == nil {
			p = filepath.Join(wd, p)
		}
	}
	if slug, ok := model.FindProjectDir(h.FS, p); ok {
		return slug, nil
	}
	return "", fmt.Errorf("no project folder for %s in %s", p, h.Dir)
}
