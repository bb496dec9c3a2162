package cli

import (
	"strings"
	"syscall"
	"testing"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/faultfs"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// In a home whose memory folder refuses writes (EROFS or EACCES injected:
// tests may run as root, where chmod stops nothing) the write commands
// exit 1 naming the folder and change nothing; the read commands work;
// once the folder is writable again the writes go through.
func TestWriteCommandsInReadOnlyHome(t *testing.T) {
	t.Parallel()
	for _, errno := range []syscall.Errno{syscall.EROFS, syscall.EACCES} {
		t.Run(errno.Error(), func(t *testing.T) {
			e, out, errb := testEnv(t)
			l, mem := demoMemory(t, e)
			s, _ := store.Open(mem, nil)
			if _, err := s.Retype("user_timezone.md", model.TypeProject, store.WriteOptions{Now: e.now()}); err != nil {
				t.Fatal(err)
			}
			f := &faultfs.FS{Step: faultfs.StepCreateTemp, Persist: true, Err: errno}
			e.writes = f
			base := []string{"--home", l.Home, "--project", l.Project("shop-api")}
			before := testenv.Files(t, l.Home)
			tests := []struct {
				args []string
				code int
			}{
				{append([]string{"prune", "--apply"}, base...), 1},
				{append([]string{"undo"}, base...), 1},
				{[]string{"extract", demo.SessionRewind, "--home", l.Home, "--write"}, 1},
				{append([]string{"prune"}, base...), 0},
				{append([]string{"undo", "--list"}, base...), 0},
				{[]string{"extract", demo.SessionRewind, "--home", l.Home}, 0},
			}
			for _, tt := range tests {
				out.Reset()
				errb.Reset()
				code := run(e, tt.args)
				if code != tt.code {
					t.Errorf("%v: exit %d, want %d (%s)", tt.args, code, tt.code, errb)
				}
				if tt.code == 1 && !strings.Contains(errb.String(), "read-only: memscope cannot write in "+mem) {
					t.Errorf("%v: stderr %q does not name the read-only folder %s", tt.args, errb, mem)
				}
			}
			sameTree(t, "after the refused writes", before, testenv.Files(t, l.Home))
			f.Heal()
			for _, args := range [][]string{append([]string{"prune", "--apply"}, base...), append([]string{"undo"}, base...)} {
				if code := run(e, args); code != 0 {
					t.Errorf("%v once writable: exit %d (%s)", args, code, errb)
				}
			}
		})
	}
}
