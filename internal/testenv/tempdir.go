package testenv

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Where a test binary's temporary folders go (t.TempDir, os.MkdirTemp("",
// ...), and its child processes'). Creating a file costs far more CPU on
// some disk file systems than on a tmpfs (on the measured machine's ext4,
// about 1.2 ms a file, most of it skipping recently deleted inodes), and
// the tests create tens of thousands; so when nobody said where, a test
// binary puts its folders on /dev/shm if that is a tmpfs with room.
const (
	// TempVar names the folder test binaries make their temporary
	// folder in, whatever TMPDIR says.
	TempVar = "MEMSCOPE_TEST_TMPDIR"
	// Shm is the tmpfs tried when neither TempVar nor TMPDIR is set.
	Shm = "/dev/shm"
	// ShmMinFree is the room Shm must have. The default tests write
	// little at once: the largest, cli's huge-files test, peaks at
	// 30 MiB (compact --out's copy of a 33 MiB run of NUL bytes; the
	// other runs are sparse), measured with du.
	ShmMinFree = 1 << 30
	// ShmMinFreeLong is the room it must have under MEMSCOPE_LONG=1,
	// where that copy is 1 GiB, beside the other long tests' files of
	// up to 10 MiB, with two test binaries running at once.
	ShmMinFreeLong = 4 << 30
	// tempPrefix starts the name of a test binary's folder, before its
	// process id: tempDirPID reads it back to remove the folders of
	// binaries that died before removing theirs.
	tempPrefix = "memscope-t"
)

// FSFacts are what statfs and access say of a folder.
type FSFacts struct {
	// Tmpfs says the folder is a tmpfs (its statfs type is TMPFS_MAGIC).
	Tmpfs bool
	// Writable says this user may create files in it.
	Writable bool
	// Free is the bytes this user may still write there.
	Free uint64
}

// TempFacts are what ChooseTempParent decides on.
type TempFacts struct {
	// Override is TempVar's value, TMPDIR the environment's ("" when
	// unset).
	Override, TMPDIR string
	// Shm is what Shm is; nil when it is not there or not on Linux.
	Shm *FSFacts
	// Long says the long tests run (MEMSCOPE_LONG=1).
	Long bool
}

// ChooseTempParent is the rule: the folder a test binary makes its own
// temporary folder in, or "" to leave TMPDIR as it is, and why.
//
//   - TempVar set: there, whatever else holds.
//   - TMPDIR set: "" (the user's, or the test binary's that started this
//     process, kept).
//   - Shm a writable tmpfs with ShmMinFree free (ShmMinFreeLong when
//     Long): Shm.
//   - else "": the system's temporary folder (/tmp).
func ChooseTempParent(f TempFacts) (dir, why string) {
	switch {
	case f.Override != "":
		return f.Override, TempVar + " is set"
	case f.TMPDIR != "":
		return "", "TMPDIR is set"
	case f.Shm == nil:
		return "", Shm + " is not there"
	case !f.Shm.Tmpfs:
		return "", Shm + " is not a tmpfs"
	case !f.Shm.Writable:
		return "", Shm + " is not writable"
	}
	need, what := uint64(ShmMinFree), ""
	if f.Long {
		need, what = ShmMinFreeLong, " (the long tests)"
	}
	if f.Shm.Free < need {
		return "", fmt.Sprintf("%s has %d MiB free, under the %d MiB needed%s", Shm, f.Shm.Free>>20, need>>20, what)
	}
	return Shm, fmt.Sprintf("%s is a tmpfs with %d MiB free", Shm, f.Shm.Free>>20)
}

// UseTemp applies ChooseTempParent to this process: when it names a
// folder, a new folder of this binary's is made there, TMPDIR set to it
// (so t.TempDir and child processes use it) and TempVar unset (so a
// child, seeing TMPDIR, keeps it). The returned func removes that folder;
// it does nothing when TMPDIR was left alone. Folders there of this
// user's test binaries that are gone (killed by a timeout, say) are
// removed first. Under -v it says what it chose.
func UseTemp() (done func()) {
	// Long and testing.Verbose read the test flags.
	if !flag.Parsed() {
		flag.Parse()
	}
	f := TempFacts{Override: os.Getenv(TempVar), TMPDIR: os.Getenv("TMPDIR"), Long: Long()}
	if f.Override == "" && f.TMPDIR == "" {
		f.Shm = shmFacts(Shm)
	}
	parent, why := ChooseTempParent(f)
	verbose := func(format string, args ...any) {
		if testing.Verbose() {
			fmt.Printf("testenv: "+format+"\n", args...)
		}
	}
	if parent == "" {
		if f.TMPDIR == "" {
			verbose("temporary folders in %s: %s", os.TempDir(), why)
		}
		return func() {}
	}
	removeStaleTemps(parent)
	dir, err := makeTemp(parent)
	if err != nil {
		verbose("temporary folders in %s: %s, but %v", os.TempDir(), why, err)
		return func() {}
	}
	os.Setenv("TMPDIR", dir)
	os.Unsetenv(TempVar)
	verbose("temporary folders in %s: %s", dir, why)
	return func() {
		os.Setenv("TMPDIR", f.TMPDIR)
		if f.TMPDIR == "" {
			os.Unsetenv("TMPDIR")
		}
		if err := os.RemoveAll(dir); err != nil {
			fmt.Fprintf(os.Stderr, "testenv: %v\n", err)
		}
	}
}

// Main is the TestMain of a test package that writes files: its
// temporary folders are where UseTemp puts them, and removed at the end.
func Main(m *testing.M) {
	done := UseTemp()
	code := m.Run()
	done()
	os.Exit(code)
}

// makeTemp makes this binary's folder in parent: tempPrefix and the
// process id, seven digits (Linux's largest is 4194304), so its path has
// one length in every run, as /tmp's own folders had, and paths under it
// cut the same; it is 26 characters in /dev/shm. A folder of that name
// left by a dead process is not taken over: a random part is added.
func makeTemp(parent string) (string, error) {
	name := fmt.Sprintf("%s%07d", tempPrefix, os.Getpid())
	var err error
	for i := range 100 {
		dir := filepath.Join(parent, name)
		if i > 0 {
			dir += fmt.Sprintf("-%08x", rand.Uint32())
		}
		if err = os.Mkdir(dir, 0o700); err == nil {
			return dir, nil
		} else if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", err
}

// tempDirPID is the process id in the name of a test binary's folder
// (makeTemp's).
func tempDirPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0 && digits[0] != '+'
}

// removeStaleTemps removes the folders in parent that test binaries of
// this user made (tempPrefix) and whose process is gone.
func removeStaleTemps(parent string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, ok := tempDirPID(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() || !gone(pid) {
			continue
		}
		p := filepath.Join(parent, e.Name())
		if ownedByMe(p) {
			os.RemoveAll(p)
		}
	}
}
