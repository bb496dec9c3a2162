package guard

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// The test binary doubles as the guarded command: GUARD_TEST_CHILD says
// what it does.
func TestMain(m *testing.M) {
	switch os.Getenv("GUARD_TEST_CHILD") {
	case "sleep":
		time.Sleep(time.Minute)
		os.Exit(0)
	case "grow":
		var keep [][]byte
		for {
			b := make([]byte, 16<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
			runtime.KeepAlive(keep)
		}
	case "exit3":
		os.Stdout.WriteString("out")
		os.Stderr.WriteString("err")
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func child(what string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GUARD_TEST_CHILD="+what)
	return cmd
}

func TestRunStopsAHang(t *testing.T) {
	res, err := Run(child("sleep"), Limits{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Killed != "timeout" || res.Elapsed > 10*time.Second {
		t.Errorf("a sleeping child was not stopped by the timeout: %v", res)
	}
}

func TestRunStopsARunaway(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: memory is not sampled here")
	}
	res, err := Run(child("grow"), Limits{Timeout: time.Minute, MaxRSS: 128 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Killed != "memory" || res.PeakRSS < 128<<20 {
		t.Errorf("a growing child was not stopped at 128 MiB: %v", res)
	}
}

func TestRunReportsExit(t *testing.T) {
	res, err := Run(child("exit3"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Code != 3 || string(res.Stdout) != "out" || string(res.Stderr) != "err" || res.Killed != "" || res.PeakRSS <= 0 {
		t.Errorf("got %v, stdout %q, stderr %q", res, res.Stdout, res.Stderr)
	}
}
