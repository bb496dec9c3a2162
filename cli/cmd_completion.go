package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/memscope/memscope/model"
)

var completionCommand = &command{
	name:  "completion",
	usage: "memscope completion bash|zsh|fish | completion values projects|sessions [--home DIR]",
	summary: "print a shell completion script for bash, zsh or fish\n\n" +
		"Commands, their flags and the values memscope can list cheaply (project paths for --project, " +
		"session ids for SESSION, the choices of flags like --format) complete from the same command " +
		"table as memscope help, so the two cannot drift. Install: bash: " +
		"memscope completion bash > ~/.local/share/bash-completion/completions/memscope; zsh: " +
		"memscope completion zsh > \"${fpath[1]}/_memscope\"; fish: memscope completion fish > " +
		"~/.config/fish/completions/memscope.fish. The scripts call memscope completion values to list " +
		"project paths and session ids of the home.",
	run: steps(parseCompletion, runCompletion, showCompletion),
}

// completionOptions are completion's arguments.
type completionOptions struct {
	home homeFlags
	// shell is bash, zsh or fish; "" when values were asked for.
	shell string
	// values is projects or sessions (memscope completion values KIND).
	values string
}

func parseCompletion(e *env, args []string) (completionOptions, error) {
	var opts completionOptions
	fs := newFlags("completion", &opts.home, nil)
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	switch {
	case len(pos) == 1 && (pos[0] == "bash" || pos[0] == "zsh" || pos[0] == "fish"):
		opts.shell = pos[0]
	case len(pos) == 2 && pos[0] == "values" && (pos[1] == "projects" || pos[1] == "sessions"):
		opts.values = pos[1]
	default:
		return opts, usageError("usage: " + e.usage())
	}
	return opts, nil
}

// completionResult is the script, or the values, to print.
type completionResult struct {
	text string
}

func runCompletion(e *env, opts completionOptions) (completionResult, error) {
	if opts.values != "" {
		return completionResult{text: strings.Join(completionValues(e, &opts.home, opts.values), "\n")}, nil
	}
	spec := completionSpecOf(e)
	var b strings.Builder
	switch opts.shell {
	case "bash":
		writeBashCompletion(&b, spec)
	case "zsh":
		writeZshCompletion(&b, spec)
	case "fish":
		writeFishCompletion(&b, spec)
	}
	return completionResult{text: b.String()}, nil
}

func showCompletion(e *env, _ completionOptions, r completionResult) error {
	if r.text == "" {
		return nil
	}
	_, err := io.WriteString(e.stdout, strings.TrimSuffix(r.text, "\n")+"\n")
	return err
}

// completionValues lists what completion offers for a --project value
// (project paths) or a SESSION argument (session ids, newest first). It
// never falls back to the demo home and never fails: a shell asking for
// completions gets nothing rather than an error.
func completionValues(e *env, h *homeFlags, kind string) []string {
	if h.demo {
		return nil
	}
	dir, src, err := e.resolveHome(h.dir)
	if err != nil || !model.HomeExists(dir) {
		return nil
	}
	home, err := model.OpenHome(dir, src)
	if err != nil {
		return nil
	}
	projects, files, _ := model.ListProjectsFiles(home.FS)
	var out []string
	switch kind {
	case "projects":
		for _, p := range projects {
			// A path with a control character (a line break, an escape)
			// cannot be completed, nor printed as one line: left out.
			if p.Path != "" && p.Path == model.SanitizeLine(p.Path) {
				out = append(out, p.Path)
			}
		}
		sort.Strings(out)
	case "sessions":
		var all []model.TranscriptFile
		for _, ts := range files {
			for _, t := range ts {
				if t.Kind == model.TranscriptMain {
					all = append(all, t)
				}
			}
		}
		model.SortNewestFirst(all)
		for _, t := range all {
			if t.SessionID == model.SanitizeLine(t.SessionID) {
				out = append(out, t.SessionID)
			}
		}
	}
	return out
}

