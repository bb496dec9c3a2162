package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memscope/memscope/engine/export"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/model"
)

func init() {
	register(command{
		name:  "export",
		usage: "memscope export SESSION [--format md|html|json] [--out FILE] | export --memory [--project PATH]",
		summary: "a session as a readable document (compactions and summaries marked, pastes expanded, tool calls folded, sidechains separated), or a project's memory as one Markdown document\n" +
			"SESSION is a session id (or a unique prefix) under the home, or a path to a .jsonl transcript. " +
			"--memory exports the memory of --project (default: the current folder) as md or json. " +
			"Without --out the export goes to stdout; --out is written atomically and never over the session's own transcript.",
		run: runExport,
	})
}

// exportPerm is the mode of a new export file: it holds the transcript's
// text, which the client keeps 0600.
const exportPerm = 0o600

func runExport(e *env, args []string) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	hf := addHomeFlags(fs)
	format := fs.String("format", "md", "md, html or json (--memory: md or json)")
	out := fs.String("out", "", "write to FILE instead of stdout")
	memory := fs.Bool("memory", false, "export a project's memory instead of a session")
	project := fs.String("project", "", "with --memory: project folder (default: the current folder)")
	pos, ok := parseInterspersed(e, fs, args)
	if !ok {
		return 2
	}
	usage := func() int {
		fmt.Fprintln(e.stderr, "usage: memscope export SESSION [--format md|html|json] [--out FILE] [--home DIR]\n"+
			"       memscope export --memory [--project PATH] [--format md|json] [--out FILE] [--home DIR]")
		return 2
	}
	f, err := export.ParseFormat(*format)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope export: %v\n", err)
		return 2
	}
	switch {
	case *memory && len(pos) != 0, !*memory && len(pos) != 1:
		return usage()
	case *memory && f == export.HTML:
		fmt.Fprintln(e.stderr, "memscope export: --memory exports md or json")
		return 2
	case !*memory && *project != "":
		fmt.Fprintln(e.stderr, "memscope export: --project goes with --memory")
		return 2
	}
	var data []byte
	var guard []string
	if *memory {
		data, guard, err = exportMemory(e, hf, *project, f)
	} else {
		data, guard, err = exportSession(e, hf, pos[0], f)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope export: %v\n", err)
		return 1
	}
	if *out == "" {
		w := e.stdout
		if isTerminal(w) {
			w = humanOutput(w)
		}
		if _, err := w.Write(data); err != nil {
			fmt.Fprintf(e.stderr, "memscope export: %v\n", err)
			return 1
		}
		return 0
	}
	dst, err := absFrom(e, *out)
	if err != nil {
		fmt.Fprintf(e.stderr, "memscope export: %v\n", err)
		return 1
	}
	if err := checkExportTarget(dst, guard, *memory); err != nil {
		fmt.Fprintf(e.stderr, "memscope export: %v\n", err)
		return 1
	}
	if err := model.WriteFileAtomic(dst, data, exportPerm); err != nil {
		fmt.Fprintf(e.stderr, "memscope export: %v\n", err)
		return 1
	}
	fmt.Fprintf(humanOutput(e.stderr), "memscope export: wrote %s (%s)\n", dst, memindex.FormatFileSize(len(data)))
	return 0
}

// exportSession builds the export of SESSION. guard lists the files the
// export must not be written over: the transcript and its subagents'.
func exportSession(e *env, hf *homeFlags, arg string, f export.Format) ([]byte, []string, error) {
	sf, err := openSession(e, hf, arg)
	if err != nil {
		return nil, nil, err
	}
	defer sf.close()
	src := export.SessionSource{FS: sf.fsys, Transcript: sf.name}
	switch {
	case sf.home != nil:
		src.Home = sf.home.home.FS
	case hf.dir != "" || hf.demo:
		o, err := e.openHome(hf)
		if err != nil {
			return nil, nil, err
		}
		defer o.close()
		src.Home = o.home.FS
	default:
		if dir := homeOfTranscript(sf.disk); dir != "" {
			src.Home = os.DirFS(dir)
		}
	}
	x, err := export.LoadSessionExport(src, e.now())
	if err != nil {
		return nil, nil, err
	}
	guard := []string{sf.disk}
	for _, sc := range x.Sidechains {
		if sc.Source != export.SidechainInline {
			guard = append(guard, filepath.Join(filepath.Dir(sf.disk), filepath.FromSlash(strings.TrimPrefix(sc.Source, fsDir(sf.name)))))
		}
	}
	data, err := export.RenderSessionExport(x, f)
	return data, guard, err
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
func exportMemory(e *env, hf *homeFlags, project string, f export.Format) ([]byte, []string, error) {
	t, err := openProjectMemory(e, hf, project)
	if err != nil {
		return nil, nil, err
	}
	defer t.close()
	data, err := export.MemoryStore(t.store, t.project, f, e.now())
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
