package secrets

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// DefaultIdle is how long a file must have been left alone before a scrub
// touches it: Claude Code appends to a running session's transcript (and
// to history.jsonl) at every turn.
const DefaultIdle = 10 * time.Minute

// BusyOptions say how to tell that Claude Code may be writing a file.
type BusyOptions struct {
	// Root is the machine from "/": /proc/<pid>/fd is read through it (a
	// file some process holds open is busy), and /proc/<pid> tells
	// whether the process of a live session record (sessions/<pid>.json)
	// still runs. nil checks the mtime only.
	Root fs.FS
	// Idle is how long ago a file must have changed last (DefaultIdle
	// when zero).
	Idle time.Duration
	Now  time.Time
}

// busyChecker answers whether a file is busy, from one look at the
// running processes.
type busyChecker struct {
	o BusyOptions
	// open maps absolute paths to a process holding them open.
	open map[string]int
	// live maps the sessions of running interactive clients to their pid.
	live map[model.SessionID]int
}

func newBusyChecker(o BusyOptions, home *model.Home) *busyChecker {
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	b := &busyChecker{o: o, open: map[string]int{}, live: map[model.SessionID]int{}}
	if o.Root == nil {
		return b
	}
	procs, _ := fs.ReadDir(o.Root, "proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		dir := "proc/" + p.Name() + "/fd"
		fds, err := fs.ReadDir(o.Root, dir)
		if err != nil {
			continue // another user's process, or gone meanwhile
		}
		for _, fd := range fds {
			if t, err := fs.ReadLink(o.Root, dir+"/"+fd.Name()); err == nil && strings.HasPrefix(t, "/") {
				b.open[path.Clean(t)] = pid
			}
		}
	}
	recs, _ := model.ReadLiveSessions(home.FS)
	for _, r := range recs {
		if r.SessionID == "" {
			continue
		}
		if _, err := fs.Stat(o.Root, "proc/"+strconv.Itoa(r.PID)); err == nil {
			b.live[r.SessionID] = r.PID
		}
	}
	return b
}

// why says why the file abs (changed last at mod, of session sid) must
// not be touched now, or "" when it may be.
func (b *busyChecker) why(abs string, mod time.Time, sid model.SessionID, transcript bool) string {
	if pid, ok := b.open[path.Clean(abs)]; ok {
		return fmt.Sprintf("open in process %d: Claude Code may be writing it", pid)
	}
	if pid, ok := b.live[sid]; ok && sid != "" && transcript {
		return fmt.Sprintf("its session is running (process %d)", pid)
	}
	if age := b.o.Now.Sub(mod); age < b.o.Idle {
		return fmt.Sprintf("changed %s ago (less than %s): Claude Code may be writing it", roundAge(age), roundAge(b.o.Idle))
	}
	return ""
}

func roundAge(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Minute {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}