// valueKind says how a shell completes a flag's value: "" for a switch,
// "project", "choices", "file" for a placeholder naming a file or
// folder (DIR, FILE, PATH), else "none" (a number, an id, a text).
func valueKind(f flagInfo) string {
	switch {
	case f.arg == "":
		return ""
	case f.name == "project":
		return "project"
	case len(f.choices) > 0:
		return "choices"
	case strings.Contains(f.arg, "DIR") || strings.Contains(f.arg, "FILE") || strings.Contains(f.arg, "PATH"):
		return "file"
	}
	return "none"
}

// positionalChoices are the fixed words a command's first argument
// takes (completion bash|zsh|fish), nil when it is free or a session.
func positionalChoices(p string) []string {
	if p == "SESSION" {
		return nil
	}
	return choicesOf(strings.SplitN(p, " ", 2)[0])
}

// oneLine is a summary's first sentence-ish line for a completion menu.
func oneLine(s string) string {
	s = firstLine(headline(s))
	if len([]rune(s)) > 70 {
		r := []rune(s)
		s = string(r[:69]) + "…"
	}
	return s
}

func writeBashCompletion(w io.Writer, spec completionSpec) {
	var names []string
	for _, c := range spec.commands {
		names = append(names, c.name)
	}
	names = append(names, "help")
	fmt.Fprint(w, `# bash completion for memscope (generated by: memscope completion bash)
_memscope_values() {
	local home="" i
	for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
		if [[ ${COMP_WORDS[i]} == --home ]]; then home=${COMP_WORDS[i+1]}; fi
		if [[ ${COMP_WORDS[i]} == --home=* ]]; then home=${COMP_WORDS[i]#--home=}; fi
	done
	if [[ -n $home ]]; then
		memscope completion values "$1" --home "$home" 2>/dev/null
	else
		memscope completion values "$1" 2>/dev/null
	fi
}

_memscope() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd="" i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--home | --project) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
`)
	fmt.Fprintf(w, "\tif [[ -z $cmd ]]; then\n")
	fmt.Fprintf(w, "\t\tcase $prev in\n")
	writeBashValueCases(w, spec.app, "\t\t")
	fmt.Fprintf(w, "\t\tesac\n")
	fmt.Fprintf(w, "\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W %s -- \"$cur\"))\n", bashWords(flagWords(spec.app)))
	fmt.Fprintf(w, "\t\telse\n\t\t\tCOMPREPLY=($(compgen -W %s -- \"$cur\"))\n\t\tfi\n\t\treturn\n\tfi\n", bashWords(names))
	fmt.Fprintf(w, "\tcase $cmd in\n")
	for _, c := range spec.commands {
		fmt.Fprintf(w, "\t%s)\n\t\tcase $prev in\n", c.name)
		writeBashValueCases(w, c.flags, "\t\t")
		fmt.Fprintf(w, "\t\tesac\n")
		fmt.Fprintf(w, "\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W %s -- \"$cur\"))\n", bashWords(flagWords(c.flags)))
		switch {
		case c.positional == "SESSION":
			fmt.Fprintf(w, "\t\telse\n\t\t\tCOMPREPLY=($(compgen -W \"$(_memscope_values sessions)\" -- \"$cur\"))\n")
		case len(positionalChoices(c.positional)) > 0:
			fmt.Fprintf(w, "\t\telse\n\t\t\tCOMPREPLY=($(compgen -W %s -- \"$cur\"))\n", bashWords(positionalChoices(c.positional)))
		}
		fmt.Fprintf(w, "\t\tfi\n\t\t;;\n")
	}
	fmt.Fprintf(w, "\thelp)\n\t\tCOMPREPLY=($(compgen -W %s -- \"$cur\"))\n\t\t;;\n", bashWords(names[:len(names)-1]))
	fmt.Fprintf(w, "\tesac\n}\ncomplete -o default -F _memscope memscope\n")
}

