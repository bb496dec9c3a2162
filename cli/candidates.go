package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/extract"
	"github.com/memscope/memscope/engine/scan"
	memstore "github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// This file holds the memory candidates that extraction proposes, shown
// and saved the same way by extract and by compact --flush.

// savedMemories is what --write did.
type savedMemories struct {
	// Written lists the memories saved; Failed those that were not.
	Written []writtenMemory `json:"written"`
	Failed  []failedWrite   `json:"failed"`
}

// writtenMemory is a candidate saved through the store.
type writtenMemory struct {
	Name string           `json:"name"`
	Type model.MemoryType `json:"type"`
	// Path is the new file, relative to the memory folder.
	Path string `json:"path"`
	// Change is the journal id `memscope undo` reverts.
	Change string `json:"change"`
	// Findings are scan findings that did not block (or were forced).
	Findings []scan.Finding `json:"findings,omitempty"`
}

// failedWrite is a candidate that was not saved.
type failedWrite struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
	// Blocked is set when the security scan refused it (--force writes it).
	Blocked  bool           `json:"blocked,omitempty"`
	Findings []scan.Finding `json:"findings,omitempty"`
}

// saveCandidates creates each candidate in the store, with its index
// line, one journaled change each (so `memscope undo` takes them back one
// by one). A write the security scan blocks, or that fails, is reported
// and the others still go ahead.
func saveCandidates(store *memstore.Store, cs []extract.Candidate, now time.Time, force bool) savedMemories {
	out := savedMemories{Written: []writtenMemory{}, Failed: []failedWrite{}}
	for _, c := range cs {
		m := memstore.NewMemory{Name: c.Name, Type: c.Type.MemoryType(), Description: c.Description, Body: c.Body}
		ch, err := store.Create(m, memstore.WriteOptions{Now: now, SessionID: c.Provenance.SessionID, Force: force})
		if err != nil {
			f := failedWrite{Name: c.Name, Reason: err.Error()}
			var blocked *memstore.ScanBlockedError
			if errors.As(err, &blocked) {
				f.Blocked, f.Findings = true, blocked.Findings
			}
			out.Failed = append(out.Failed, f)
			continue
		}
		wm := writtenMemory{Name: c.Name, Type: m.Type, Change: ch.ID, Findings: ch.Findings}
		for _, f := range ch.Files {
			if f.Action == memstore.FileCreated && f.Path != model.MemoryIndexName {
				wm.Path = f.Path
			}
		}
		out.Written = append(out.Written, wm)
	}
	return out
}

// printExtraction prints candidates in full (type, name, description,
// provenance, the rule that proposed it, the body), then the duplicates
// and the rejections with their reasons. Secrets in the user's words are
// redacted: the terminal and any log are no place for them (--json keeps
// the words exact, for tools that decide themselves).
func printExtraction(w io.Writer, r extract.Result) {
	fmt.Fprintf(w, "\n%s\n", format.Count(len(r.Candidates), "candidate", "candidates"))
	for i, c := range r.Candidates {
		fmt.Fprintf(w, "%d. %-9s %s\n", i+1, c.Type, scan.RedactSecrets(c.Name))
		fmt.Fprintf(w, "   description  %s\n", scan.RedactSecrets(c.Description))
		fmt.Fprintf(w, "   why          %s\n", c.Reason)
		fmt.Fprintf(w, "   from         session %s, message %s\n", c.Provenance.SessionID, c.Provenance.MessageUUID)
		fmt.Fprintf(w, "   quote        %q\n", scan.RedactSecrets(c.Provenance.Quote))
		fmt.Fprintln(w, "   body")
		for line := range strings.SplitSeq(strings.TrimRight(scan.RedactSecrets(c.Body), "\n"), "\n") {
			fmt.Fprintf(w, "     %s\n", line)
		}
	}
	if len(r.Duplicates) > 0 {
		fmt.Fprintf(w, "\n%s of existing memories (left out)\n", format.Count(len(r.Duplicates), "duplicate", "duplicates"))
		for _, d := range r.Duplicates {
			fmt.Fprintf(w, "- %s repeats %s (similarity %.2f): %q, message %s\n", scan.RedactSecrets(d.Candidate.Name), d.Matches, d.Similarity, scan.RedactSecrets(d.Candidate.Provenance.Quote), d.Candidate.Provenance.MessageUUID)
		}
	}
	if len(r.Rejected) > 0 {
		fmt.Fprintf(w, "\n%s by the exclusion list\n", format.Count(len(r.Rejected), "sentence rejected", "sentences rejected"))
		for _, x := range r.Rejected {
			fmt.Fprintf(w, "- %s (%s): %q, message %s\n", x.Reason, x.Rule, scan.RedactSecrets(x.Provenance.Quote), x.Provenance.MessageUUID)
		}
	}
}

// printSaved says what --write did, or how to save the candidates.
func printSaved(w io.Writer, s savedMemories, wrote bool, dir, project string, candidates int) {
	if !wrote {
		if candidates > 0 {
			fmt.Fprintf(w, "\nnothing written; --write saves the candidates into %s\n", dir)
		}
		return
	}
	fmt.Fprintln(w)
	for _, m := range s.Written {
		fmt.Fprintf(w, "written   %s (%s, with its index line; journal change %s)\n", m.Path, m.Name, m.Change)
		for _, f := range m.Findings {
			fmt.Fprintf(w, "          note: %s\n", f)
		}
	}
	for _, f := range s.Failed {
		if !f.Blocked {
			fmt.Fprintf(w, "FAILED    %s: %s\n", f.Name, f.Reason)
			continue
		}
		fmt.Fprintf(w, "BLOCKED   %s: the security scan found %s; nothing written\n", f.Name, format.Count(len(f.Findings), "high-severity issue", "high-severity issues"))
		for _, fd := range f.Findings {
			fmt.Fprintf(w, "          %s\n", fd)
		}
	}
	if len(s.Written) == 0 && len(s.Failed) == 0 {
		fmt.Fprintln(w, "nothing to write")
	}
	if len(s.Written) > 0 {
		fmt.Fprintf(w, "each memory is one change: memscope undo --project %s takes back the newest\n", project)
	}
	if blocked := countBlocked(s.Failed); blocked > 0 {
		fmt.Fprintf(w, "%d blocked by the security scan; --force writes them anyway\n", blocked)
	}
}

func countBlocked(fs []failedWrite) int {
	n := 0
	for _, f := range fs {
		if f.Blocked {
			n++
		}
	}
	return n
}
