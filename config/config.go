// Package config reads memscope's settings file,
// $XDG_CONFIG_HOME/memscope/config.yaml (default
// ~/.config/memscope/config.yaml; $MEMSCOPE_CONFIG names another): key
// bindings, the theme, staleness thresholds, the default home, the export
// folder, the mouse, and the Live pane's warning levels. Every setting
// has a default; the file changes only what it names. An unknown setting
// is reported with its file and line and otherwise ignored; a file that
// cannot be read or holds a wrong value is an error, and memscope then
// runs on the defaults, saying so.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/memscope/memscope/config/theme"
	"github.com/memscope/memscope/engine/gate"
	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
)

// Config is the effective settings.
type Config struct {
	// Path is the file the settings were read from (it may not exist).
	Path string
	// Found says the file exists, whether or not it could be used (the
	// error Load returns says why not).
	Found bool
	// Home is the Claude home when neither --home nor $CLAUDE_CONFIG_DIR
	// says ("" : ~/.claude).
	Home string
	// ExportDir is where the panes' exports (x, X) go; "" is the current
	// folder.
	ExportDir string
	// Mouse turns mouse reporting on in the terminal app.
	Mouse bool
	// Keys are the key bindings, with the file's changes applied.
	Keys keymap.KeyMap
	// KeysSet are the bindings the file named, by name.
	KeysSet map[string][]string
	Theme   theme.Theme
	// Staleness are the thresholds by memory type.
	Staleness memindex.StalenessThresholds
	Live      Live
	// Gate is the memory-write gate's decision per rule (gate: section).
	Gate gate.Policy
	// Sources says where each setting the file set came from
	// ("config.yaml:12"), by setting path ("keys.quit", "theme.dark.accent").
	Sources map[string]string
	// Problems are unknown settings, each with file and line; the rest of
	// the file applies.
	Problems []string
}

// Live are the Live pane's warning levels, in percent of the context
// window; 0 keeps the client's own levels (warning, autocompact).
type Live struct {
	WarnPercent  float64
	AlertPercent float64
}

// Default is the settings without a file.
func Default() Config {
	return Config{
		Mouse:     true,
		Keys:      keymap.Default(),
		KeysSet:   map[string][]string{},
		Staleness: memindex.DefaultStaleness(),
		Theme:     theme.Theme{Light: map[string]string{}, Dark: map[string]string{}},
		Sources:   map[string]string{},
		Gate:      gate.DefaultPolicy(),
	}
}

// Path is the settings file: $MEMSCOPE_CONFIG, else
// $XDG_CONFIG_HOME/memscope/config.yaml, else
// ~/.config/memscope/config.yaml.
func Path(getenv func(string) string, userHome func() (string, error)) (string, error) {
	if p := getenv("MEMSCOPE_CONFIG"); p != "" {
		return p, nil
	}
	dir, err := model.XDGConfig.Memscope(getenv, userHome)
	if err != nil {
		return "", fmt.Errorf("find the config file: %w", err)
	}
	return filepath.Join(dir, "config.yaml"), nil
}

// MaxBytes bounds the file (a settings file is a few KiB).
const MaxBytes = 1 << 20

// Load reads the file at path. A missing file is the defaults. On error
// (unreadable, not YAML, a wrong value) it returns the defaults and the
// error, which names the file and the line.
func Load(path string) (Config, error) {
	c := Default()
	c.Path = path
	data, err := model.ReadRegularFile(path, MaxBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		// It is there (a folder, a FIFO, unreadable): Found says so,
		// the error says why it is not used.
		c.Found = true
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	got, err := Parse(data, path)
	if err != nil {
		c.Found = true
		return c, err
	}
	got.Path, got.Found = path, true
	return got, nil
}

// Parse reads a settings file's text; name is how errors name it.
func Parse(data []byte, name string) (Config, error) {
	c := Default()
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Default(), fmt.Errorf("config %s: not YAML: %w", name, err)
	}
	if len(doc.Content) == 0 {
		return c, nil
	}
	p := &parser{name: name, c: &c}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return Default(), p.errf(root, "the file must be a mapping of settings (home:, keys:, theme: …)")
	}
	if err := p.top(root); err != nil {
		return Default(), err
	}
	if len(c.KeysSet) > 0 {
		km, err := keymap.Default().Rebind(c.KeysSet)
		if err != nil {
			return Default(), fmt.Errorf("config %s: keys: %w", name, err)
		}
		c.Keys = km
	}
	if c.Live.AlertPercent > 0 && c.Live.WarnPercent > c.Live.AlertPercent {
		return Default(), fmt.Errorf("config %s: live: warn_percent %g is above alert_percent %g", name, c.Live.WarnPercent, c.Live.AlertPercent)
	}
	return c, nil
}

type parser struct {
	name string
	c    *Config
}