// writeBashValueCases writes the case arms that complete a flag's value.
func writeBashValueCases(w io.Writer, flags []flagInfo, indent string) {
	for _, f := range flags {
		switch valueKind(f) {
		case "project":
			fmt.Fprintf(w, "%s--%s) local IFS=$'\\n'; COMPREPLY=($(compgen -W \"$(_memscope_values projects)\" -- \"$cur\")); return ;;\n", indent, f.name)
		case "choices":
			fmt.Fprintf(w, "%s--%s) COMPREPLY=($(compgen -W %s -- \"$cur\")); return ;;\n", indent, f.name, bashWords(f.choices))
		case "none":
			fmt.Fprintf(w, "%s--%s) return ;;\n", indent, f.name)
		case "file":
			fmt.Fprintf(w, "%s--%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", indent, f.name)
		}
	}
}

// flagWords is --name for each flag.
func flagWords(flags []flagInfo) []string {
	var out []string
	for _, f := range flags {
		out = append(out, "--"+f.name)
	}
	return out
}

// bashWords quotes a word list for compgen -W (words are memscope's own
// names: letters, digits and dashes).
func bashWords(words []string) string {
	return "'" + strings.Join(words, " ") + "'"
}

func writeZshCompletion(w io.Writer, spec completionSpec) {
	fmt.Fprint(w, `#compdef memscope
# zsh completion for memscope (generated by: memscope completion zsh)

_memscope_values() {
	local -a vals home
	local i
	for ((i = 1; i < $#words; i++)); do
		[[ $words[i] == --home ]] && home=(--home "$words[i+1]")
	done
	vals=("${(@f)$(memscope completion values $1 $home 2>/dev/null)}")
	compadd -a vals
}
_memscope_projects() { _memscope_values projects }
_memscope_sessions() { _memscope_values sessions }

_memscope() {
	local -a commands
	commands=(
`)
	for _, c := range spec.commands {
		fmt.Fprintf(w, "\t\t%s\n", zshQuote(c.name+":"+zshEscape(oneLine(c.summary), ":")))
	}
	fmt.Fprint(w, "\t\t'help:show help for a command'\n\t)\n")
	fmt.Fprint(w, "\tlocal curcontext=$curcontext state line\n\t_arguments -C -s \\\n")
	for _, f := range spec.app {
		fmt.Fprintf(w, "\t\t%s \\\n", zshFlagSpec(f))
	}
	fmt.Fprint(w, "\t\t'1: :->command' \\\n\t\t'*:: :->args'\n")
	fmt.Fprint(w, "\tcase $state in\n\tcommand)\n\t\t_describe -t commands 'memscope command' commands\n\t\t;;\n")
	fmt.Fprint(w, "\targs)\n\t\tcase $words[1] in\n")
	for _, c := range spec.commands {
		fmt.Fprintf(w, "\t\t%s)\n\t\t\t_arguments -s \\\n", c.name)
		for _, f := range c.flags {
			fmt.Fprintf(w, "\t\t\t\t%s \\\n", zshFlagSpec(f))
		}
		switch {
		case c.positional == "SESSION":
			fmt.Fprint(w, "\t\t\t\t'1:session:_memscope_sessions' \\\n")
		case len(positionalChoices(c.positional)) > 0:
			fmt.Fprintf(w, "\t\t\t\t'1:argument:(%s)' \\\n", strings.Join(positionalChoices(c.positional), " "))
		}
		fmt.Fprint(w, "\t\t\t\t'*::argument:_files'\n\t\t\t;;\n")
	}
	fmt.Fprint(w, "\t\thelp)\n\t\t\t_describe -t commands 'memscope command' commands\n\t\t\t;;\n")
	fmt.Fprint(w, "\t\tesac\n\t\t;;\n\tesac\n}\n\n")
	fmt.Fprint(w, "if [[ $funcstack[1] == _memscope ]]; then\n\t_memscope \"$@\"\nelse\n\tcompdef _memscope memscope\nfi\n")
}

