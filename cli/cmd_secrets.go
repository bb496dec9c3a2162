package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/leftover"
	"github.com/memscope/memscope/engine/scan"
	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var secretsCommand = &command{
	name:  "secrets",
	usage: "memscope secrets [--home DIR] [--project PATH] [--show] [--scrub [--only RULE|ID,...] [--idle MIN] [--yes [--plan FP]]] [--restore ID] [--forget ID] [--json]",
	summary: `secrets at rest in the whole Claude home: find them, scrub them, put them back

Scans every store: transcripts (main and subagent: prompts, replies, tool
inputs and results, request bodies), history.jsonl, the paste cache,
file-history backups, tool-results files, memory (auto, team, agent, the
trash), CLAUDE.md and rules, settings, shell snapshots, plans, todos,
debug logs and memscope's own undo journals (reported, not scrubbed);
and, outside the home, each project's CLAUDE.md files, rules
and settings and ~/.claude.json (reported, never scrubbed: they are
yours to edit). The client's own credential store (.credentials.json)
is not read. Each finding says the rule, the store, the file and line,
the JSON path of the string inside the record, the session and turn,
and a masked excerpt; secrets are never printed in full unless --show.
Exit 1 when secrets are found.
  --project PATH     only that project's transcripts, memory, history lines
                     and pastes
  --show             print each secret in full (for your eyes only)
  --scrub            plan to replace each secret by [REDACTED:<rule>] inside
                     the JSON string (or text) that holds it, every other
                     byte unchanged; prints the plan, its diff (secrets
                     masked) and its fingerprint, and writes nothing
  --only LIST        with --scrub: only these rules or finding ids; a
                     secret in a settings file (configuration Claude Code
                     uses) is scrubbed only when its id is named
  --idle MIN         with --scrub: leave alone files changed in the last
                     MIN minutes (default 10): Claude Code may be writing
                     them; files open in a running process and transcripts
                     of a running session are left alone too
  --yes              with --scrub: do it; each file is replaced atomically
                     (checked against the disk at the rename, mode and
                     mtime kept) and read back
  --plan FP          with --yes: only if the plan is still the one shown
  --restore ID       put back what scrub ID replaced, byte for byte, with
                     mtimes (lines appended since are kept)
  --forget ID        delete scrub ID's copy of the secrets it replaced
The bytes a scrub replaces are kept, mode 0600, in
<home>/.memscope/scrub/<ID>/: until --forget ID, the secrets still exist
on disk, in that copy. Scrubs are not in the memory undo journal: the
copy is kept until you forget it, never dropped by a cap or undone by u.

--json prints {home, project, stores: [{store, files, bytes, findings}],
findings: [{id, rule, message, store, file, outside, line, column, offset,
length, jsonPath, recordType, part, session, agent, project, turn, time,
excerpt, sameAs, secret (with --show)}], copies: [{id, time, dir, files,
secrets}], problems, bytes}; --scrub {fingerprint, plan: {home, files:
[{file, store, session, current, mode, after, edits: [{finding, rule,
line, jsonPath, part, offset, length, marker, excerpt}], diff, refused}],
skipped: [{finding, file, why}]}, applied, result: {id, files, secrets,
copy, notes}}; --restore and --forget {id, files, secrets, ...}.`,
	run: steps(parseSecrets, runSecrets, showSecrets),
}

// secretsOptions are the flags of memscope secrets.
type secretsOptions struct {
	home            homeFlags
	project         string
	json, show      bool
	scrub, yes      bool
	only            string
	plan            string
	idle            int
	restore, forget string
}

// secretsReport is what one mode found or did.
type secretsReport struct {
	json any
	// stream, when set, prints the JSON instead of json, element by
	// element (a scan or a plan of a million secrets is not held).
	stream jsonPart
	text   func(w io.Writer)
	code   int
}