func (p *parser) where(n *yaml.Node) string { return fmt.Sprintf("%s:%d", p.name, n.Line) }

func (p *parser) errf(n *yaml.Node, format string, a ...any) error {
	return fmt.Errorf("config %s: %s", p.where(n), fmt.Sprintf(format, a...))
}

// unknown notes a setting memscope does not have.
func (p *parser) unknown(k *yaml.Node, prefix string, known []string) {
	sort.Strings(known)
	p.c.Problems = append(p.c.Problems, fmt.Sprintf("%s: unknown setting %q (ignored; known here: %s)", p.where(k), prefix+k.Value, strings.Join(known, ", ")))
}

// TopKeys are the file's top-level settings.
var TopKeys = []string{"home", "export_dir", "mouse", "keys", "theme", "staleness", "live", "gate"}

// pairs walks a mapping's key/value pairs; a repeated key is an error.
func (p *parser) pairs(n *yaml.Node, what string, f func(k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "%s must be a mapping", what)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return p.errf(k, "%s%q is set twice", what+": ", k.Value)
		}
		seen[k.Value] = true
		if err := f(k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) top(root *yaml.Node) error {
	return p.pairs(root, "the file", func(k, v *yaml.Node) error {
		src := p.where(k)
		switch k.Value {
		case "home":
			s, err := p.str(v, "home")
			if err != nil {
				return err
			}
			p.c.Home = s
			p.c.Sources["home"] = src
		case "export_dir":
			s, err := p.str(v, "export_dir")
			if err != nil {
				return err
			}
			p.c.ExportDir = s
			p.c.Sources["export_dir"] = src
		case "mouse":
			b, err := p.boolean(v, "mouse")
			if err != nil {
				return err
			}
			p.c.Mouse = b
			p.c.Sources["mouse"] = src
		case "keys":
			return p.keys(v)
		case "theme":
			return p.theme(v)
		case "staleness":
			return p.staleness(v)
		case "live":
			return p.live(v)
		case "gate":
			return p.gate(v)
		default:
			p.unknown(k, "", TopKeys)
		}
		return nil
	})
}

func (p *parser) str(v *yaml.Node, what string) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" && v.Tag != "!!null" {
		return "", p.errf(v, "%s must be a string", what)
	}
	return v.Value, nil
}

func (p *parser) boolean(v *yaml.Node, what string) (bool, error) {
	var b bool
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
		return false, p.errf(v, "%s must be true or false", what)
	}
	return b, nil
}

func (p *parser) number(v *yaml.Node, what string, lo, hi float64) (float64, error) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" && v.Tag != "!!float" {
		return 0, p.errf(v, "%s must be a number", what)
	}
	f, err := strconv.ParseFloat(v.Value, 64)
	if err != nil || f < lo || f > hi {
		return 0, p.errf(v, "%s must be a number from %g to %g", what, lo, hi)
	}
	return f, nil
}

func (p *parser) keys(n *yaml.Node) error {
	names := keymap.Names()
	known := map[string]bool{}
	for _, k := range names {
		known[k] = true
	}
	return p.pairs(n, "keys", func(k, v *yaml.Node) error {
		if !known[k.Value] {
			p.unknown(k, "keys.", names)
			return nil
		}
		var ks []string
		nodes := []*yaml.Node{v}
		switch {
		case v.Kind == yaml.ScalarNode && (v.Tag == "!!str" || v.Tag == "!!int"):
		case v.Kind == yaml.SequenceNode:
			nodes = v.Content
			for _, e := range nodes {
				if e.Kind != yaml.ScalarNode || e.Tag != "!!str" && e.Tag != "!!int" {
					return p.errf(e, "keys.%s: each key must be a string like x, D or ctrl+x", k.Value)
				}
			}
		default:
			return p.errf(v, "keys.%s must be a key or a list of keys", k.Value)
		}
		if len(nodes) == 0 {
			return p.errf(v, "keys.%s has no keys: an action must keep at least one", k.Value)
		}
		for _, e := range nodes {
			if err := keymap.CheckKey(k.Value, e.Value); err != nil {
				return p.errf(e, "keys.%s: %v", k.Value, err)
			}
			ks = append(ks, e.Value)
		}
		p.c.KeysSet[k.Value] = ks
		p.c.Sources["keys."+k.Value] = p.where(k)
		return nil
	})
}

// colourRE is a colour as lipgloss reads it: #RGB, #RRGGBB or an ANSI
// number 0–255.
var colourRE = regexp.MustCompile(`^(#[0-9A-Fa-f]{3}|#[0-9A-Fa-f]{6}|[0-9]{1,3})$`)

// ValidColour reports whether s is a colour the theme accepts.
func ValidColour(s string) bool {
	if !colourRE.MatchString(s) {
		return false
	}
	if s[0] != '#' {
		n, _ := strconv.Atoi(s)
		return n <= 255
	}
	return true
}

