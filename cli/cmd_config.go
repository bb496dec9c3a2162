package cli

import (
	"errors"
	"fmt"
	"github.com/memscope/memscope/engine/gate"
	"io"
	"io/fs"
	"strings"

	"github.com/memscope/memscope/config"
	"github.com/memscope/memscope/config/theme"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
)

var configCommand = &command{
	name:  "config",
	usage: "memscope config path|show|init [--json]",
	summary: "memscope's settings file: where it is, what is in effect, or a commented default\n\n" +
		"The file is $MEMSCOPE_CONFIG, else $XDG_CONFIG_HOME/memscope/config.yaml, else\n" +
		"~/.config/memscope/config.yaml: key bindings by action, the theme's colours, staleness\n" +
		"thresholds by memory type, the default home, the export folder, the mouse, and the Live\n" +
		"pane's warning levels. config path prints where it is; config show prints every setting in\n" +
		"effect and where it comes from (the file and line, or the default); config init writes the\n" +
		"commented default file (never over an existing one). Unknown settings are reported with\n" +
		"their line; a file memscope cannot use is an error, and memscope runs on the defaults.\n" +
		"The schema is config/schema.json in memscope's repository.",
	run: steps(parseConfig, runConfig, showConfig),
}

// configOptions are config's arguments.
type configOptions struct {
	action string
	json   bool
}

func parseConfig(e *env, args []string) (configOptions, error) {
	var opts configOptions
	fs := newBareFlags("config")
	fs.BoolVar(&opts.json, "json", false, "print JSON")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return opts, err
	}
	if len(pos) != 1 || pos[0] != "path" && pos[0] != "show" && pos[0] != "init" {
		return opts, usageError("usage: " + e.usage())
	}
	opts.action = pos[0]
	return opts, nil
}

// setting is one line of config show.
type setting struct {
	Name   string `json:"name"`
	Value  any    `json:"value"`
	Source string `json:"source"`
}

// configReport is what config prints.
type configReport struct {
	Path    string    `json:"path"`
	Found   bool      `json:"found"`
	Written bool      `json:"written,omitempty"`
	Error   string    `json:"error,omitempty"`
	Unknown []string  `json:"unknown,omitempty"`
	Values  []setting `json:"settings,omitempty"`
}

func runConfig(e *env, opts configOptions) (configReport, error) {
	path, err := config.Path(e.getenv, e.userHome)
	if err != nil {
		return configReport{}, badInput(err)
	}
	rep := configReport{Path: path}
	switch opts.action {
	case "init":
		if err := config.WriteDefault(e.writer(), path); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return rep, fmt.Errorf("%s exists: config init never replaces it (memscope config show prints what it sets)", path)
			}
			return rep, fmt.Errorf("config init: %w", err)
		}
		rep.Written, rep.Found = true, true
		return rep, nil
	case "path":
		_, err := fs.Stat(e.root, model.RootName(path))
		rep.Found = err == nil
		return rep, nil
	}
	c := e.settings()
	rep.Found, rep.Unknown = c.Found, c.Problems
	if e.cfg.err != nil {
		rep.Error = e.cfg.err.Error()
	}
	rep.Values = settingsOf(c)
	return rep, nil
}

// settingsOf lists every setting in effect with where it comes from.
func settingsOf(c config.Config) []setting {
	var out []setting
	add := func(name string, v any) {
		src := c.Sources[name]
		if src == "" {
			src = "default"
		}
		out = append(out, setting{Name: name, Value: v, Source: src})
	}
	add("home", c.Home)
	add("export_dir", c.ExportDir)
	add("mouse", c.Mouse)
	for _, n := range keymap.Names() {
		b, _ := c.Keys.Binding(n)
		add("keys."+n, b.Keys())
	}
	roles, names := theme.Roles(), theme.RoleNames()
	for i, variant := range []string{"light", "dark"} {
		set := c.Theme.Light
		if i == 1 {
			set = c.Theme.Dark
		}
		for _, r := range names {
			v := roles[r][i]
			if s := set[r]; s != "" {
				v = s
			}
			add("theme."+variant+"."+r, v)
		}
	}
	for _, t := range config.StalenessTypes {
		l := c.Staleness[model.MemoryType(t)]
		add("staleness."+t+".aging_days", l.AgingDays)
		add("staleness."+t+".stale_days", l.StaleDays)
	}
	add("live.warn_percent", c.Live.WarnPercent)
	add("live.alert_percent", c.Live.AlertPercent)
	for _, r := range gate.Rules() {
		add("gate."+string(r), string(c.Gate.Of(r)))
	}
	return out
}

func showConfig(e *env, opts configOptions, rep configReport) error {
	return e.output(opts.json, rep, func(w io.Writer) {
		switch {
		case rep.Written:
			fmt.Fprintf(w, "wrote %s (every setting at its default; edit what you want to change)\n", model.SanitizeLine(rep.Path))
			return
		case opts.action == "path":
			state := "not there: memscope uses its defaults (memscope config init writes one)"
			if rep.Found {
				state = "exists"
			}
			fmt.Fprintf(w, "%s\n%s\n", model.SanitizeLine(rep.Path), state)
			return
		}
		state := "not there: every setting is memscope's default"
		switch {
		case rep.Found && rep.Error != "":
			state = "there, but not used"
		case rep.Found:
			state = "read"
		}
		fmt.Fprintf(w, "config %s (%s)\n", model.SanitizeLine(rep.Path), state)
		if rep.Error != "" {
			fmt.Fprintf(w, "not used: %s — every setting below is the default\n", model.SanitizeLine(rep.Error))
		}
		for _, u := range rep.Unknown {
			fmt.Fprintf(w, "ignored: %s\n", model.SanitizeLine(u))
		}
		fmt.Fprintln(w)
		for _, s := range rep.Values {
			fmt.Fprintf(w, "%-34s %-28s %s\n", s.Name, settingValue(s.Value), s.Source)
		}
	})
}

// settingValue writes a setting's value for the table.
func settingValue(v any) string {
	switch x := v.(type) {
	case string:
		if x == "" {
			return `""`
		}
		return model.SanitizeLine(x)
	case []string:
		return model.SanitizeLine(strings.Join(x, ", "))
	}
	return fmt.Sprint(v)
}