func parseSecrets(e *env, args []string) (secretsOptions, error) {
	var o secretsOptions
	fs := newFlags("secrets", &o.home, &o.json)
	fs.StringVar(&o.project, "project", "", "only this project's files (a folder)")
	fs.BoolVar(&o.show, "show", false, "print each secret in full")
	fs.BoolVar(&o.scrub, "scrub", false, "plan the replacement of each secret by a marker (--yes does it)")
	fs.StringVar(&o.only, "only", "", "with --scrub: rules or finding ids, comma-separated")
	fs.IntVar(&o.idle, "idle", int(secrets.DefaultIdle/time.Minute), "with --scrub: leave files changed in the last N minutes alone")
	fs.BoolVar(&o.yes, "yes", false, "with --scrub: write it")
	fs.StringVar(&o.plan, "plan", "", "with --yes: only if the plan still has this fingerprint")
	fs.StringVar(&o.restore, "restore", "", "put back what scrub ID replaced")
	fs.StringVar(&o.forget, "forget", "", "delete scrub ID's copy of the secrets")
	if err := parseFlagsOnly(e, fs, args); err != nil {
		return o, err
	}
	modes := 0
	for _, set := range []bool{o.scrub, o.restore != "", o.forget != ""} {
		if set {
			modes++
		}
	}
	switch {
	case modes > 1:
		return o, badUsagef("--scrub, --restore and --forget go one at a time")
	case !o.scrub && (o.only != "" || o.yes):
		return o, badUsagef("--only and --yes go with --scrub")
	case o.plan != "" && !o.yes:
		return o, badUsagef("--plan goes with --yes")
	case o.idle < 0:
		return o, badUsagef("--idle %d: want minutes, 0 or more", o.idle)
	case o.show && modes > 0:
		return o, badUsagef("--show goes with the scan only")
	}
	return o, nil
}

func runSecrets(e *env, o secretsOptions) (secretsReport, error) {
	h, err := e.openHome(&o.home)
	if err != nil {
		return secretsReport{}, err
	}
	defer h.close()
	ao := secrets.ApplyOptions{Home: h.home, Write: e.writer(), Now: e.now(),
		Busy: secrets.BusyOptions{Root: e.root, Now: e.now(), Idle: time.Duration(o.idle) * time.Minute}}
	if o.idle == 0 {
		ao.Busy.Idle = time.Nanosecond
	}
	switch {
	case o.restore != "":
		if err := writableHome(e, h); err != nil {
			return secretsReport{}, err
		}
		res, err := secrets.Restore(ao, o.restore)
		if err != nil {
			return secretsReport{}, noCopyInput(err)
		}
		return secretsReport{json: res, text: func(w io.Writer) {
			fmt.Fprintf(w, "restored scrub %s: %s put back in %s\n", res.ID, format.Count(res.Secrets, "secret", "secrets"), format.Count(len(res.Files), "file", "files"))
			for _, f := range res.Files {
				fmt.Fprintf(w, "  %s\n", f)
			}
			for _, n := range res.Notes {
				fmt.Fprintf(w, "note: %s\n", n)
			}
			if res.Copy == "" {
				fmt.Fprintln(w, "the copy is deleted: the secrets are back in the files, and only there")
			}
		}}, nil
	case o.forget != "":
		if err := writableHome(e, h); err != nil {
			return secretsReport{}, err
		}
		c, err := secrets.Forget(ao, o.forget)
		if err != nil {
			return secretsReport{}, noCopyInput(err)
		}
		return secretsReport{json: c, text: func(w io.Writer) {
			fmt.Fprintf(w, "forgot scrub %s: deleted %s, the copy of %s it replaced in %s\n", c.ID, c.Dir,
				format.Count(c.Secrets, "secret", "secrets"), format.Count(len(c.Files), "file", "files"))
			fmt.Fprintln(w, "that scrub can no longer be restored")
		}}, nil
	}
	project := ""
	if o.project != "" {
		if project, err = absFrom(e, o.project); err != nil {
			return secretsReport{}, err
		}
	}
	userHome, _ := e.userHome()
	so := secrets.Options{Home: h.home, Root: h.root, UserHome: userHome, Getenv: e.getenv, Project: project,
		Leftovers: leftover.HomeCopies(h.root, h.home.Dir, e.now())}
	if !o.scrub && o.json {
		// The findings go out as the scan hands them over.
		s := secrets.Begin(so)
		rep := secretsReport{stream: streamFindings(s, o.show)}
		if s.Count() > 0 {
			rep.code = 1
		}
		return rep, nil
	}
	if !o.scrub {
		r := secrets.Scan(so)
		rep := secretsReport{text: func(w io.Writer) { printSecrets(w, r, o.show) }}
		if len(r.Findings) > 0 {
			rep.code = 1
		}
		return rep, nil
	}
	var sel secrets.Selection
	if o.only != "" {
		for _, s := range strings.Split(o.only, ",") {
			if s = strings.TrimSpace(s); s != "" {
				sel = append(sel, s)
			}
		}
	}
	p := secrets.PlanScrubEach(so, secrets.Begin(so).Each, sel, ao.Busy)
	fp := p.Fingerprint()
	if o.yes && o.plan != "" && o.plan != fp {
		return secretsReport{}, fmt.Errorf("scrub refused, nothing was written: the plan is not the one shown as %s (now %s): the files changed since, or --only or --project differ; look at the plan again", o.plan, fp)
	}
	if !o.yes || p.Writes() == 0 {
		return secretsReport{stream: streamPlan(map[string]any{"fingerprint": fp, "applied": false}, p), text: func(w io.Writer) {
			printScrubPlan(w, p)
			switch {
			case p.Writes() == 0:
				fmt.Fprintln(w, "nothing to scrub")
			default:
				fmt.Fprintf(w, "nothing was written: run again with --yes --plan %s to scrub exactly this\n", fp)
			}
		}}, nil
	}
	if err := writableHome(e, h); err != nil {
		return secretsReport{}, err
	}
	res, err := secrets.Apply(ao, p)
	if err != nil {
		return secretsReport{}, err
	}
	rep := secretsReport{stream: streamPlan(map[string]any{"fingerprint": fp, "applied": true, "result": res}, p), text: func(w io.Writer) {
		fmt.Fprintf(w, "scrubbed %s in %s:\n", format.Count(res.Secrets, "secret", "secrets"), format.Count(len(res.Files), "file", "files"))
		for _, f := range res.Files {
			fmt.Fprintf(w, "  %s\n", f)
		}
		printSkipped(w, p)
		fmt.Fprintf(w, "the replaced bytes are kept in %s (mode 0600): until you run\n  memscope secrets --forget %s\nthe secrets still exist on disk, in that copy. memscope secrets --restore %s puts them back.\n", res.Copy, res.ID, res.ID)
	}}
	if len(p.Skipped) > 0 || p.Writes() < len(p.Files) {
		rep.code = 1
	}
	return rep, nil
}