// zshFlagSpec is one _arguments spec: --name=[what it does]:VALUE:action.
func zshFlagSpec(f flagInfo) string {
	desc := zshEscape(firstLine(f.usage), "[]")
	switch valueKind(f) {
	case "":
		return zshQuote("--" + f.name + "[" + desc + "]")
	case "project":
		return zshQuote("--" + f.name + "=[" + desc + "]:project:_memscope_projects")
	case "choices":
		return zshQuote("--" + f.name + "=[" + desc + "]:" + strings.ToLower(f.name) + ":(" + strings.Join(f.choices, " ") + ")")
	case "none":
		return zshQuote("--" + f.name + "=[" + desc + "]:number: ")
	}
	return zshQuote("--" + f.name + "=[" + desc + "]:" + strings.ToLower(f.arg) + ":_files")
}

// zshEscape backslashes the characters special in an _arguments or
// _describe field.
func zshEscape(s, special string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// zshQuote single-quotes s for zsh.
func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeFishCompletion(w io.Writer, spec completionSpec) {
	fmt.Fprint(w, "# fish completion for memscope (generated by: memscope completion fish)\n")
	fmt.Fprint(w, "function __memscope_values\n\tset -l home (string replace -r -- '^--home=' '' (commandline -opc | string match -r -- '^--home=.*'))\n")
	fmt.Fprint(w, "\tset -l words (commandline -opc)\n\tfor i in (seq (count $words))\n\t\tif test \"$words[$i]\" = --home\n\t\t\tset home $words[(math $i + 1)]\n\t\tend\n\tend\n")
	fmt.Fprint(w, "\tif test -n \"$home\"\n\t\tmemscope completion values $argv[1] --home $home 2>/dev/null\n\telse\n\t\tmemscope completion values $argv[1] 2>/dev/null\n\tend\nend\n\n")
	fmt.Fprint(w, "complete -c memscope -f\n")
	var names []string
	for _, c := range spec.commands {
		names = append(names, c.name)
		fmt.Fprintf(w, "complete -c memscope -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(oneLine(c.summary)))
	}
	fmt.Fprint(w, "complete -c memscope -n __fish_use_subcommand -a help -d 'show help for a command'\n")
	fmt.Fprintf(w, "complete -c memscope -n '__fish_seen_subcommand_from help' -a %s\n", fishQuote(strings.Join(names, " ")))
	for _, f := range spec.app {
		fmt.Fprintf(w, "complete -c memscope -n __fish_use_subcommand %s\n", fishFlag(f))
	}
	for _, c := range spec.commands {
		cond := fishQuote("__fish_seen_subcommand_from " + c.name)
		for _, f := range c.flags {
			fmt.Fprintf(w, "complete -c memscope -n %s %s\n", cond, fishFlag(f))
		}
		switch {
		case c.positional == "SESSION":
			fmt.Fprintf(w, "complete -c memscope -n %s -a '(__memscope_values sessions)'\n", cond)
		case len(positionalChoices(c.positional)) > 0:
			fmt.Fprintf(w, "complete -c memscope -n %s -a %s\n", cond, fishQuote(strings.Join(positionalChoices(c.positional), " ")))
		}
	}
}

// fishFlag is the part of a complete line that describes flag f.
func fishFlag(f flagInfo) string {
	s := "-l " + f.name
	switch valueKind(f) {
	case "project":
		s += " -x -a '(__memscope_values projects)'"
	case "choices":
		s += " -x -a " + fishQuote(strings.Join(f.choices, " "))
	case "none":
		s += " -x"
	case "file":
		s += " -r -F"
	}
	return s + " -d " + fishQuote(firstLine(f.usage))
}

// fishQuote single-quotes s for fish.
func fishQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}