func (p *parser) theme(n *yaml.Node) error {
	roles, roleNames := theme.Roles(), theme.RoleNames()
	return p.pairs(n, "theme", func(k, v *yaml.Node) error {
		var dst map[string]string
		switch k.Value {
		case "light":
			dst = p.c.Theme.Light
		case "dark":
			dst = p.c.Theme.Dark
		default:
			p.unknown(k, "theme.", []string{"light", "dark"})
			return nil
		}
		return p.pairs(v, "theme."+k.Value, func(rk, rv *yaml.Node) error {
			if _, ok := roles[rk.Value]; !ok {
				p.unknown(rk, "theme."+k.Value+".", roleNames)
				return nil
			}
			s := rv.Value
			if rv.Kind != yaml.ScalarNode || !ValidColour(s) {
				return p.errf(rv, "theme.%s.%s: %q is not a colour (#RRGGBB, #RGB or an ANSI number 0–255)", k.Value, rk.Value, s)
			}
			dst[rk.Value] = s
			p.c.Sources["theme."+k.Value+"."+rk.Value] = p.where(rk)
			return nil
		})
	})
}

// StalenessTypes are the memory types the staleness section takes.
var StalenessTypes = []string{"user", "feedback", "project", "reference", "untyped"}

func (p *parser) staleness(n *yaml.Node) error {
	return p.pairs(n, "staleness", func(k, v *yaml.Node) error {
		t := model.MemoryType(k.Value)
		if _, ok := p.c.Staleness[t]; !ok {
			p.unknown(k, "staleness.", StalenessTypes)
			return nil
		}
		lim := p.c.Staleness[t]
		err := p.pairs(v, "staleness."+k.Value, func(lk, lv *yaml.Node) error {
			var dst *int
			switch lk.Value {
			case "aging_days":
				dst = &lim.AgingDays
			case "stale_days":
				dst = &lim.StaleDays
			default:
				p.unknown(lk, "staleness."+k.Value+".", []string{"aging_days", "stale_days"})
				return nil
			}
			f, err := p.number(lv, "staleness."+k.Value+"."+lk.Value, 0, 36500)
			if err != nil {
				return err
			}
			if f != float64(int(f)) {
				return p.errf(lv, "staleness.%s.%s must be a whole number of days", k.Value, lk.Value)
			}
			*dst = int(f)
			p.c.Sources["staleness."+k.Value+"."+lk.Value] = p.where(lk)
			return nil
		})
		if err != nil {
			return err
		}
		if lim.StaleDays < lim.AgingDays {
			return p.errf(k, "staleness.%s: stale_days (%d) is below aging_days (%d)", k.Value, lim.StaleDays, lim.AgingDays)
		}
		p.c.Staleness[t] = lim
		return nil
	})
}

func (p *parser) live(n *yaml.Node) error {
	return p.pairs(n, "live", func(k, v *yaml.Node) error {
		var dst *float64
		switch k.Value {
		case "warn_percent":
			dst = &p.c.Live.WarnPercent
		case "alert_percent":
			dst = &p.c.Live.AlertPercent
		default:
			p.unknown(k, "live.", []string{"warn_percent", "alert_percent"})
			return nil
		}
		f, err := p.number(v, "live."+k.Value, 0, 100)
		if err != nil {
			return err
		}
		*dst = f
		p.c.Sources["live."+k.Value] = p.where(k)
		return nil
	})
}

// GateRuleNames are the gate: section's keys.
func GateRuleNames() []string {
	var out []string
	for _, r := range gate.Rules() {
		out = append(out, string(r))
	}
	return out
}

func (p *parser) gate(n *yaml.Node) error {
	return p.pairs(n, "gate", func(k, v *yaml.Node) error {
		r := gate.Rule(k.Value)
		if _, ok := p.c.Gate[r]; !ok {
			p.unknown(k, "gate.", GateRuleNames())
			return nil
		}
		s, err := p.str(v, "gate."+k.Value)
		if err != nil {
			return err
		}
		d, err := gate.ParseDecision(s)
		if err != nil {
			return p.errf(v, "gate.%s: %v", k.Value, err)
		}
		p.c.Gate[r] = d
		p.c.Sources["gate."+k.Value] = p.where(k)
		return nil
	})
}

// WriteDefault writes the commented default file at path through w (the
// one atomic writer), creating missing folders. An existing file is never
// replaced: the error then matches fs.ErrExist.
func WriteDefault(w model.WriteFS, path string) error {
	if w == nil {
		w = model.OSWriteFS{}
	}
	return model.CreateFileAtomicWith(w, path, 0o600, time.Time{}, func(out io.Writer) error {
		_, err := io.WriteString(out, DefaultYAML())
		return err
	})
}
