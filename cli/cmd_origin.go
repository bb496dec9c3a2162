package cli

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var originCommand = &command{
	name:  "origin",
	usage: "memscope origin [FILE] [--project PATH] [--json]",
	summary: "where each memory file came from: the session, message, subagent and prompt of every Write/Edit/MultiEdit on it in the transcripts, " +
		"whether the call succeeded, checked against the frontmatter stamps and memscope's journal",
	run: steps(parseOrigin, runOrigin, showOrigin),
}

// originOptions are origin's flags.
type originOptions struct {
	home    homeFlags
	project string
	// file is the memory file asked about; "" lists every one.
	file  string
	json  bool
	cache cacheFlags
}

// originResult is the provenance of a project's memory, and the file
// asked about.
type originResult struct {
	project string
	prov    provenance.Project
	// one is the file asked about; nil for the list.
	one *provenance.Origin
	// gone are calls on memory files no longer on disk.
	gone []provenance.Write
}

func parseOrigin(e *env, args []string) (originOptions, error) {
	var opts originOptions
	fs := newFlags("origin", &opts.home, &opts.json)
	opts.cache.add(fs)
	fs.StringVar(&opts.project, "project", "", "project folder (default: the current folder)")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	switch len(pos) {
	case 0:
	case 1:
		opts.file = pos[0]
	default:
		return opts, badUsagef("origin takes at most one FILE\nusage: %s", e.usage())
	}
	return opts, nil
}

// runOrigin scans the home for the project's memory and finds the file
// asked about: a path inside a memory folder (feedback_x.md,
// <agent>/x.md), or a path on disk.
func runOrigin(e *env, opts originOptions) (originResult, error) {
	t, err := openProjectMemory(e, &opts.home, opts.project, "")
	if err != nil {
		return originResult{}, err
	}
	defer t.close()
	r := originResult{project: t.project, prov: projectProvenance(t, e.firstCache(opts.cache, t))}
	on := map[string]bool{}
	for _, o := range r.prov.Origins {
		on[o.Abs] = true
	}
	for _, w := range r.prov.Scan.Writes {
		if !on[path.Join(r.prov.Folders[w.Folder].Dir, w.Rel)] {
			r.gone = append(r.gone, w)
		}
	}
	if opts.file == "" {
		return r, nil
	}
	r.one, err = findOrigin(e, &r.prov, opts.file)
	return r, err
}

