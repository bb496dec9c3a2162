package cleanup

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/scripts/memscope-hostile/hostilehome"
)

// linkLoopsHome is hostilehome's linkloops home: links out of the home
// (a folder like a project, twice, the outside root, a file-history
// folder, a paste, a debug file), loops and an inside debug/latest.
func linkLoopsHome(t *testing.T) (*model.Home, *hostilehome.Result) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "home")
	res, err := hostilehome.Write(dir, hostilehome.LinkLoops, hostilehome.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := model.OpenHome(dir, model.HomeFromFlag)
	if err != nil {
		t.Fatal(err)
	}
	return h, res
}

// The forecast and the archive walk only the home: no item lies through a
// link out of it or round a loop, each such link is named as not
// followed, the link that stays inside is followed, and no byte of an
// outside file reaches the archive.
func TestWalksStayInsideTheHome(t *testing.T) {
	h, res := linkLoopsHome(t)
	zero := 0
	// The home was just written: two days on, all of it is old.
	f := BuildForecast(Options{Home: h, Now: time.Now().Add(48 * time.Hour), Days: &zero})
	reasons := map[string]string{}
	for _, p := range f.Problems {
		reasons[p.File] = p.Reason
	}
	for link, target := range res.Links {
		inside := link == "debug/latest"
		for _, it := range f.Items {
			if !inside && (it.Path == link || strings.HasPrefix(it.Path, link+"/")) {
				t.Errorf("item %s lies through the link %s → %s", it.Path, link, target)
			}
		}
		switch {
		case inside:
			if !hasItem(f.Items, link) {
				t.Errorf("the inside link %s was not followed", link)
			}
		case !strings.Contains(reasons[link], "(not followed)"):
			t.Errorf("%s → %s: reported %q, want it named as not followed", link, target, reasons[link])
		}
	}
	items, err := f.ArchiveSelection(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, dest := range []string{"arch", "arch.tar.gz"} {
		to := filepath.Join(t.TempDir(), dest)
		rep, err := Archive(ArchiveOptions{Home: h, Items: items, To: to})
		if err != nil {
			t.Fatalf("%s: %v", dest, err)
		}
		outside := map[string]bool{}
		for _, sum := range res.Targets {
			outside[sum] = true
		}
		for _, af := range rep.Files {
			if outside[af.SHA256] {
				t.Errorf("%s: %s holds an outside file's bytes", dest, af.Path)
			}
		}
		if dest == "arch" {
			filepath.WalkDir(to, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					data, _ := os.ReadFile(p)
					sum := sha256.Sum256(data)
					if outside[hex.EncodeToString(sum[:])] {
						t.Errorf("%s holds an outside file's bytes", p)
					}
				}
				return nil
			})
		}
		if len(rep.Files) == 0 || !hasArchived(rep.Files, "debug/latest") {
			t.Errorf("%s: %d files archived, debug/latest among them: %v", dest, len(rep.Files), hasArchived(rep.Files, "debug/latest"))
		}
	}
}

func hasItem(items []Item, p string) bool {
	for _, it := range items {
		if it.Path == p {
			return true
		}
	}
	return false
}

func hasArchived(files []ArchivedFile, p string) bool {
	for _, f := range files {
		if f.Path == p {
			return true
		}
	}
	return false
}

// A link inside the home to a folder the walk reaches by its own name
// (projects/alias -> the main project) is walked once: the transcripts
// are listed, forecast and archived under the real name only, and the
// link is named.
func TestInsideFolderLinkWalkedOnce(t *testing.T) {
	h, res := linkLoopsHome(t)
	sf, probs := model.FindSessionFiles(h.FS)
	n := 0
	for _, tr := range sf.Transcripts {
		if strings.HasPrefix(tr.Path, "projects/alias/") {
			t.Errorf("transcript listed through the alias: %s", tr.Path)
		}
		if tr.ProjectSlug == res.Slug {
			n++
		}
	}
	if n == 0 {
		t.Fatal("the main project's transcripts are not listed under its own name")
	}
	named := false
	for _, p := range probs {
		named = named || p.File == "projects/alias" && strings.Contains(p.Reason, "the same folder as projects/"+res.Slug)
	}
	if !named {
		t.Errorf("the alias is not named: %v", probs)
	}
	zero := 0
	f := BuildForecast(Options{Home: h, Now: time.Now().Add(48 * time.Hour), Days: &zero})
	seen := map[string]bool{}
	for _, it := range f.Items {
		if strings.HasPrefix(it.Path, "projects/alias/") {
			t.Errorf("forecast item through the alias: %s", it.Path)
		}
		if it.Kind == KindTranscript {
			if seen[string(it.Session)] {
				t.Errorf("session %s forecast twice", it.Session)
			}
			seen[string(it.Session)] = true
		}
	}
}
