package overview

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/doctor"
	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// The labels of the vault and gate lines' parts.
const (
	PartKept     = "kept"
	PartSessions = "sessions"
	PartSkipped  = "skipped"
)

// Places are memscope's own files the lines read besides the home: the
// rescue vault's folder and the gate's record. Both are "" for the demo
// (its home is not the user's, and neither is the user's vault) and when
// the user's folders cannot be found.
type Places struct {
	VaultDir string
	GateLog  string
}

// FindPlaces finds the vault (vault.Dir without a flag) and the gate's
// record (gate.StateDir) as `memscope vault` and `memscope gate log`
// find them; none for the demo (demo says home is it).
func FindPlaces(getenv func(string) string, userHome func() (string, error), home *model.Home, demo bool) Places {
	if home == nil || demo {
		return Places{}
	}
	var p Places
	if dir, err := vault.Dir("", getenv, userHome, home.Dir); err == nil {
		p.VaultDir = dir
	}
	if dir, err := gate.StateDir(getenv, userHome); err == nil {
		p.GateLog = filepath.Join(dir, gate.LogName)
	}
	return p
}

// CoverVault marks in f what the rescue vault in dir holds as it is
// (cleanup.Forecast.CoverVault), as `memscope cleanup --forecast`, the
// Retention pane and the vault line say it. No folder, an empty vault or
// an unreadable one leaves f as it is; the summary and the error say which.
func CoverVault(f *cleanup.Forecast, root fs.FS, dir string) (vault.Summary, error) {
	if dir == "" {
		return vault.Summary{}, nil
	}
	sum, err := vault.Open(dir, root, nil).Summarize()
	if err != nil || sum.Sessions == 0 {
		return sum, err
	}
	f.CoverVault(sum.Dir, sum.LastSync, sum.Safe)
	return sum, nil
}

// vaultLine says which of the sessions the cleanup deletes within the
// horizon the rescue vault holds as they are (what `memscope cleanup
// --forecast --within N` says under "rescue vault").
func vaultLine(s *Source) Line {
	l := Line{Filter: "soon", Command: fmt.Sprintf("memscope cleanup --forecast --within %d", s.horizon())}
	if s.Places.VaultDir == "" {
		l.Text = "no rescue vault here: memscope vault sync keeps what the cleanup deletes"
		return l
	}
	f := forecast(s)
	f.Items = slices.Clone(f.Items) // CoverVault marks them
	sum, err := CoverVault(&f, s.Env.Root, s.Places.VaultDir)
	if err != nil {
		l.Text, l.Needs = "the rescue vault is unreadable: "+model.SanitizeLine(err.Error()), true
		return l
	}
	if sum.Sessions == 0 {
		l.Text = "no rescue vault yet: memscope vault sync keeps the sessions the cleanup deletes"
		return l
	}
	c := f.Vault
	l.Count = c.Sessions - c.Kept
	l.Needs = l.Count > 0
	l.Parts = []Part{{PartKept, c.Kept}, {PartSessions, c.Sessions}}
	switch {
	case c.Sessions == 0:
		l.Text = fmt.Sprintf("the vault keeps %s; the cleanup deletes none within %d days", format.Count(sum.Sessions, "session", "sessions"), f.HorizonDays)
	case l.Count == 0:
		l.Text = fmt.Sprintf("the vault holds all %s the cleanup deletes within %d days, as they are", format.Count(c.Sessions, "session", "sessions"), f.HorizonDays)
	default:
		l.Text = fmt.Sprintf("%d of the %s the cleanup deletes within %d days %s not in the vault as they are: memscope vault sync",
			l.Count, format.Count(c.Sessions, "session", "sessions"), f.HorizonDays, map[bool]string{true: "is", false: "are"}[l.Count == 1])
	}
	return l
}

// heldLine counts the memory writes the gate held (denied or asked
// about) today, as `memscope gate log --held` lists them.
func heldLine(s *Source) Line {
	l := Line{Command: "memscope gate log --held"}
	if s.Places.GateLog == "" {
		l.Text = "the write gate's record is not looked at here"
		return l
	}
	recs, bad, err := gate.ReadLog(s.Places.GateLog)
	if err != nil {
		l.Text, l.Needs = "the gate's record is unreadable: "+model.SanitizeLine(err.Error()), true
		return l
	}
	var txt string
	l.Count, txt = gate.HeldToday(recs, s.Env.Now)
	l.Needs = l.Count > 0
	l.Parts = []Part{{PartSkipped, bad}}
	if l.Count > 0 {
		l.Text = txt + ": the Review pane lists the project's"
	} else {
		l.Text = "the write gate held no memory write today"
	}
	return l
}

