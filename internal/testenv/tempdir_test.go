package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain is the package's own Main, but in the child of
// TestMainRemovesItsFolder (childVar set), which does what a test binary
// does with its temporary folders: UseTemp, a folder and a file in each
// of TMPDIR and a folder made there, print where, and done.
func TestMain(m *testing.M) {
	if os.Getenv(childVar) == "" {
		Main(m)
	}
	done := UseTemp()
	dir, err := os.MkdirTemp("", "child-")
	for _, d := range []string{os.TempDir(), dir} {
		if err == nil {
			err = os.WriteFile(filepath.Join(d, "left.txt"), []byte("x"), 0o600)
		}
	}
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Printf("TMPDIR=%s\nTEMPDIR=%s\n", os.Getenv("TMPDIR"), dir)
	done()
	os.Exit(0)
}

func TestChooseTempParent(t *testing.T) {
	// room has enough for the default tests, not the long ones.
	room := &FSFacts{Tmpfs: true, Writable: true, Free: ShmMinFreeLong - 1}
	big := &FSFacts{Tmpfs: true, Writable: true, Free: ShmMinFreeLong}
	for _, c := range []struct {
		name string
		f    TempFacts
		want string
	}{
		{"a tmpfs with room", TempFacts{Shm: room}, Shm},
		{"the override wins over TMPDIR", TempFacts{Override: "/x/tests", TMPDIR: "/y", Shm: room}, "/x/tests"},
		{"the override wins over no tmpfs", TempFacts{Override: "/x/tests"}, "/x/tests"},
		{"the user's TMPDIR is kept", TempFacts{TMPDIR: "/var/tmp", Shm: room}, ""},
		{"no /dev/shm", TempFacts{}, ""},
		{"not a tmpfs", TempFacts{Shm: &FSFacts{Writable: true, Free: 20 << 30}}, ""},
		{"not writable", TempFacts{Shm: &FSFacts{Tmpfs: true, Free: 20 << 30}}, ""},
		{"under 1 GiB free", TempFacts{Shm: &FSFacts{Tmpfs: true, Writable: true, Free: ShmMinFree - 1}}, ""},
		{"exactly 1 GiB free", TempFacts{Shm: &FSFacts{Tmpfs: true, Writable: true, Free: ShmMinFree}}, Shm},
		{"the long tests need more", TempFacts{Shm: room, Long: true}, ""},
		{"the long tests with room", TempFacts{Shm: big, Long: true}, Shm},
	} {
		dir, why := ChooseTempParent(c.f)
		if dir != c.want || why == "" {
			t.Errorf("%s: ChooseTempParent(%+v) = %q (%s), want %q", c.name, c.f, dir, why, c.want)
		}
	}
}

// childVar makes the test binary TestMain's child.
const childVar = "MEMSCOPE_TESTENV_TEMP_CHILD"

// runTempChild runs TestMain's child with env and returns what it
// printed, by name.
func runTempChild(t *testing.T, env ...string) map[string]string {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childVar+"=1")
	for _, v := range []string{TempVar, "TMPDIR", Var} {
		cmd.Env = append(cmd.Env, v+"=")
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && (k == "TMPDIR" || k == "TEMPDIR") {
			got[k] = v
		}
	}
	if got["TMPDIR"] == "" || got["TEMPDIR"] == "" {
		t.Fatalf("child printed no folders:\n%s", out)
	}
	return got
}

// With TempVar set, a test binary's folders (TMPDIR, and what it makes
// in it) are in a folder of its own there, and that folder and everything
// in it is gone when the binary ends. With TMPDIR set instead, it is
// kept and nothing is made.
func TestMainRemovesItsFolder(t *testing.T) {
	parent := t.TempDir()
	got := runTempChild(t, TempVar+"="+parent)
	mine := got["TMPDIR"]
	if filepath.Dir(mine) != parent || !strings.HasPrefix(filepath.Base(mine), tempPrefix) {
		t.Errorf("TMPDIR %s, want a %s* folder in %s", mine, tempPrefix, parent)
	}
	if !strings.HasPrefix(got["TEMPDIR"], mine+string(filepath.Separator)) {
		t.Errorf("os.MkdirTemp made %s, not in TMPDIR %s", got["TEMPDIR"], mine)
	}
	if left, err := os.ReadDir(parent); err != nil || len(left) != 0 {
		t.Errorf("left in %s after the binary ended: %v (%v)", parent, left, err)
	}

	own := t.TempDir()
	got = runTempChild(t, TempVar+"=", "TMPDIR="+own)
	if got["TMPDIR"] != own || filepath.Dir(got["TEMPDIR"]) != own {
		t.Errorf("TMPDIR=%s set: the child used %v", own, got)
	}
	if left, err := os.ReadDir(own); err != nil || len(left) != 2 {
		t.Errorf("TMPDIR=%s set: it holds %v (%v), want the child's left.txt and folder", own, left, err)
	}
}

func TestTempDirPID(t *testing.T) {
	for name, want := range map[string]int{
		tempPrefix + "0000042": 42, tempPrefix + "0000042-0a1b2c3d": 42, tempPrefix + "12345678": 12345678,
		tempPrefix: 0, tempPrefix + "-1": 0, tempPrefix + "0000000": 0, tempPrefix + "+42": 0,
		"memscope-test-42": 0, "memscope-ui-00000042": 0, tempPrefix + "4x": 0,
	} {
		pid, ok := tempDirPID(name)
		if ok != (want > 0) || ok && pid != want {
			t.Errorf("tempDirPID(%q) = %d, %v; want %d", name, pid, ok, want)
		}
	}
}

// makeTemp's folder has one length, whatever the process id; a folder
// of its name already there is left alone.
func TestMakeTemp(t *testing.T) {
	parent := t.TempDir()
	first, err := makeTemp(parent)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(parent, fmt.Sprintf("%s%07d", tempPrefix, os.Getpid())); first != want {
		t.Errorf("makeTemp = %s, want %s", first, want)
	}
	os.WriteFile(filepath.Join(first, "kept"), nil, 0o600)
	second, err := makeTemp(parent)
	if err != nil || second == first || !strings.HasPrefix(second, first+"-") {
		t.Errorf("makeTemp again = %s (%v), want a new folder beside %s", second, err, first)
	}
	if _, err := os.Stat(filepath.Join(first, "kept")); err != nil {
		t.Errorf("the folder already there was touched: %v", err)
	}
}
