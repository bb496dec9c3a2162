//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memscope/memscope/demo"
	"github.com/memscope/memscope/internal/testenv"
	"github.com/memscope/memscope/model"
)

// diskFullVar names the folder TestDiskFullChild runs in: a size-limited
// file system TestDiskFullOnASizeLimitedFS mounted there.
const diskFullVar = "MEMSCOPE_TEST_DISKFULL_DIR"

// diskFullSize is the size of that file system: room for a demo home and
// the filler that takes the rest.
const diskFullSize = 24 << 20

// mountCommand is the command that runs sh -c script in a new mount
// namespace where the caller may mount a tmpfs: as root a plain mount
// namespace, else one in a new user namespace (unshare -r). ok is false,
// with the reason, when neither works here.
func mountCommand(t *testing.T) ([]string, string) {
	t.Helper()
	if _, err := exec.LookPath("unshare"); err != nil {
		return nil, "unshare is not installed"
	}
	probe := t.TempDir()
	var reasons []string
	for _, pre := range [][]string{{"unshare", "-m"}, {"unshare", "-rm"}} {
		cmd := exec.Command(pre[0], append(pre[1:], "sh", "-c", `mount -t tmpfs -o size=64k tmpfs "$1"`, "sh", probe)...)
		out, err := cmd.CombinedOutput()
		if err == nil {
			return pre, ""
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v: %s", strings.Join(pre, " "), err, bytes.TrimSpace(out)))
	}
	return nil, strings.Join(reasons, "; ")
}

// The disk-full and inode sweeps run on a real size-limited file system:
// a tmpfs mounted (in a mount namespace of their own) with size= for the
// free-space sweep and nr_inodes= for the inode sweep. Where no tmpfs can
// be mounted the test says why and skips.
func TestDiskFullOnASizeLimitedFS(t *testing.T) {
	t.Parallel()
	if !testenv.Long() {
		t.Skipf("long test (%s=1): free space and inodes swept on a size-limited tmpfs", testenv.Var)
	}
	pre, why := mountCommand(t)
	if pre == nil {
		t.Skipf("no size-limited file system can be mounted here: %s", why)
	}
	for _, mode := range []string{"bytes", "inodes"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			opt := fmt.Sprintf("size=%d", diskFullSize)
			if mode == "inodes" {
				opt += ",nr_inodes=4096"
			}
			script := `mount -t tmpfs -o "$1" tmpfs "$2" && exec "$3" -test.run='^TestDiskFullChild$' -test.v -test.count=1`
			cmd := exec.Command(pre[0], append(pre[1:], "sh", "-c", script, "sh", opt, dir, os.Args[0])...)
			cmd.Env = append(os.Environ(), diskFullVar+"="+dir, "MEMSCOPE_TEST_DISKFULL_MODE="+mode, testenv.Var+"=1")
			out, err := cmd.CombinedOutput()
			t.Logf("%s", out)
			if err != nil || !bytes.Contains(out, []byte("--- PASS: TestDiskFullChild")) {
				t.Fatalf("the sweep on the size-limited file system failed: %v", err)
			}
		})
	}
}

