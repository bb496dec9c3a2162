// Package guard runs a command under a time limit and a memory cap, so a
// test of a command that may hang (a named pipe) or run away (a link to
// /dev/zero, a 1 GB line) fails instead of hanging or exhausting the
// machine, and says how much memory the command took at its peak. Only
// tests import it.
package guard

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Limits bound one run. Zero fields take the defaults.
type Limits struct {
	// Timeout is how long the command may run (default 20 s).
	Timeout time.Duration
	// MaxRSS is the resident memory, in bytes, past which the command is
	// killed (default 1 GiB). It is checked every 10 ms from /proc, so a
	// command may go somewhat past it before it is stopped; where /proc
	// is missing only the timeout applies.
	MaxRSS int64
}

// Result is what one run did.
type Result struct {
	// Code is the exit code (-1 when killed).
	Code           int
	Stdout, Stderr []byte
	Elapsed        time.Duration
	// PeakRSS is the most resident memory the command had, in bytes (the
	// kernel's own count where it keeps one, else what was sampled).
	PeakRSS int64
	// Killed is "timeout" or "memory" when the command was stopped.
	Killed string
}

// String is a one-line account for test logs.
func (r Result) String() string {
	s := fmt.Sprintf("exit %d in %v, peak RSS %.1f MiB", r.Code, r.Elapsed.Round(time.Millisecond), float64(r.PeakRSS)/(1<<20))
	if r.Killed != "" {
		s += ", killed: " + r.Killed
	}
	return s
}

// Run starts cmd (its Stdout and Stderr must be unset) and waits for it
// within l.
func Run(cmd *exec.Cmd, l Limits) (Result, error) {
	if l.Timeout == 0 {
		l.Timeout = 20 * time.Second
	}
	if l.MaxRSS == 0 {
		l.MaxRSS = 1 << 30
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(l.Timeout)
	defer deadline.Stop()
	var res Result
	var sampled int64
wait:
	for {
		select {
		case <-done:
			break wait
		case <-deadline.C:
			res.Killed = "timeout"
		case <-tick.C:
			rss := rssOf(cmd.Process.Pid)
			sampled = max(sampled, rss)
			if rss > l.MaxRSS {
				res.Killed = "memory"
			}
		}
		if res.Killed != "" {
			_ = cmd.Process.Kill()
			<-done
			break
		}
	}
	res.Elapsed = time.Since(start)
	res.Stdout, res.Stderr = out.Bytes(), errb.Bytes()
	res.Code = cmd.ProcessState.ExitCode()
	res.PeakRSS = max(sampled, maxRSS(cmd.ProcessState))
	return res, nil
}

// rssOf is the resident memory of process pid in bytes, 0 when unknown.
func rssOf(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			if fields := strings.Fields(v); len(fields) > 0 {
				n, _ := strconv.ParseInt(fields[0], 10, 64)
				return n << 10
			}
		}
	}
	return 0
}
