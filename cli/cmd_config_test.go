package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configEnv is testEnv with XDG_CONFIG_HOME set to a temporary folder:
// the settings file is $XDG_CONFIG_HOME/memscope/config.yaml.
func configEnv(t *testing.T) (*env, string, func() (string, string)) {
	t.Helper()
	e, out, errb := testEnv(t)
	xdg := t.TempDir()
	e.getenv = func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}
	return e, filepath.Join(xdg, "memscope", "config.yaml"), func() (string, string) {
		o, er := out.String(), errb.String()
		out.Reset()
		errb.Reset()
		return o, er
	}
}

func TestConfigInitShowAndPath(t *testing.T) {
	e, path, take := configEnv(t)
	if code := run(e, []string{"config", "path"}); code != 0 {
		t.Fatalf("config path: exit %d", code)
	}
	if o, _ := take(); !strings.HasPrefix(o, path+"\nnot there") {
		t.Errorf("config path = %q", o)
	}
	if code := run(e, []string{"config", "init"}); code != 0 {
		t.Fatalf("config init: exit %d", code)
	}
	take()
	if code := run(e, []string{"config", "init"}); code != 1 {
		t.Errorf("second init: exit %d, want 1 (never replaced)", code)
	}
	if _, er := take(); !strings.Contains(er, "exists") {
		t.Errorf("second init said %q", er)
	}
	// Change two settings and add an unknown one: show names the lines.
	if err := os.WriteFile(path, []byte("mouse: false\nkeys:\n  quit: [x]\n  export: [ctrl+e]\nwidth: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := run(e, []string{"config", "show", "--json"}); code != 0 {
		t.Fatalf("config show: exit %d", code)
	}
	o, er := take()
	var rep configReport
	if err := json.Unmarshal([]byte(o), &rep); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	src := map[string]string{}
	val := map[string]any{}
	for _, s := range rep.Values {
		src[s.Name], val[s.Name] = s.Source, s.Value
	}
	if src["mouse"] != path+":1" || val["mouse"] != false || src["keys.quit"] != path+":3" || src["keys.delete"] != "default" {
		t.Errorf("sources: mouse %q=%v, keys.quit %q, keys.delete %q", src["mouse"], val["mouse"], src["keys.quit"], src["keys.delete"])
	}
	if len(rep.Unknown) != 1 || !strings.Contains(rep.Unknown[0], path+":5") || !strings.Contains(er, `unknown setting "width"`) {
		t.Errorf("unknown %v, stderr %q", rep.Unknown, er)
	}
	// A wrong value: the defaults, said on stderr and in show.
	if err := os.WriteFile(path, []byte("keys:\n  quit: [x]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e2, _, _ := configEnv(t)
	e2.getenv = e.getenv
	var out2, err2 strings.Builder
	e2.stdout, e2.stderr = &out2, &err2
	if code := run(e2, []string{"config", "show"}); code != 0 {
		t.Fatalf("config show: exit %d", code)
	}
	if !strings.Contains(out2.String(), "not used:") || !strings.Contains(out2.String(), "bound to both export and quit") || !strings.Contains(err2.String(), "using the default settings") {
		t.Errorf("a conflicting file:\n%s\n%s", out2.String(), err2.String())
	} // The file is there, only not usable: show says so (it said "not
	// there"), and so does --json's found.
	if !strings.Contains(out2.String(), "config "+path+" (there, but not used)") {
		t.Errorf("a conflicting file's state:\n%s", out2.String())
	}
	out2.Reset()
	if code := run(e2, []string{"config", "show", "--json"}); code != 0 {
		t.Fatalf("config show --json: exit %d", code)
	}
	var bad configReport
	if err := json.Unmarshal([]byte(out2.String()), &bad); err != nil || !bad.Found || bad.Error == "" {
		t.Errorf("a conflicting file's --json: found %v, error %q (%v)", bad.Found, bad.Error, err)
	}
}

// The settings file's home is used when neither --home nor
// $CLAUDE_CONFIG_DIR says.
func TestConfigHome(t *testing.T) {
	e, path, take := configEnv(t)
	home, err := filepath.Abs("../testdata/home")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("home: "+home+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := run(e, []string{"stat", "--json"}); code != 0 {
		_, er := take()
		t.Fatalf("stat: exit %d: %s", code, er)
	}
	o, _ := take()
	var st struct{ Home, Source string }
	if err := json.Unmarshal([]byte(o), &st); err != nil {
		t.Fatal(err)
	}
	if st.Home != home || st.Source != "config home" {
		t.Errorf("stat read %q from %q, want %q from the config home", st.Home, st.Source, home)
	}
}
