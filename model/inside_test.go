package model_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// linkHome is a home with links of every sort, and an outside folder.
func linkHome(t *testing.T) (home, outside string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on windows")
	}
	base := t.TempDir()
	home, outside = filepath.Join(base, "home"), filepath.Join(base, "outside")
	for _, d := range []string{home + "/projects/p/sub", home + "/debug", outside} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{home + "/debug/log.txt", home + "/projects/p/sub/x.jsonl", outside + "/secret"} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"projects/out":       outside,
		"projects/outrel":    "../../outside",
		"projects/p/climb":   "../../../outside/secret",
		"projects/p/loopA":   "loopB",
		"projects/p/loopB":   "loopA",
		"projects/p/self":    ".",
		"projects/p/up":      "..",
		"projects/p/top":     home,
		"projects/p/sub/up2": "../..",
		"projects/p/down":    "sub",
		"projects/p/chain":   "down/x.jsonl",
		"debug/latest":       home + "/debug/log.txt",
		"debug/rel":          "log.txt",
		"debug/dangling":     "missing.txt",
	} {
		if err := os.Symlink(target, filepath.Join(home, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	return home, outside
}

func TestStatInside(t *testing.T) {
	home, _ := linkHome(t)
	fsys := model.DirFS(home)
	// Followed: links that stay inside and make no loop.
	for name, wantDir := range map[string]bool{
		"projects/p/down":  true,
		"projects/p/chain": false,
		"debug/latest":     false,
		"debug/rel":        false,
		"projects/p":       true,
	} {
		info, err := model.StatInside(fsys, name)
		if err != nil || info.IsDir() != wantDir {
			t.Errorf("%s: %v, %v; want followed", name, info, err)
		}
	}
	// Not followed, with the reason.
	for name, outside := range map[string]bool{
		"projects/out":       true,
		"projects/outrel":    true,
		"projects/p/climb":   true,
		"projects/p/loopA":   false,
		"projects/p/self":    false,
		"projects/p/up":      false,
		"projects/p/top":     false,
		"projects/p/sub/up2": false,
	} {
		_, err := model.StatInside(fsys, name)
		var le *model.LinkError
		if !errors.As(err, &le) || le.Outside != outside || !model.IsLinkNotFollowed(err) {
			t.Errorf("%s: %v; want a link not followed (outside %v)", name, err, outside)
		}
	}
	if _, err := model.StatInside(fsys, "debug/dangling"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dangling: %v", err)
	}
	// A file system that does not know its folder on disk places every
	// absolute target outside.
	sub, _ := fs.Sub(fsys, "debug")
	if _, err := model.StatInside(sub, "latest"); err == nil {
		t.Error("an absolute link was followed where the folder on disk is not known")
	}
}

// A home reached through a link of its own still places absolute targets
// through its real path inside.
func TestStatInsideHomeBehindLink(t *testing.T) {
	home, _ := linkHome(t)
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(home, alias); err != nil {
		t.Fatal(err)
	}
	if _, err := model.StatInside(model.DirFS(alias), "debug/latest"); err != nil {
		t.Errorf("debug/latest through the alias: %v", err)
	}
}

// FindSessionFiles lists the transcripts inside the home only, and
// names every link it did not follow.
func TestFindSessionFilesStaysInside(t *testing.T) {
	home, outside := linkHome(t)
	if err := os.WriteFile(filepath.Join(outside, "s.jsonl"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sf, probs := model.FindSessionFiles(model.DirFS(home))
	for _, tr := range sf.Transcripts {
		if tr.ProjectSlug != "p" {
			t.Errorf("transcript %s found through a link", tr.Path)
		}
	}
	named := map[string]string{}
	for _, p := range probs {
		named[p.File] = p.Reason
	}
	for l, want := range map[string]string{
		"projects/out":     "outside the home (not followed)",
		"projects/outrel":  "outside the home (not followed)",
		"projects/p/self":  "makes a loop (not followed)",
		"projects/p/up":    "makes a loop (not followed)",
		"projects/p/loopA": "makes a loop (not followed)",
		"projects/p/top":   "makes a loop (not followed)",
	} {
		if !strings.HasSuffix(named[l], want) {
			t.Errorf("%s: reported %q, want …%q", l, named[l], want)
		}
	}
}