// findOrigin is the origin of file: by its path in a memory folder,
// else as a path on disk (relative to the current folder).
func findOrigin(e *env, p *provenance.Project, file string) (*provenance.Origin, error) {
	var hits []*provenance.Origin
	for i := range p.Origins {
		if p.Origins[i].Path == filepath.ToSlash(file) {
			hits = append(hits, &p.Origins[i])
		}
	}
	if len(hits) == 0 {
		if abs, err := absFrom(e, file); err == nil {
			if o := p.Find(filepath.ToSlash(abs)); o != nil {
				hits = append(hits, o)
			}
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return nil, badInput(fmt.Errorf("%s is not a memory file of this project (memscope origin lists them)", file))
	}
	var where []string
	for _, o := range hits {
		where = append(where, o.Abs)
	}
	return nil, badInput(fmt.Errorf("%s names %d memory files: %s; give the full path", file, len(hits), strings.Join(where, ", ")))
}

func showOrigin(e *env, opts originOptions, r originResult) error {
	if r.one != nil {
		return e.output(opts.json, r.one, func(w io.Writer) { printOriginDetail(w, r.one) })
	}
	gone := r.gone
	if gone == nil {
		gone = []provenance.Write{}
	}
	v := map[string]any{"project": r.project, "folders": r.prov.Folders, "files": r.prov.Origins, "gone": gone,
		"transcripts": r.prov.Scan.Transcripts, "decoded": r.prov.Scan.Decoded, "calls": len(r.prov.Scan.Writes), "problems": r.prov.Problems}
	return e.output(opts.json, v, func(w io.Writer) { printOrigins(w, r) })
}

func printOrigins(w io.Writer, r originResult) {
	p := r.prov
	fmt.Fprintf(w, "memory of %s: %s, %s on them in %s (%s read a second time)\n", model.SanitizeLine(r.project),
		format.Count(len(p.Origins), "file", "files"), format.Count(len(p.Scan.Writes), "call", "calls"),
		format.Count(p.Scan.Transcripts, "transcript", "transcripts"), format.Count(p.Scan.Decoded, "transcript", "transcripts"))
	group := ""
	for i := range p.Origins {
		o := &p.Origins[i]
		if g := string(o.Kind) + "/" + o.Agent; g != group {
			dir := p.Folders[0].Dir
			if o.Kind.IsAgent() {
				dir = path.Join(originFolder(p, o), o.Agent)
			}
			fmt.Fprintf(w, "\n%s\n", model.SanitizeLine(dir))
			group = g
		}
		fmt.Fprintf(w, "  %s\n", model.SanitizeLine(originLabel(o)))
		fmt.Fprintf(w, "      origin  %s\n", model.SanitizeLine(o.Text))
		if o.Created != nil && o.Created.Prompt != nil {
			fmt.Fprintf(w, "              after %q\n", model.SanitizeLine(o.Created.Prompt.Text))
		}
		if o.Last.Text != o.Text && (o.Last.Write == nil || o.Last.Write != o.Created) {
			fmt.Fprintf(w, "      last    %s\n", model.SanitizeLine(o.Last.Text))
			if lw := o.Last.Write; lw != nil && lw.Prompt != nil {
				fmt.Fprintf(w, "              after %q\n", model.SanitizeLine(lw.Prompt.Text))
			}
		}
		if o.Failed > 0 {
			fmt.Fprintf(w, "      failed  %s (memscope origin %s shows them)\n", format.Count(o.Failed, "call that did not write", "calls that did not write"), model.SanitizeLine(o.Path))
		}
		for _, c := range o.Checks {
			if !c.OK {
				fmt.Fprintf(w, "      ✗ %s\n", model.SanitizeLine(c.Text))
			}
		}
	}
	if len(r.gone) > 0 {
		fmt.Fprintf(w, "\ncalls on memory files no longer on disk: %d\n", len(r.gone))
		for i := range r.gone {
			g := &r.gone[i]
			fmt.Fprintf(w, "  %s  %s %s by %s, session %s (%s)\n", format.Timestamp(g.Time), g.Tool, model.SanitizeLine(g.Rel), g.ByText(), format.ShortID(g.SessionID), g.Result)
		}
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(w, "problem: %s\n", pr.Error())
	}
}

// originFolder is the folder o was found in.
func originFolder(p provenance.Project, o *provenance.Origin) string {
	for _, f := range p.Folders {
		if f.Kind == o.Kind {
			return f.Dir
		}
	}
	return path.Dir(o.Abs)
}

func printOriginDetail(w io.Writer, o *provenance.Origin) {
	fmt.Fprintf(w, "%s\n  %s, %s, modified %s\n", model.SanitizeLine(o.Abs), model.SanitizeLine(originLabel(o)), format.Bytes(o.Size), format.Timestamp(o.ModTime))
	if o.OriginSessionID != "" || o.Modified != nil {
		fmt.Fprintf(w, "  frontmatter: originSessionId %s", orNone(o.OriginSessionID))
		if o.Modified != nil {
			fmt.Fprintf(w, ", modified %s", format.Timestamp(*o.Modified))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\norigin: %s\nlast change: %s\n", model.SanitizeLine(o.Text), model.SanitizeLine(o.Last.Text))
	fmt.Fprintf(w, "\ncalls on it in the transcripts: %d", len(o.Writes))
	if o.Failed > 0 {
		fmt.Fprintf(w, " (%d failed)", o.Failed)
	}
	fmt.Fprintln(w)
	for i := range o.Writes {
		printWrite(w, "  ", &o.Writes[i])
	}
	if len(o.Checks) > 0 {
		fmt.Fprintln(w, "\nchecks:")
		for _, c := range o.Checks {
			mark := "✓"
			if !c.OK {
				mark = "✗"
			}
			fmt.Fprintf(w, "  %s %s\n", mark, model.SanitizeLine(c.Text))
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return format.ShortID(s)
}
