package model

import "testing"

func TestXDGMemscope(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "XDG_DATA_HOME" {
				return v
			}
			return ""
		}
	}
	home := func(h string) func() (string, error) { return func() (string, error) { return h, nil } }
	for _, c := range []struct{ v, home, want string }{
		{"/data", "/home/me", "/data/memscope"},
		{"", "/home/me", "/home/me/.local/share/memscope"},
		// A relative $XDG_DATA_HOME is ignored, as the XDG rule says.
		{"rel/data", "/home/me", "/home/me/.local/share/memscope"},
	} {
		if got, err := XDGData.Memscope(env(c.v), home(c.home)); err != nil || got != c.want {
			t.Errorf("XDG_DATA_HOME=%q home %q: %q, %v; want %q", c.v, c.home, got, err, c.want)
		}
	}
	if got, err := XDGData.Memscope(env(""), home("relative")); err == nil {
		t.Errorf("a relative user home gave %q, want an error", got)
	}
}