// noCopyInput makes an unknown scrub id a bad input (exit 2).
func noCopyInput(err error) error {
	if errors.Is(err, secrets.ErrNoCopy) {
		return badInput(err)
	}
	return err
}

// secretsShown is the --json of --show: the findings with their secrets
// (after the report's other fields).
type secretsShown struct {
	secrets.Report
	Findings []secrets.RevealedFinding `json:"findings"`
}

// streamFindings prints a scan's --json (secretsShown's with show),
// each finding as the scan hands it over.
func streamFindings(s *secrets.Scanning, show bool) jsonPart {
	r := s.Report
	if s.Count() == 0 {
		if show {
			return jsonValue(secretsShown{Report: r, Findings: []secrets.RevealedFinding{}})
		}
		return jsonValue(r)
	}
	var v any
	if show {
		v = secretsShown{Report: r, Findings: []secrets.RevealedFinding{{Finding: secrets.Finding{ID: streamToken}}}}
	} else {
		r.Findings = []secrets.Finding{{ID: streamToken}}
		v = r
	}
	return jsonStream(v, func(yield func(jsonPart) error) error {
		var err error
		s.Each(func(f *secrets.Finding) {
			if err != nil {
				return
			}
			if show {
				err = yield(jsonValue(secrets.RevealedFinding{Finding: *f, SecretText: f.Secret()}))
			} else {
				err = yield(jsonValue(f))
			}
		})
		return err
	})
}

// streamPlan prints a scrub's --json: head's fields and "plan", the
// plan's files and each file's edits written one by one.
func streamPlan(head map[string]any, p secrets.Plan) jsonPart {
	if len(p.Files) == 0 {
		head["plan"] = p
		return jsonValue(head)
	}
	shell := p
	shell.Files = []secrets.PlanFile{{File: streamToken}}
	head["plan"] = shell
	return jsonStream(head, func(yield func(jsonPart) error) error {
		for _, f := range p.Files {
			part := jsonValue(f)
			if f.Edits.Len() > 0 {
				edits := f.Edits
				f.Edits = secrets.EditsOf(secrets.Edit{Finding: streamToken})
				part = jsonStream(f, func(yield func(jsonPart) error) error {
					for e := range edits.All() {
						if err := yield(jsonValue(&e)); err != nil {
							return err
						}
					}
					return nil
				})
			}
			if err := yield(part); err != nil {
				return err
			}
		}
		return nil
	})
}

// writableHome refuses a write to a home memscope cannot write (an
// archive, a read-only folder).
func writableHome(e *env, h *opened) error {
	if err := model.ProbeWritable(e.writer(), h.home.Dir); err != nil {
		return model.AsReadOnly(h.home.Dir, err)
	}
	return nil
}

func showSecrets(e *env, o secretsOptions, r secretsReport) error {
	var err error
	if o.json && r.stream != nil {
		err = writeJSONPart(e.stdout, r.stream)
	} else {
		err = e.output(o.json, r.json, r.text)
	}
	if err != nil {
		return err
	}
	if r.code != 0 {
		return exitStatus(r.code)
	}
	return nil
}

