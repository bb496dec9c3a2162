package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

var manCommand = &command{
	name:  "man",
	usage: "memscope man",
	summary: "print memscope's manual page (roff): memscope man | man -l -\n\n" +
		"The page is generated from the same command table as memscope help and the completion " +
		"scripts. Install: memscope man > ~/.local/share/man/man1/memscope.1 (then man memscope).",
	run: steps(parseMan, runMan, showMan),
}

// manOptions: man takes no flags besides --help.
type manOptions struct{}

func parseMan(e *env, args []string) (manOptions, error) {
	// man reads no home: only --help is meaningful.
	fs := flag.NewFlagSet("man", flag.ContinueOnError)
	return manOptions{}, parseFlagsOnly(e, fs, args)
}

func runMan(e *env, _ manOptions) (string, error) {
	var b strings.Builder
	writeManPage(&b, e.version, completionSpecOf(e))
	return b.String(), nil
}

func showMan(e *env, _ manOptions, page string) error {
	_, err := io.WriteString(e.stdout, page)
	return err
}

// writeManPage writes the manual page in roff (man(7) macros).
func writeManPage(w io.Writer, version string, spec completionSpec) {
	fmt.Fprintf(w, ".TH MEMSCOPE 1 \"\" \"memscope %s\" \"User Commands\"\n", roffEscape(version))
	fmt.Fprint(w, ".SH NAME\nmemscope \\- see and fix what Claude Code remembers on disk\n")
	fmt.Fprint(w, ".SH SYNOPSIS\n.nf\n")
	fmt.Fprintf(w, "%s\n", roffEscape(appUsage))
	for _, c := range spec.commands {
		fmt.Fprintf(w, "%s\n", roffEscape(c.usage))
	}
	fmt.Fprint(w, "memscope help [COMMAND]\nmemscope \\-\\-version\n.fi\n")
	fmt.Fprint(w, ".SH DESCRIPTION\n")
	roffParagraphs(w, "memscope shows, edits and explains everything Claude Code remembers on disk under ~/.claude "+
		"(or $CLAUDE_CONFIG_DIR): the MEMORY.md index and typed memory files, the command history and its "+
		"paste cache, session transcripts and their compactions, /rewind file history and CLAUDE.md files. "+
		"Without a command it opens the terminal app; each command prints what a pane shows, "+
		"as text or with --json as JSON.")
	writeManFlags(w, spec.app)
	fmt.Fprint(w, ".SH COMMANDS\n")
	for _, c := range spec.commands {
		fmt.Fprintf(w, ".SS %s\n", roffEscape(c.name))
		fmt.Fprintf(w, ".B %s\n.PP\n", roffEscape(c.usage))
		roffParagraphs(w, c.summary)
		writeManFlags(w, c.flags)
	}
	fmt.Fprint(w, ".SH EXIT STATUS\n")
	roffParagraphs(w, strings.TrimPrefix(exitCodesHelp, "exit codes: "))
	fmt.Fprint(w, ".SH ENVIRONMENT\n")
	for _, v := range [][2]string{
		{"CLAUDE_CONFIG_DIR", "the Claude home when --home is not given (default ~/.claude)"},
		{"EDITOR", "the editor the terminal app opens memory files in"},
		{"MEMSCOPE_CONFIG", "memscope's settings file (default $XDG_CONFIG_HOME/memscope/config.yaml, else ~/.config/memscope/config.yaml; see memscope config)"},
		{"NO_COLOR", "when set, the terminal app draws without colour"},
		{"XDG_CACHE_HOME", "where memscope keeps its cache (default ~/.cache/memscope); safe to delete"},
	} {
		fmt.Fprintf(w, ".TP\n.B %s\n%s\n", v[0], roffEscape(v[1]))
	}
	fmt.Fprint(w, ".SH FILES\n")
	for _, v := range [][2]string{
		{"~/.claude/projects/<project>/memory/.memscope/", "memscope's undo journal and its own state, beside the memory it changed"},
		{"~/.claude/projects/<project>/memory/.trash/", "memory files memscope deleted, restorable with memscope trash --restore"},
	} {
		fmt.Fprintf(w, ".TP\n.I %s\n%s\n", roffEscape(v[0]), roffEscape(v[1]))
	}
	fmt.Fprint(w, ".SH SEE ALSO\n.BR claude (1)\n")
}

// writeManFlags lists flags as tagged paragraphs.
func writeManFlags(w io.Writer, flags []flagInfo) {
	if len(flags) == 0 {
		return
	}
	fmt.Fprint(w, ".PP\nFlags:\n")
	for _, f := range flags {
		fmt.Fprintf(w, ".TP\n.B \\-\\-%s", roffEscape(f.name))
		if f.arg != "" {
			fmt.Fprintf(w, " \\fI%s\\fR", roffEscape(f.arg))
		}
		fmt.Fprintf(w, "\n%s\n", roffEscape(strings.Join(strings.Fields(f.usage), " ")))
	}
}

// roffParagraphs writes text's paragraphs (split at blank lines).
func roffParagraphs(w io.Writer, text string) {
	for i, p := range strings.Split(text, "\n\n") {
		if i > 0 {
			fmt.Fprint(w, ".PP\n")
		}
		fmt.Fprintf(w, "%s\n", roffEscape(strings.Join(strings.Fields(p), " ")))
	}
}

// roffEscape makes s safe as roff text: backslashes, dashes as minus
// signs (so flags copy and paste), and a leading dot or quote that
// would read as a request.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
