package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

var exportCommand = &command{
	name:  "export",
	usage: "memscope export SESSION [--format md|html|json] [--out FILE] | export --memory [--project PATH] [--agent NAME]",
	summary: "a session as a readable document (compactions and summaries marked, pastes expanded, tool calls folded, sidechains separated), or a project's memory as one Markdown document\n\n" +
		"SESSION is a session id (or a unique prefix) under the home, or a path to a .jsonl transcript. " +
		"--memory exports the memory of --project (default: the current folder) as md or json. " +
		"Without --out the export goes to stdout; --out is written atomically and never over the session's own transcript.",
	run: steps(parseExport, runExport, showExport),
}

// exportPerm is the mode of a new export file: it holds the transcript's
// text, which the client keeps 0600.
const exportPerm = 0o600

// exportOptions are export's flags and SESSION.
type exportOptions struct {
	home   homeFlags
	format export.Format
	// out is the file to write, "" for stdout.
	out string
	// memory exports the memory of project instead of session.
	memory  bool
	project string
	// agent selects an agent's memory with --memory; "" the project's.
	agent   string
	session string
}

// exportResult is an export: its bytes, or for a session, the stream
// that writes them (open until showExport is done with it); and the file
// they were written to ("" when they go to stdout) with their size.
type exportResult struct {
	data   []byte
	stream func(io.Writer) error
	done   func()
	wrote  string
	size   int64
}

func parseExport(e *env, args []string) (exportOptions, error) {
	var opts exportOptions
	fs := newFlags("export", &opts.home, nil)
	formatName := fs.String("format", "md", "output format `md|html|json` (--memory: md or json)")
	fs.StringVar(&opts.out, "out", "", "write to `FILE` instead of stdout")
	fs.BoolVar(&opts.memory, "memory", false, "export a project's memory instead of a session")
	fs.StringVar(&opts.project, "project", "", "with --memory: project folder (default: the current folder)")
	addAgentFlag(fs, &opts.agent)
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	if opts.format, err = export.ParseFormat(*formatName); err != nil {
		return opts, badUsage(err)
	}
	switch {
	case opts.memory && len(pos) != 0, !opts.memory && len(pos) != 1:
		return opts, usageError("usage: memscope export SESSION [--format md|html|json] [--out FILE] [--home DIR]\n" +
			"       memscope export --memory [--project PATH] [--agent NAME] [--format md|json] [--out FILE] [--home DIR]")
	case opts.memory && opts.format == export.HTML:
		return opts, badUsagef("--memory exports md or json")
	case !opts.memory && opts.project != "":
		return opts, badUsagef("--project goes with --memory")
	case !opts.memory && opts.agent != "":
		return opts, badUsagef("--agent goes with --memory")
	}
	if !opts.memory {
		opts.session = pos[0]
	}
	return opts, nil
}

// runExport builds the export and, with --out, writes it atomically
// where it cannot take the place of what it exports. A session's export
// is written an entry at a time (export.OpenSession), to the file or
// by showExport to stdout, so its memory does not grow with the session.
func runExport(e *env, opts exportOptions) (exportResult, error) {
	var r exportResult
	var guard []string
	var err error
	if opts.memory {
		r.data, guard, err = exportMemory(e, &opts.home, opts.project, opts.agent, opts.format)
		data := r.data
		r.stream = func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}
	} else {
		r, guard, err = exportSession(e, &opts.home, opts.session, opts.format)
	}
	if err != nil || opts.out == "" {
		return r, err
	}
	defer r.close()
	dst, err := absFrom(e, opts.out)
	if err != nil {
		return exportResult{}, err
	}
	if err := checkExportTarget(dst, guard, opts.memory); err != nil {
		return exportResult{}, err
	}
	err = model.WriteFileAtomicFrom(e.writer(), dst, exportPerm, func(w io.Writer) error {
		c := &byteCounter{w: w}
		err := r.stream(c)
		r.size = c.n
		return err
	})
	if err != nil {
		return exportResult{}, err
	}
	return exportResult{wrote: dst, size: r.size}, nil
}

// close lets go of what the export's stream reads.
func (r exportResult) close() {
	if r.done != nil {
		r.done()
	}
}

// byteCounter counts what goes through it.
type byteCounter struct {
	w io.Writer
	n int64
}