// printSecrets prints the findings grouped by store, one line each, the
// repeats of one secret folded under its first sighting.
func printSecrets(w io.Writer, r secrets.Report, show bool) {
	if len(r.Findings) == 0 {
		fmt.Fprintf(w, "secrets at rest in %s: none found in %s read\n", r.Home, format.Bytes(r.Bytes))
	} else {
		fmt.Fprintf(w, "secrets at rest in %s: %s (%s) in %s read\n", r.Home,
			format.Count(len(r.Findings), "finding", "findings"), format.Count(r.Distinct(), "distinct secret", "distinct secrets"), format.Bytes(r.Bytes))
	}
	var read []string
	for _, sc := range r.Stores {
		if sc.Files > 0 {
			read = append(read, fmt.Sprintf("%s %d", sc.Store, sc.Files))
		}
	}
	fmt.Fprintf(w, "files read: %s\n", strings.Join(read, ", "))
	// A repeat folds under its first sighting only in the same store:
	// folded under another store's, a store's heading had nothing under
	// it (a memory file holding a secret first seen in a transcript).
	storeOf := map[string]secrets.Store{}
	for _, f := range r.Findings {
		storeOf[f.ID] = f.Store
	}
	folded := func(f secrets.Finding) bool { return !show && f.SameAs != "" && storeOf[f.SameAs] == f.Store }
	repeats := map[string]int{}
	for _, f := range r.Findings {
		if folded(f) {
			repeats[f.SameAs]++
		}
	}
	for _, sc := range r.Stores {
		if sc.Findings == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%s, %s read):\n", sc.Store, format.Count(sc.Findings, "finding", "findings"), format.Count(sc.Files, "file", "files"))
		for _, f := range r.Findings {
			if f.Store != sc.Store || folded(f) {
				continue
			}
			fmt.Fprintf(w, "  %s  %-26s %s\n", f.ID, f.Rule, model.SanitizeLine(f.Where()))
			ctx := f.Context()
			if n := repeats[f.ID]; n > 0 {
				ctx = append(ctx, fmt.Sprintf("and %s of the same secret", format.Count(n, "more place", "more places")))
			}
			if f.SameAs != "" {
				ctx = append(ctx, "same secret as "+f.SameAs)
			}
			if f.Session == "" && f.Project != "" {
				ctx = append(ctx, "project "+f.Project)
			}
			val := f.Excerpt
			if show {
				val = f.Secret()
			}
			fmt.Fprintf(w, "      %s  %s\n", model.SanitizeLine(val), strings.Join(ctx, " · "))
		}
	}
	if len(r.Findings) > 0 && !show {
		fmt.Fprintln(w, "\nsecrets are masked (--show prints them); memscope secrets --scrub plans their removal")
	}
	for _, c := range r.Copies {
		fmt.Fprintf(w, "scrub copy %s (%s): %s from %s still on disk in %s (memscope secrets --forget %s)\n",
			c.ID, format.Timestamp(c.Time), format.Count(c.Secrets, "secret", "secrets"), format.Count(len(c.Files), "file", "files"), c.Dir, c.ID)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "problem: %s\n", model.SanitizeLine(p.Error()))
	}
}

// printScrubPlan prints the plan file by file with its masked diff.
func printScrubPlan(w io.Writer, p secrets.Plan) {
	fmt.Fprintf(w, "scrub plan for %s: %s in %s\n", p.Home, format.Count(p.Secrets(), "secret", "secrets"), format.Count(p.Writes(), "file", "files"))
	files := append([]secrets.PlanFile(nil), p.Files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Refused == "" && files[j].Refused != "" })
	for _, f := range files {
		if f.Refused != "" {
			fmt.Fprintf(w, "\n  LEFT ALONE %s (%s): %s\n", f.File, format.Count(f.Edits.Len(), "secret", "secrets"), f.Refused)
			continue
		}
		rules := map[scan.RuleID]int{}
		for e := range f.Edits.All() {
			rules[e.Rule]++
		}
		var names []string
		for r, n := range rules {
			names = append(names, fmt.Sprintf("%s×%d", r, n))
		}
		sort.Strings(names)
		fmt.Fprintf(w, "\n  %s (%s; %s)\n", f.File, f.Store, strings.Join(names, ", "))
		for _, l := range strings.Split(strings.TrimSuffix(f.Diff, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", model.SanitizeLine(l))
		}
	}
	printSkipped(w, p)
}

func printSkipped(w io.Writer, p secrets.Plan) {
	for _, s := range p.Skipped {
		fmt.Fprintf(w, "  not scrubbed: %s %s: %s\n", s.Finding, model.SanitizeLine(s.File), s.Why)
	}
}
