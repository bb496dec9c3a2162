package cli

import (
	"path/filepath"
	"testing"

	"github.com/memscope/memscope/config"
)

// The settings file's export_dir: ~/ is the user's home, a relative
// folder is taken from the current one, and without it exports go to the
// current folder.
func TestExportDirFromSettings(t *testing.T) {
	e, _, _ := testEnv(t)
	user, _ := e.userHome()
	wd := t.TempDir()
	e.getwd = func() (string, error) { return wd, nil }
	for _, c := range []struct{ set, want string }{
		{"~/exports", filepath.Join(user, "exports")},
		{"~", user},
		{"out/md", filepath.Join(wd, "out", "md")},
		{"/srv/x/../exports", "/srv/exports"},
		{"", wd},
	} {
		if got := exportDir(e, config.Config{ExportDir: c.set}); got != c.want {
			t.Errorf("export_dir %q: exports go to %q, want %q", c.set, got, c.want)
		}
	}
}