// doctorLine is `memscope doctor`'s summary: the newest client version
// against the versions memscope checked, and the record types and
// fields it does not know.
func doctorLine(s *Source) Line {
	s.sharedPass()
	r := doctor.ScanCached(s.Env.Home.FS, s.Cache, s.Env.Home.Dir)
	return Line{Count: len(r.Unknown), Needs: r.BeyondChecked || !r.Clean(), Text: r.Summary(), Command: "memscope doctor"}
}

// replacedLine counts the sessions whose history before a compaction
// exists only in a .replaced copy: the client's local GC rewrote the
// transcript after a compaction, dropping the rows before the boundary,
// and kept the older file in the session's before-cleanup folder (the
// cleanup sweep deletes it with the session). Part "gone" counts those
// whose rewritten transcript is gone too, so the copy is all there is.
// `memscope sessions` lists each session's copies (earlierHistory); the
// Replay pane lists them as the session's earlier history.
func replacedLine(s *Source) Line {
	sf, _ := model.FindSessionFiles(s.Env.Home.FS)
	c := model.CountEarlierCopies(sf)
	l := Line{Count: c.Sessions, Needs: c.Gone > 0, Command: "memscope sessions",
		Parts: []Part{{"copies", c.Copies}, {"gone", c.Gone}}}
	switch {
	case l.Count == 0:
		l.Text = "no session's history lives only in a .replaced copy"
	case c.Gone == 0:
		l.Text = fmt.Sprintf("%s history before a compaction only in a .replaced copy (the client rewrote the transcript): Replay lists it as earlier history", format.Count(l.Count, "session has its", "sessions have their"))
	default:
		l.Text = fmt.Sprintf("%s history before a compaction only in a .replaced copy, %d with no transcript left: Replay lists it as earlier history", format.Count(l.Count, "session has its", "sessions have their"), c.Gone)
	}
	return l
}

// droppedLine counts the rules the user gave that compactions in the
// last Horizon days dropped, over every transcript of the home: the
// loss ledger `memscope replay --lost --all` prints (its boundaries with
// a time inside the horizon, their lost items of kind rule).
func droppedLine(s *Source) Line {
	since := s.Env.Now.AddDate(0, 0, -s.horizon())
	// Only transcripts with a compaction inside the horizon are decoded
	// (DroppedRules counts those only).
	s.sharedPass()
	ss, _ := ledger.HomeSince(s.Env.Home.FS, s.Env.Home.Dir, s.Cache, since)
	rules, compactions, sessions := DroppedRules(ss, since)
	l := Line{Count: rules, Needs: rules > 0, Command: "memscope replay --lost --all",
		Parts: []Part{{"compactions", compactions}, {PartSessions, sessions}}}
	switch {
	case compactions == 0:
		l.Text = fmt.Sprintf("no compaction in the last %d days", s.horizon())
	case rules == 0:
		l.Text = fmt.Sprintf("%s in the last %d days dropped none of the rules you gave", format.Count(compactions, "compaction", "compactions"), s.horizon())
	default:
		l.Text = fmt.Sprintf("%s you gave dropped by %s in the last %d days: Replay shows each at its compaction, s keeps it", format.Count(rules, "rule", "rules"), format.Count(compactions, "compaction", "compactions"), s.horizon())
	}
	return l
}

// DroppedRules counts, over the ledgers ss, the rules lost at compactions
// since since, the compactions, and the sessions they are in.
func DroppedRules(ss []ledger.Session, since time.Time) (rules, compactions, sessions int) {
	for _, se := range ss {
		in := false
		for _, b := range se.Boundaries {
			if b.Time.Before(since) {
				continue
			}
			in = true
			compactions++
			rules += b.Count(ledger.KindRule)
		}
		if in {
			sessions++
		}
	}
	return rules, compactions, sessions
}
