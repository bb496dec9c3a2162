package model

import (
	"os"
	"strconv"
	"strings"
)

// memscope's own hidden files carry the id of the process that made them,
// so a later memscope tells a copy a running write is using from one an
// interrupted write left (see OwnCopy), by asking whether that process
// still lives (and holds the journal lock) rather than by the copy's age:
//
//	.<name>.memscope-<pid>-<random>       the atomic writer's temporary file
//	.<name>.memscope-<pid>-stage-<n>      a store change's staged file
//	.<name>.memscope-<pid>-remove-<n>     a file set aside while it is removed
//	.memscope-<pid>-probe-<random>        an empty probe (ProbeWritable)
//
// Names written before the pid was in them (".<name>.memscope-<random>",
// ".<name>.memscope-stage-<n>-<pid>", ".memscope-write-test-<random>") are
// still recognized, with PID 0.

// ownMark is what every name of memscope's own hidden files holds.
const ownMark = ".memscope-"

// OwnPrefix is the start of every hidden name this process gives a copy
// of the file base: CreateTemp patterns and staged names begin with it.
func OwnPrefix(base string) string {
	return "." + base + ownMark + strconv.Itoa(os.Getpid()) + "-"
}

// OwnProbePattern is the CreateTemp pattern of ProbeWritable's probe.
func OwnProbePattern() string {
	return ownMark + strconv.Itoa(os.Getpid()) + "-probe-*"
}

// OwnCopy is what the name of one of memscope's hidden files says.
type OwnCopy struct {
	// Of is the name (in the same folder) of the file it copies; "" for
	// a probe. For a temporary file of a staged file, Of is the staged
	// name: OriginalOf follows the chain.
	Of string
	// PID is the process that made it; 0 for names from before memscope
	// wrote it in.
	PID int
	// Tag is "temp", "stage", "remove" or "probe".
	Tag string
}

// ParseOwnCopy reads a file name (no folder) as one of memscope's hidden
// files; ok is false for any other name, so nothing but memscope's own
// copies is ever taken for one.
func ParseOwnCopy(name string) (c OwnCopy, ok bool) {
	if !strings.HasPrefix(name, ".") {
		return c, false
	}
	i := strings.LastIndex(name, ownMark)
	if i < 0 {
		return c, false
	}
	rest := name[i+len(ownMark):]
	if i == 0 {
		// A probe: ".memscope-<pid>-probe-…" or ".memscope-write-test-…".
		if v, ok := strings.CutPrefix(rest, "write-test-"); ok && v != "" {
			return OwnCopy{Tag: "probe"}, true
		}
		pid, tail, ok := cutPID(rest)
		if !ok || !strings.HasPrefix(tail, "probe-") {
			return c, false
		}
		return OwnCopy{PID: pid, Tag: "probe"}, true
	}
	c.Of = name[1:i]
	if c.Of == "" {
		return c, false
	}
	if pid, tail, ok := cutPID(rest); ok {
		c.PID = pid
		switch {
		case strings.HasPrefix(tail, "stage-"):
			c.Tag = "stage"
		case strings.HasPrefix(tail, "remove-"):
			c.Tag = "remove"
		case allDigits(tail):
			c.Tag = "temp"
		default:
			return OwnCopy{}, false
		}
		return c, true
	}
	// Before the pid came first.
	switch {
	case allDigits(rest):
		c.Tag = "temp"
	case strings.HasPrefix(rest, "stage-"):
		c.Tag = "stage"
	case strings.HasPrefix(rest, "remove-"):
		c.Tag = "remove"
	default:
		return OwnCopy{}, false
	}
	return c, true
}

// OriginalOf is the user's file a hidden copy named name stands for: the
// staged file's own temporary file copies the same file the staged one
// does.
func OriginalOf(name string) string {
	for {
		c, ok := ParseOwnCopy(name)
		if !ok {
			return name
		}
		if c.Of == "" {
			return ""
		}
		name = c.Of
	}
}

// cutPID reads "<pid>-" at the start of s.
func cutPID(s string) (int, string, bool) {
	head, tail, found := strings.Cut(s, "-")
	if !found || !allDigits(head) || tail == "" {
		return 0, "", false
	}
	pid, err := strconv.Atoi(head)
	if err != nil || pid <= 0 {
		return 0, "", false
	}
	return pid, tail, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ScrubCopyDir is the folder of the home where a secrets scrub keeps the
// bytes it replaced (engine/secrets), one folder per scrub; a scrub,
// restore or forget holds the lock of the journal ScrubJournal meanwhile.
// engine/leftover reads both to tell a killed scrub's empty folder from
// one in use.
const (
	ScrubCopyDir = ".memscope/scrub"
	ScrubJournal = ScrubCopyDir + "/copies"
)