func (c *byteCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// showExport sends the export to stdout, exact when piped, or says
// where it was written.
func showExport(e *env, _ exportOptions, r exportResult) error {
	if r.wrote != "" {
		fmt.Fprintf(humanOutput(e.stderr), "memscope export: wrote %s (%s)\n", r.wrote, format.ClientFileSize(int(r.size)))
		return nil
	}
	defer r.close()
	return r.stream(exactOutput(e.stdout))
}

// exportSession opens the export of SESSION. guard lists the files the
// export must not be written over: the transcript and its subagents'.
func exportSession(e *env, hf *homeFlags, arg string, f export.Format) (exportResult, []string, error) {
	sf, err := openSession(e, hf, arg)
	if err != nil {
		return exportResult{}, nil, err
	}
	r := exportResult{done: sf.close}
	src := export.SessionSource{FS: sf.fsys, Transcript: sf.name}
	switch {
	case sf.home != nil:
		src.Home = sf.home.home.FS
	case hf.dir != "" || hf.demo:
		o, err := e.openHome(hf)
		if err != nil {
			r.close()
			return exportResult{}, nil, err
		}
		r.done = func() { o.close(); sf.close() }
		src.Home = o.home.FS
	default:
		if dir := homeOfTranscript(sf.disk); dir != "" {
			src.Home = model.DirFS(dir)
		}
	}
	s, err := export.OpenSession(src, e.now())
	if err != nil {
		r.close()
		return exportResult{}, nil, err
	}
	closeFiles := r.done
	r.done = func() { s.Close(); closeFiles() }
	guard := []string{sf.disk}
	for _, sc := range s.Header().Sidechains {
		if sc.Source != export.SidechainInline {
			guard = append(guard, filepath.Join(filepath.Dir(sf.disk), filepath.FromSlash(strings.TrimPrefix(sc.Source, fsDir(sf.name)))))
		}
	}
	r.stream = func(w io.Writer) error { return s.Write(w, f) }
	return r, guard, nil
}

// fsDir is the folder part of a slash path inside an fs, with its slash
// ("projects/-x/" for "projects/-x/s.jsonl"), "" at the top.
func fsDir(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i+1]
	}
	return ""
}

// homeOfTranscript finds the Claude home a transcript named by path sits
// in (<home>/projects/<slug>/<id>.jsonl, with history.jsonl or
// paste-cache beside projects), so its pastes can be expanded; "" when it
// is not in one.
func homeOfTranscript(disk string) string {
	projects := filepath.Dir(filepath.Dir(disk))
	if filepath.Base(projects) != "projects" {
		return ""
	}
	home := filepath.Dir(projects)
	for _, p := range []string{model.HistoryPath, model.PasteCacheDir} {
		if _, err := os.Stat(filepath.Join(home, p)); err == nil {
			return home
		}
	}
	return ""
}

// exportMemory builds the export of a project's memory. guard is the
// memory folder: an export written inside it would become a memory.
func exportMemory(e *env, hf *homeFlags, project, agent string, f export.Format) ([]byte, []string, error) {
	t, err := openProjectMemory(e, hf, project, agent)
	if err != nil {
		return nil, nil, err
	}
	defer t.close()
	data, err := export.MemoryStore(t.store, t.project, f, e.now(), e.settings().Staleness)
	return data, []string{t.loc.Dir}, err
}

// checkExportTarget refuses a destination that is one of the session's
// transcripts (by path or as the same file through a link), or for a
// memory export a file inside the memory folder.
func checkExportTarget(dst string, guard []string, memory bool) error {
	dstInfo, dstErr := os.Stat(dst)
	if dstErr == nil && dstInfo.IsDir() {
		return fmt.Errorf("--out %s is a folder", dst)
	}
	for _, g := range guard {
		if memory {
			if rel, err := filepath.Rel(g, dst); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return fmt.Errorf("--out %s is inside the memory folder %s: the client would read it as a memory", dst, g)
			}
			continue
		}
		if filepath.Clean(g) == filepath.Clean(dst) {
			return fmt.Errorf("--out %s is the session's own transcript; choose another file", dst)
		}
		if dstErr != nil {
			continue
		}
		if gi, err := os.Stat(g); err == nil && os.SameFile(gi, dstInfo) {
			return fmt.Errorf("--out %s is the session's own transcript (through a link); choose another file", dst)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("check --out against %s: %w", g, err)
		}
	}
	return nil
}
