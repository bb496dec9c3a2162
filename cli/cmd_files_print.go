package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/memscope/memscope/engine/filehist"
	"github.com/memscope/memscope/internal/format"
)

func printFileHistorySessions(w io.Writer, home string, sessions []filehist.SessionSummary) {
	fmt.Fprintf(w, "home %s\n", home)
	if len(sessions) == 0 {
		fmt.Fprintln(w, "no session has file history (file-history/ is empty or missing)")
		return
	}
	fmt.Fprintf(w, "%s with file history, newest first (memscope files SESSION shows one):\n", format.Count(len(sessions), "session", "sessions"))
	for _, s := range sessions {
		tr := s.Transcript
		if tr == "" {
			tr = "(transcript gone)"
		}
		fmt.Fprintf(w, "  %s  %s  %11s %9s  %s\n", s.SessionID, format.Timestamp(s.ModTime), format.Count(s.Backups, "backup", "backups"), format.Bytes(s.Bytes), tr)
	}
}

func printFileHistory(w io.Writer, s *filehist.SessionFileHistory) {
	fmt.Fprintf(w, "session %s\n", s.SessionID)
	if s.Transcript != "" {
		fmt.Fprintf(w, "transcript %s\n", s.Transcript)
	} else {
		fmt.Fprintln(w, "transcript (none: turns and versions are unknown, only the backups are listed)")
	}
	if s.CWD != "" {
		fmt.Fprintf(w, "cwd %s\n", s.CWD)
	}
	if s.BackupDirExists {
		fmt.Fprintf(w, "backups %s\n", s.BackupDir)
	} else {
		fmt.Fprintf(w, "backups %s is missing (swept by cleanup, or never written)\n", s.BackupDir)
	}
	fmt.Fprintf(w, "\n%s (--turn UUID shows one, --rewind UUID restores the files as before it):\n", format.Count(len(s.Turns), "turn", "turns"))
	for _, t := range s.Turns {
		printTurn(w, t)
	}
	fmt.Fprintf(w, "\n%s (--file PATH, --diff V1..V2|disk, --restore V):\n", format.Count(len(s.Files), "tracked file", "tracked files"))
	for _, f := range s.Files {
		printTrackedFile(w, f, s.Turns)
	}
	if len(s.Unreferenced) > 0 {
		fmt.Fprintf(w, "\n%s no record names:\n", format.Count(len(s.Unreferenced), "backup", "backups"))
		for _, b := range s.Unreferenced {
			fmt.Fprintf(w, "  %s  %s\n", b.Path, format.Bytes(b.Size))
		}
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(w, "\n%s a missing backup:\n", format.Count(len(s.Missing), "record names", "records name"))
		for _, m := range s.Missing {
			fmt.Fprintf(w, "  %s v%d  %s  (turn %s)\n", m.TrackingPath, m.Version, m.BackupFileName, format.ShortID(m.Turn))
		}
	}
	if len(s.Problems) > 0 {
		fmt.Fprintf(w, "\n%s:\n", format.Count(len(s.Problems), "problem", "problems"))
		for _, p := range s.Problems {
			fmt.Fprintf(w, "  %s\n", p.Error())
		}
	}
}

func printTurn(w io.Writer, t filehist.FileTurn) {
	prompt := t.Prompt
	if prompt == "" {
		prompt = "(prompt not in the transcript)"
	}
	note := ""
	if t.Synthesized {
		note = "  [snapshot record missing: rebuilt from the previous one and the turn's deltas]"
	}
	fmt.Fprintf(w, "  %s  %s  %s%s\n", format.Timestamp(t.Time), format.ShortID(t.MessageID), prompt, note)
	for _, f := range t.Touched {
		fmt.Fprintf(w, "      %-9s  %-30s %s\n", f.How, f.TrackingPath, versionText(f.Version, f.Absent))
	}
}

func versionText(v int, absent bool) string {
	if absent {
		return fmt.Sprintf("v%d (did not exist)", v)
	}
	return fmt.Sprintf("v%d", v)
}

func printTrackedFile(w io.Writer, f filehist.TrackedFile, turns []filehist.FileTurn) {
	fmt.Fprintf(w, "  %s  → %s\n", f.TrackingPath, f.Target)
	for _, v := range f.Versions {
		var state string
		switch {
		case v.Absent:
			state = "did not exist"
		case !v.BackupExists:
			state = "backup missing: " + v.BackupFileName
		default:
			state = fmt.Sprintf("%-9s %s", format.Bytes(v.Size), v.BackupFileName)
		}
		if v.Unreferenced {
			state += "  (no record names it)"
		}
		var ts []string
		for _, id := range v.Turns {
			ts = append(ts, format.ShortID(id))
		}
		at := ""
		if len(ts) > 0 {
			at = "  turns " + strings.Join(ts, ",")
		}
		fmt.Fprintf(w, "    v%-3d %s  %s%s\n", v.Version, format.Timestamp(v.BackupTime), state, at)
	}
}

// printPlan prints a restore plan, with the diffs when asked.
func printPlan(w io.Writer, p *filehist.RestorePlan, diffs bool) {
	for _, s := range p.Steps {
		what := s.Describe()
		fmt.Fprintf(w, "  %-40s %s\n", s.Target, what)
		if diffs && s.Diff != "" && s.Refused == "" {
			for _, l := range strings.SplitAfter(s.Diff, "\n") {
				if l != "" {
					fmt.Fprintf(w, "    %s", l)
				}
			}
		}
	}
}
