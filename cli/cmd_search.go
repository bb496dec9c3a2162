package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memscope/memscope/engine/search"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var searchCommand = &command{
	name:  "search",
	usage: "memscope search QUERY [--home DIR] [--project PATH] [--in STORES] [--vault DIR] [--regex] [--case] [--since DATE] [--show-secrets] [--json]",
	summary: "find where something was said or stored, in every store at once, at the speed of grep\n\n" +
		"QUERY is a literal (case and accents of case ignored the Unicode way) or, with --regex, an RE2\n" +
		"expression; --case makes either case-sensitive. It matches the text a person would mean, never the\n" +
		"JSON around it: prompts, replies, thinking, tool calls' inputs and results and compaction summaries\n" +
		"in transcripts (main and subagents, and tool results saved to files); prompts and their pastes in\n" +
		"history.jsonl and the paste cache; memory files (frontmatter and body; auto, team and agent memory);\n" +
		"the CLAUDE.md files and rules projects load; and /rewind file-history backups. --in limits the\n" +
		"stores (transcripts,history,pastes,memory,claudemd,filehistory); --in vault searches the sessions only\n" +
		"the rescue vault still holds (those the sweep deleted; with other stores, both); --project limits the search to one\n" +
		"project (default: the whole home); --since drops what is older than a date (2026-11-20, an RFC 3339\n" +
		"time, or 7d / 12h ago).\n\n" +
		"Hits are grouped by file, newest first: the file, line, and for transcripts the session, message\n" +
		"uuid, role, time and whether the model still sees it (after the last compaction, or preserved by a\n" +
		"partial one), then the text around the match, marked «like this». Secrets the scanner finds are\n" +
		"masked unless --show-secrets. --json prints one object per hit as it is found (NDJSON). Exit 0\n" +
		"with hits, 1 without, 2 on an error, like grep.",
	run: steps(parseSearch, runSearch, showSearch),
}

// searchOptions are search's flags.
type searchOptions struct {
	home        homeFlags
	query       string
	project     string
	in          string
	regex       bool
	caseSens    bool
	since       string
	showSecrets bool
	json        bool
	// vault is --vault DIR: the vault --in vault reads.
	vault string
}

func parseSearch(e *env, args []string) (searchOptions, error) {
	var opts searchOptions
	fs := newFlags("search", &opts.home, &opts.json)
	fs.StringVar(&opts.project, "project", "", "only this project folder (or projects/ slug); default: the whole home")
	fs.StringVar(&opts.in, "in", "", "the stores to search, comma-separated: transcripts,history,pastes,memory,claudemd,filehistory, and vault: the sessions only the vault holds (default all but vault)")
	fs.StringVar(&opts.vault, "vault", "", "--in vault: the vault folder `DIR` (default $MEMSCOPE_VAULT, else $XDG_DATA_HOME/memscope/vault)")
	fs.BoolVar(&opts.regex, "regex", false, "read QUERY as an RE2 regular expression")
	fs.BoolVar(&opts.caseSens, "case", false, "match case")
	fs.StringVar(&opts.since, "since", "", "only what is newer than `DATE` (2026-11-20, an RFC 3339 time, or 7d, 12h: that long ago)")
	fs.BoolVar(&opts.showSecrets, "show-secrets", false, "show secrets in snippets instead of masking them")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	switch len(pos) {
	case 0:
		return opts, badUsagef("search needs a QUERY\nusage: %s", e.usage())
	case 1:
		opts.query = pos[0]
	default:
		return opts, badUsagef("unexpected argument %q (quote a query with spaces)\nusage: %s", pos[1], e.usage())
	}
	return opts, nil
}

// searchResult is how the search went; the hits were printed as found.
type searchResult struct {
	sum search.Summary
	// home is the home searched, for the text report's last line.
	home string
	// vault is the vault searched ("" none), vaultSum its part of sum.
	vault    string
	vaultSum search.Summary
}

// splitVault takes "vault" out of --in: what is left are the home's
// stores (none when vault was all of it), and whether vault was named.
func splitVault(in string) (string, bool, bool) {
	var rest []string
	named := false
	for _, part := range strings.Split(in, ",") {
		if strings.TrimSpace(part) == "vault" {
			named = true
			continue
		}
		rest = append(rest, part)
	}
	home := strings.Join(rest, ",")
	return home, named, !named || strings.TrimSpace(home) != ""
}

