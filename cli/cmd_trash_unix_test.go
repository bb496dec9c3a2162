//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/engine/store"
)

// An entry of the trash that is not a regular file (a named pipe, a
// symbolic link) is not listed and never opened, but the listing names
// it with its kind instead of skipping it silently.
func TestTrashReportsNonRegularEntries(t *testing.T) {
	t.Parallel()
	e, out, errb := testEnv(t)
	l, mem := demoMemory(t, e)
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	dir := filepath.Join(mem, store.TrashDir, "20261120-101010")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := os.Symlink(filepath.Join(mem, "MEMORY.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if code := run(e, append([]string{"trash"}, base...)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{
		store.TrashDir + "/20261120-101010/pipe.md: in the trash but is a named pipe, not a regular file",
		store.TrashDir + "/20261120-101010/link.md: in the trash but is a symbolic link",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("trash does not report %q:\n%s", want, out)
		}
	}
	out.Reset()
	run(e, append([]string{"trash", "--json"}, base...))
	var list struct {
		Problems []struct{ File, Reason string } `json:"problems"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil || len(list.Problems) != 2 {
		t.Fatalf("trash --json problems %+v (%v):\n%s", list.Problems, err, out)
	}
}

// A named pipe where MEMORY.md should be: lint says what is there and
// prune offers nothing that would write over it (it offered to "write the
// missing MEMORY.md" before), and --apply leaves the pipe as it was.
func TestFIFOMemoryIndexIsNamedNotOverwritten(t *testing.T) {
	t.Parallel()
	e, out, errb := testEnv(t)
	l, mem := demoMemory(t, e)
	index := filepath.Join(mem, "MEMORY.md")
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(index, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
	run(e, append([]string{"lint"}, base...))
	if !strings.Contains(out.String(), "MEMORY.md is a named pipe, not a regular file") || strings.Contains(out.String(), "rebuild it") {
		t.Errorf("lint does not say MEMORY.md is a named pipe, or offers to rebuild it:\n%s%s", out, errb)
	}
	out.Reset()
	errb.Reset()
	run(e, append([]string{"prune", "--json"}, base...))
	if strings.Contains(out.String(), `"rebuild"`) || !strings.Contains(out.String(), `"actions"`) {
		t.Errorf("prune offers to write MEMORY.md over a named pipe:\n%s%s", out, errb)
	}
	run(e, append([]string{"prune", "--apply"}, base...))
	if st, err := os.Lstat(index); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("MEMORY.md after prune --apply: %v, %v; want the named pipe left as it was", st, err)
	}
}
