package config

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"gopkg.in/yaml.v3"

	"github.com/memscope/memscope/engine/memindex"
	"github.com/memscope/memscope/internal/keypress"
	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
)

var update = flag.Bool("update", false, "rewrite config/schema.json")

func TestPath(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	home := func() (string, error) { return "/home/u", nil }
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "/home/u/.config/memscope/config.yaml"},
		{map[string]string{"XDG_CONFIG_HOME": "/x"}, "/x/memscope/config.yaml"},
		{map[string]string{"XDG_CONFIG_HOME": "relative"}, "/home/u/.config/memscope/config.yaml"},
		{map[string]string{"XDG_CONFIG_HOME": "/x", "MEMSCOPE_CONFIG": "/etc/ms.yaml"}, "/etc/ms.yaml"},
	} {
		if got, _ := Path(env(c.env), home); got != c.want {
			t.Errorf("Path(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	c, err := Parse([]byte(`# mine
home: ~/claude-work
export_dir: /tmp/exports
mouse: false
keys:
  quit: x
  delete: [D]
  export: [ctrl+e]
theme:
  dark:
    accent: "#FF00FF"
staleness:
  project: {aging_days: 5, stale_days: 20}
live:
  warn_percent: 60
  alert_percent: 85
`), "config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Home != "~/claude-work" || c.ExportDir != "/tmp/exports" || c.Mouse {
		t.Errorf("home %q export %q mouse %v", c.Home, c.ExportDir, c.Mouse)
	}
	if !key.Matches(keypress.Msg("x"), c.Keys.Quit) || key.Matches(keypress.Msg("q"), c.Keys.Quit) || !key.Matches(keypress.Msg("D"), c.Keys.Delete) {
		t.Errorf("keys not applied: quit %v delete %v", c.Keys.Quit.Keys(), c.Keys.Delete.Keys())
	}
	if c.Theme.Dark["accent"] != "#FF00FF" || len(c.Theme.Light) != 0 {
		t.Errorf("theme %+v", c.Theme)
	}
	if got := c.Staleness[model.TypeProject]; got != (memindex.StalenessLimit{AgingDays: 5, StaleDays: 20}) {
		t.Errorf("project staleness %+v", got)
	}
	if got := c.Staleness[model.TypeUser]; got != memindex.DefaultStaleness()[model.TypeUser] {
		t.Errorf("user staleness changed: %+v", got)
	}
	if c.Live != (Live{WarnPercent: 60, AlertPercent: 85}) {
		t.Errorf("live %+v", c.Live)
	}
	if c.Sources["keys.quit"] != "config.yaml:6" || c.Sources["staleness.project.stale_days"] != "config.yaml:13" || c.Sources["mouse"] != "config.yaml:4" {
		t.Errorf("sources %v", c.Sources)
	}
	if len(c.Problems) != 0 {
		t.Errorf("problems %v", c.Problems)
	}
}

// Unknown settings are reported with file and line, and the rest of the
// file still applies.
func TestUnknownSettingsAreReported(t *testing.T) {
	c, err := Parse([]byte("mouse: false\ncolour: red\nkeys:\n  quitt: x\ntheme:\n  dark:\n    accentt: \"#fff\"\nlive:\n  warn: 3\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`c.yaml:2: unknown setting "colour"`, `c.yaml:4: unknown setting "keys.quitt"`, `c.yaml:7: unknown setting "theme.dark.accentt"`, `c.yaml:9: unknown setting "live.warn"`}
	if len(c.Problems) != len(want) {
		t.Fatalf("problems %q", c.Problems)
	}
	for i, w := range want {
		if !strings.HasPrefix(c.Problems[i], w) {
			t.Errorf("problem %d = %q, want it to start with %q", i, c.Problems[i], w)
		}
	}
	if c.Mouse {
		t.Error("mouse: false was not applied next to the unknown settings")
	}
}

// A wrong value or a key conflict is an error naming the file and line
// (or both actions), and the settings fall back to the defaults.
func TestBadFilesFallBackToDefaults(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{"mouse: maybe\n", "c.yaml:1: mouse must be true or false"},
		{"keys:\n  quit: x\n", "x\" is bound to both export and quit"},
		{"keys:\n  quit: []\n", "c.yaml:2: keys.quit has no keys"},
		{"theme:\n  light:\n    ok: green\n", `c.yaml:3: theme.light.ok: "green" is not a colour`},
		{"staleness:\n  user: {aging_days: 30, stale_days: 10}\n", "c.yaml:2: staleness.user: stale_days (10) is below aging_days (30)"},
		{"live:\n  warn_percent: 120\n", "c.yaml:2: live.warn_percent must be a number from 0 to 100"},
		{"live:\n  warn_percent: 90\n  alert_percent: 80\n", "warn_percent 90 is above alert_percent 80"},
		{"keys: [a, b]\n", "c.yaml:1: keys must be a mapping"},
		{"home: [1]\n", "c.yaml:1: home must be a string"},
		{"mouse: true\nmouse: false\n", `c.yaml:2: the file: "mouse" is set twice`},
		{"- a\n- b\n", "c.yaml:1: the file must be a mapping"},
		{"keys: {quit: x\n", "c.yaml: not YAML"},
		// Keys no terminal sends, and ctrl+c taken from quit: the app could
		// not be left.
		{"keys:\n  quit: \"\\e]0;x\\a\"\n", `c.yaml:2: keys.quit: "\x1b]0;x\a" is not a key a terminal sends`},
		{"keys:\n  quit: f13\n", `c.yaml:2: keys.quit: "f13" is not a key a terminal sends`},
		{"keys:\n  help: [\"?\", ctrl+shift+alt+x]\n", `c.yaml:2: keys.help: "ctrl+shift+alt+x" is not a key a terminal sends`},
		{"keys:\n  delete: shift+d\n", `c.yaml:2: keys.delete: "shift+d" is not a key a terminal sends (a shifted letter arrives as itself: write "D")`},
		{"keys:\n  quit: Q\n  delete: ctrl+c\n", `c.yaml:3: keys.delete: ctrl+c always quits`},
	} {
		got, err := Parse([]byte(c.data), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v, want an error with %q", c.data, err, c.want)
		}
		if !reflect.DeepEqual(got.Keys, keymap.Default()) || !got.Mouse {
			t.Errorf("Parse(%q) did not fall back to the defaults", c.data)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(filepath.Join(dir, "none.yaml"))
	if err != nil || c.Found || !c.Mouse {
		t.Errorf("missing file: %+v %v, want the defaults", c, err)
	}
	// A folder where the file should be: there, not usable.
	if c, err := Load(dir); err == nil || !c.Found || !c.Mouse {
		t.Errorf("a folder: found %v, %v; want found, an error and the defaults", c.Found, err)
	}
	p := filepath.Join(dir, "sub", "config.yaml")
	if err := WriteDefault(nil, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteDefault(nil, p); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second init: %v, want fs.ErrExist (never overwritten)", err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("written file: %v %v", st, err)
	}
	c, err = Load(p)
	if err != nil || !c.Found || len(c.Problems) != 0 {
		t.Fatalf("default file: %v %v", err, c.Problems)
	}
	// The default file sets every setting to its default value.
	d := Default()
	if !reflect.DeepEqual(c.Keys, d.Keys) || !reflect.DeepEqual(c.Staleness, d.Staleness) || c.Mouse != d.Mouse || c.Live != d.Live || c.Home != "" {
		t.Error("the default file does not read back as the defaults")
	}
	if len(c.KeysSet) != len(keymap.Names()) || len(c.Theme.Dark) == 0 {
		t.Errorf("the default file lists %d of %d bindings, %d dark colours", len(c.KeysSet), len(keymap.Names()), len(c.Theme.Dark))
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := mkfifo(fifo); err == nil {
		if _, err := Load(fifo); err == nil || !strings.Contains(err.Error(), "fifo.yaml") {
			t.Errorf("a FIFO as the config: %v, want an error naming it", err)
		}
	}
}

// config/schema.json is Schema(), committed; the default file is valid
// against it, and files the reader refuses are not.
func TestSchemaIsCommitted(t *testing.T) {
	if *update {
		if err := os.WriteFile("schema.json", Schema(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != string(Schema()) {
		t.Fatal("config/schema.json differs from Schema(): run go test ./config -update and commit it")
	}
	var schema map[string]any
	if err := json.Unmarshal(committed, &schema); err != nil {
		t.Fatal(err)
	}
	check := func(name, data string) error {
		var doc any
		if err := yaml.Unmarshal([]byte(data), &doc); err != nil {
			return err
		}
		return validate(schema, jsonish(doc), "$")
	}
	if err := check("default", DefaultYAML()); err != nil {
		t.Errorf("the default file is not valid against the schema: %v", err)
	}
	for _, bad := range []string{"mouse: 3\n", "keys:\n  quitt: x\n", "theme:\n  dark:\n    accent: red\n", "staleness:\n  user: {aging_days: -1}\n", "live:\n  warn_percent: 101\n", "keys:\n  quit: []\n"} {
		if err := check("bad", bad); err == nil {
			t.Errorf("the schema accepts %q", bad)
		}
	}
}

// jsonish turns what yaml.v3 decodes into what encoding/json would.
func jsonish(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonish(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = jsonish(e)
		}
		return x
	case int:
		return float64(x)
	}
	return v
}

// validate checks doc against the subset of JSON Schema Schema uses:
// type, properties, additionalProperties false, items, minItems,
// minLength, pattern, minimum, maximum, oneOf.
func validate(s map[string]any, doc any, at string) error {
	if alts, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, a := range alts {
			if validate(a.(map[string]any), doc, at) == nil {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: matches %d of oneOf", at, n)
		}
		return nil
	}
	switch s["type"] {
	case "object":
		m, ok := doc.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: not an object", at)
		}
		props, _ := s["properties"].(map[string]any)
		for k, v := range m {
			ps, ok := props[k].(map[string]any)
			if !ok {
				if s["additionalProperties"] == false {
					return fmt.Errorf("%s: unknown property %q", at, k)
				}
				continue
			}
			if err := validate(ps, v, at+"."+k); err != nil {
				return err
			}
		}
	case "array":
		a, ok := doc.([]any)
		if !ok {
			return fmt.Errorf("%s: not an array", at)
		}
		if mi, ok := s["minItems"].(float64); ok && float64(len(a)) < mi {
			return fmt.Errorf("%s: fewer than %v items", at, mi)
		}
		for i, e := range a {
			if err := validate(s["items"].(map[string]any), e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case "string":
		str, ok := doc.(string)
		if !ok {
			return fmt.Errorf("%s: not a string", at)
		}
		if ml, ok := s["minLength"].(float64); ok && float64(len(str)) < ml {
			return fmt.Errorf("%s: shorter than %v", at, ml)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			return fmt.Errorf("%s: %q does not match %s", at, str, p)
		}
	case "boolean":
		if _, ok := doc.(bool); !ok {
			return fmt.Errorf("%s: not a boolean", at)
		}
	case "number", "integer":
		f, ok := doc.(float64)
		if !ok || s["type"] == "integer" && f != float64(int64(f)) {
			return fmt.Errorf("%s: not a %s", at, s["type"])
		}
		if mi, ok := s["minimum"].(float64); ok && f < mi {
			return fmt.Errorf("%s: below %v", at, mi)
		}
		if ma, ok := s["maximum"].(float64); ok && f > ma {
			return fmt.Errorf("%s: above %v", at, ma)
		}
	}
	return nil
}