// runSearch searches and prints the hits as they come.
func runSearch(e *env, opts searchOptions) (searchResult, error) {
	q, err := search.Compile(opts.query, search.QueryOptions{Regex: opts.regex, Case: opts.caseSens})
	if err != nil {
		return searchResult{}, badUsage(err)
	}
	in, inVault, inHome := splitVault(opts.in)
	stores, err := search.ParseStores(in)
	if err != nil {
		return searchResult{}, badUsage(err)
	}
	since, err := parseSince(opts.since, e.now())
	if err != nil {
		return searchResult{}, badUsage(err)
	}
	o, err := e.openHome(&opts.home)
	if err != nil {
		return searchResult{}, err
	}
	defer o.close()
	defer model.HoldHome(o.home.Dir)() // the home it started with, opened once
	userHome, _ := e.userHome()
	so := search.Options{Home: o.home.FS, HomeDir: o.home.Dir, Root: o.root, UserHome: userHome, Getenv: e.getenv, Query: q, Stores: stores,
		Since: since, ShowSecrets: opts.showSecrets}
	if opts.project != "" {
		slug, err := projectSlug(e, o.home, opts.project)
		if err != nil {
			return searchResult{}, err
		}
		t, err := openMemory(e, o, opts.project)
		if err != nil {
			return searchResult{}, err
		}
		so.Project = &search.Project{Slug: slug, Dir: t.project}
	}
	w := bufio.NewWriter(e.stdout)
	p := &hitPrinter{w: w, json: opts.json}
	if !opts.json {
		p.w2 = bufio.NewWriter(humanOutput(e.stdout))
	}
	res := searchResult{home: o.home.Dir}
	if inHome {
		res.sum, err = search.Run(context.Background(), so, p.batch)
	}
	if inVault && err == nil {
		err = searchVault(e, o, opts, so, p, &res)
	}
	if ferr := p.flush(); err == nil {
		err = ferr
	}
	return res, err
}

// searchVault searches the transcripts (and their saved tool results)
// that only the vault holds, each hit labelled so (vault.SearchLost, which
// the app's search runs too), and adds its counts to res.
func searchVault(e *env, o *opened, opts searchOptions, so search.Options, p *hitPrinter, res *searchResult) error {
	v, err := openVault(e, o, opts.vault)
	if err != nil {
		return err
	}
	res.vault = v.Dir
	sum, err := v.SearchLost(context.Background(), o.home.FS, so, p.batch)
	res.vaultSum = sum
	res.sum.Add(sum)
	return err
}

// showSearch ends the report (text: what was searched and the problems;
// --json: problems on stderr) and says how the command ends: 0 with
// hits, 1 without.
func showSearch(e *env, opts searchOptions, r searchResult) error {
	s := r.sum
	if opts.json {
		for _, pr := range s.Problems {
			fmt.Fprintf(e.stderr, "memscope search: %s\n", model.SanitizeForTerminal(pr.Error()))
		}
	} else {
		w := humanOutput(e.stdout)
		if s.Hits > 0 {
			fmt.Fprintln(w)
		}
		where := model.SanitizeLine(r.home)
		if r.vault != "" {
			where += fmt.Sprintf(" and, in the vault %s, %s only it holds (%s with a hit: memscope vault restore SESSION puts one back)",
				model.SanitizeLine(r.vault), format.Count(r.vaultSum.Files, "file", "files"), format.Count(r.vaultSum.FilesWithHits, "file", "files"))
		}
		fmt.Fprintf(w, "%s in %s · searched %s, %s in %s\n", format.Count(s.Hits, "hit", "hits"), format.Count(s.FilesWithHits, "file", "files"),
			format.Count(s.Files, "file", "files"), format.Bytes(s.Bytes), where)
		for _, pr := range s.Problems {
			fmt.Fprintf(w, "  %s\n", model.SanitizeForTerminal(pr.Error()))
		}
	}
	if s.Hits == 0 {
		return exitStatus(exitRefused)
	}
	return nil
}

// hitPrinter prints hits as they come: NDJSON, or text grouped by file.
type hitPrinter struct {
	w    *bufio.Writer
	w2   *bufio.Writer
	json bool
	last string
	buf  bytes.Buffer
	line []byte // a hit's JSON line, reused
}

func (p *hitPrinter) batch(b search.Batch) error {
	for _, h := range b.Hits {
		if p.json {
			if line, ok := appendHitJSON(p.line[:0], &h); ok {
				p.line = line
				if _, err := p.w.Write(escapeTerminalRunes(line)); err != nil {
					return err
				}
				continue
			}
			p.buf.Reset()
			enc := json.NewEncoder(&p.buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(h); err != nil {
				return err
			}
			if _, err := p.w.Write(escapeTerminalRunes(p.buf.Bytes())); err != nil {
				return err
			}
			continue
		}
		if h.Key() != p.last {
			if p.last != "" {
				fmt.Fprintln(p.w2)
			}
			p.last = h.Key()
			fmt.Fprintln(p.w2, h.Group())
		}
		fmt.Fprintf(p.w2, "  %s\n      %s\n", h.Place(), markMatch(h))
	}
	// A batch is one file: let it out, so a long search shows as it goes.
	return p.flush()
}

func (p *hitPrinter) flush() error {
	if p.w2 != nil {
		if err := p.w2.Flush(); err != nil {
			return err
		}
	}
	return p.w.Flush()
}

// markMatch is the snippet with the match between « and ».
func markMatch(h search.Hit) string {
	s, m := h.Snippet, h.Match
	if m[0] < 0 || m[1] > len(s) || m[0] > m[1] {
		return s
	}
	return s[:m[0]] + "«" + s[m[0]:m[1]] + "»" + s[m[1]:]
}

// parseSince reads --since: a date, an RFC 3339 time, or a duration
// back from now (7d, 12h, 30m).
func parseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d >= 0 {
			return now.AddDate(0, 0, -d), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, errors.New("--since takes a date (2026-11-20), an RFC 3339 time, or how long ago (7d, 12h)")
}
