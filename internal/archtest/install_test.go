package archtest

import (
	"os/exec"
	"path"
	"strings"
	"testing"
)

// go install ./... installs every main package under the name of its
// folder: the developer tools must say memscope in theirs (they were
// installed as gen, hostile and writer, names that collide with anything).
func TestInstalledNamesSayMemscope(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Name}} {{.ImportPath}}", "github.com/memscope/memscope/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	mains := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, pkg, _ := strings.Cut(line, " ")
		if name != "main" {
			continue
		}
		mains++
		if bin := path.Base(pkg); !strings.HasPrefix(bin, "memscope") {
			t.Errorf("%s installs as %q: name its folder memscope-…", pkg, bin)
		}
	}
	if mains < 2 {
		t.Fatalf("found %d main packages; the listing is wrong", mains)
	}
}