// fill leaves about free bytes (mode bytes) or free inodes (mode inodes)
// on the file system of dir, with files in dir/filler.
func fill(t *testing.T, dir, mode string, free int64) {
	t.Helper()
	filler := filepath.Join(dir, "filler")
	if err := os.MkdirAll(filler, 0o700); err != nil {
		t.Fatal(err)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	if mode == "inodes" {
		for i := int64(0); int64(st.Ffree) > free; i++ {
			f, err := os.Create(filepath.Join(filler, fmt.Sprint(i)))
			if err != nil {
				break
			}
			f.Close()
			syscall.Statfs(dir, &st)
		}
		return
	}
	avail := int64(st.Bavail) * st.Bsize
	if avail <= free {
		return
	}
	f, err := os.Create(filepath.Join(filler, "bytes"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Written, not sparse: a tmpfs counts the pages a file holds.
	if _, err := io.CopyN(f, zeroReader{}, avail-free); err != nil {
		t.Logf("filler stopped at %v", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestDiskFullChild is the sweep itself, in the folder of a size-limited
// file system (diskFullVar): for each write command (prune, undo, a
// rewind), on a fresh home each time, the free space (or inodes) left is
// swept from none up, a page (an inode) at a time, until the command
// succeeds three times in a row. Whatever the level: the user's data is
// exactly as before or exactly as after; no copy, temporary file or
// empty folder of memscope's is left anywhere; and a failed command
// leaves no journal entry (nothing for undo to present).
func TestDiskFullChild(t *testing.T) {
	base := os.Getenv(diskFullVar)
	if base == "" {
		t.Skip("runs only inside TestDiskFullOnASizeLimitedFS's mount")
	}
	mode := os.Getenv("MEMSCOPE_TEST_DISKFULL_MODE")
	unit := int64(4096)
	if mode == "inodes" {
		unit = 1
	}
	newEnv := func() *env {
		return &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" },
			userHome: func() (string, error) { return base, nil }, getwd: func() (string, error) { return base, nil },
			now:  func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
			root: model.MountFS(nil, filepath.ToSlash(base), model.DirFS(base)), version: "0.0.0-test"}
	}
	// Commands run in this process: childRun's helper is for another
	// process.
	runIn := func(args []string) int { return run(newEnv(), args) }
	for _, op := range append(slices.Clone(killOps), archiveOp("archive", "arch"), archiveOp("archive tar", "arch.tar.gz")) {
		t.Run(op.name, func(t *testing.T) {
			for _, d := range []string{"ref", "run", "filler"} {
				os.RemoveAll(filepath.Join(base, d))
			}
			// The reference run in the folder every level runs in: paths
			// (project slugs among them) are the same.
			ref := filepath.Join(base, "run")
			c := op.setup(t, ref)
			before := c.read()
			if code := runIn(c.args); code != 0 {
				t.Fatalf("%v without a full disk: exit %d", c.args, code)
			}
			after := c.read()
			os.RemoveAll(ref)
			// A page (an inode) at a time; an archive, which copies the
			// whole home, a sixteenth of what it writes at a time.
			step := unit
			if strings.HasPrefix(op.name, "archive") && mode == "bytes" {
				step = max(unit, int64(len(strings.Join(mapValues(after), "")))/16/unit*unit)
			}
			fails, oks, levels := 0, 0, 0
			for free := int64(0); oks < 3 && levels < 2000; free += step {
				levels++
				dir := filepath.Join(base, "run")
				c := op.setup(t, dir)
				own := memscopeFolders(c.roots)
				fill(t, base, mode, free)
				code := runIn(c.args)
				got := c.read()
				switch {
				case equalMaps(got, after):
					oks++
				case equalMaps(got, before):
					oks = 0
					fails++
					if code == 0 {
						t.Fatalf("%s free: exit 0 and nothing changed", fmt.Sprint(free))
					}
				default:
					t.Fatalf("%d %s free (exit %d): the data is neither as before nor as after: %d files, before %d, after %d; missing %q", free, mode, code, len(got), len(before), len(after), missing(after, got))
				}
				if left := ownLeftovers(c.roots); len(left) > 0 {
					t.Fatalf("%d %s free (exit %d): left %q", free, mode, code, left)
				}
				for _, p := range c.absent {
					if _, err := os.Lstat(p); err == nil && equalMaps(got, before) {
						t.Fatalf("%d %s free (exit %d): a failed command left %s", free, mode, code, p)
					}
				}
				if now := memscopeFolders(c.roots); equalMaps(got, before) && !equalMaps(now, own) {
					t.Fatalf("%d %s free: the failed command left memscope's folders %v (before: %v)", free, mode, now, own)
				}
				if equalMaps(got, before) && !c.again {
					// Nothing landed: undo has nothing of this command's
					// to present.
					os.RemoveAll(filepath.Join(base, "filler"))
					if code := runIn(c.undo); code == 0 && !equalMaps(c.read(), before) {
						t.Fatalf("%d %s free: undo changed the data of a command that never landed", free, mode)
					}
				}
				os.RemoveAll(filepath.Join(base, "filler"))
				os.RemoveAll(dir)
			}
			if oks < 3 {
				t.Fatalf("%v never succeeded in %d levels", c.args, levels)
			}
			t.Logf("%s: %d levels %d %s apart, %d failed cleanly, then succeeded", op.name, levels, step, mode, fails)
		})
	}
}

// memscopeFolders lists the .memscope folders under roots and what they
// hold.
func memscopeFolders(roots []string) map[string]string {
	out := map[string]string{}
	for _, r := range roots {
		filepath.WalkDir(r, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == ".memscope" {
				var names []string
				filepath.WalkDir(p, func(q string, e os.DirEntry, err error) error {
					if err == nil && q != p {
						names = append(names, strings.TrimPrefix(q, p))
					}
					return nil
				})
				out[p] = strings.Join(names, " ")
				return filepath.SkipDir
			}
			return nil
		})
	}
	return out
}

// archiveOp archives every swept kind of a demo home to dest (a folder,
// or a .tar.gz by its name) beside it. The archive is the data: a failed
// archive leaves nothing of it, not even an empty folder.
func archiveOp(name, dest string) killOp {
	return killOp{name: name, setup: func(t *testing.T, dir string) killCase {
		l, err := demo.Materialize(dir, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dir, "out", dest)
		read := func() map[string]string {
			if st, err := os.Stat(to); err == nil && !st.IsDir() {
				// Whole or absent: the archive verified it read back (its
				// folders' times make the bytes differ from run to run).
				return map[string]string{dest: "present"}
			}
			return readTree(to)
		}
		return killCase{args: []string{"archive", "--home", l.Home, "--older-than", "0", "--to", to}, read: read,
			roots: []string{dir}, absent: []string{to, filepath.Dir(to)}, again: true}
	}}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// missing lists the keys of want that got lacks or holds otherwise.
func missing(want, got map[string]string) []string {
	var out []string
	for k, v := range want {
		if got[k] != v {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out[:min(len(out), 5)]
}
