package window

import (
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

func set(v string) *string { return &v }
func on(b bool) *bool      { return &b }

func TestResolve(t *testing.T) {
	user := model.Settings{Source: model.SettingsUser, Path: "/h/settings.json"}
	project := model.Settings{Source: model.SettingsProject, Path: "/p/.claude/settings.json"}
	withUser := func(f func(*model.Settings)) model.SettingsStack {
		s := user
		f(&s)
		return model.SettingsStack{s}
	}
	const opus = "claude-opus-4-6"
	tests := []struct {
		name string
		in   Input
		env  map[string]string // nil: environment not readable
		// want: window, its source; autocompact level, its source (a
		// substring); off and its source.
		window      Tokens
		windowSrc   string
		autocompact Tokens
		acSrc       string
		off         string
		inferred    bool
	}{
		{name: "known model, nothing set", in: Input{Model: opus}, env: map[string]string{},
			window: 200000, windowSrc: "model " + opus, autocompact: 167000, acSrc: "default"},
		{name: "no model: 200k preset", in: Input{}, env: map[string]string{},
			window: 200000, windowSrc: "no model named", autocompact: 167000, acSrc: "default"},
		{name: "known model past 200k is 1M", in: Input{Model: opus, MaxContext: 250000}, env: map[string]string{},
			window: 1000000, windowSrc: "a response held 250000", autocompact: 967000, acSrc: "default"},
		{name: "[1m] model", in: Input{Model: opus + "[1m]"}, env: map[string]string{},
			window: 1000000, windowSrc: "model " + opus + "[1m]", autocompact: 967000, acSrc: "default"},
		{name: "unknown model ID: 1M", in: Input{Model: "claude-nova-9"}, env: map[string]string{},
			window: 1000000, windowSrc: "not one the client knows: 1M since 2.1.323", autocompact: 967000, acSrc: "default"},
		{name: "CLAUDE_CODE_DISABLE_1M_CONTEXT", in: Input{Model: "claude-nova-9"}, env: map[string]string{EnvDisable1M: "1"},
			window: 200000, windowSrc: EnvDisable1M, autocompact: 167000, acSrc: "default"},
		{name: "CLAUDE_CODE_MAX_CONTEXT_TOKENS on an unknown claude ID", in: Input{Model: "claude-nova-9"}, env: map[string]string{EnvMaxContextTokens: "400k"},
			window: 400000, windowSrc: EnvMaxContextTokens, autocompact: 367000, acSrc: "default"},
		{name: "CLAUDE_CODE_MAX_CONTEXT_TOKENS ignored for a known model", in: Input{Model: opus}, env: map[string]string{EnvMaxContextTokens: "400000"},
			window: 200000, windowSrc: "model " + opus, autocompact: 167000, acSrc: "default"},
		{name: "status line size wins", in: Input{Model: "claude-nova-9", StatusLineSize: 500000}, env: map[string]string{EnvDisable1M: "1"},
			window: 500000, windowSrc: "status line context_window_size", autocompact: 467000, acSrc: "default"},
		{name: "CLAUDE_CODE_AUTO_COMPACT_WINDOW", in: Input{Model: opus}, env: map[string]string{EnvAutoCompactWindow: "100000"},
			window: 200000, windowSrc: "model", autocompact: 67000, acSrc: EnvAutoCompactWindow},
		{name: "CLAUDE_CODE_AUTO_COMPACT_WINDOW with k suffix", in: Input{Model: opus + "[1m]"}, env: map[string]string{EnvAutoCompactWindow: "500k"},
			window: 1000000, windowSrc: "model", autocompact: 467000, acSrc: EnvAutoCompactWindow},
		{name: "CLAUDE_CODE_AUTO_COMPACT_WINDOW with M suffix above the window does nothing", in: Input{Model: opus}, env: map[string]string{EnvAutoCompactWindow: "1M"},
			window: 200000, windowSrc: "model", autocompact: 167000, acSrc: "default"},
		{name: "CLAUDE_CODE_AUTO_COMPACT_WINDOW out of range ignored", in: Input{Model: opus}, env: map[string]string{EnvAutoCompactWindow: "50000"},
			window: 200000, windowSrc: "model", autocompact: 167000, acSrc: "default"},
		{name: "autoCompactWindow setting", in: Input{Model: opus, Settings: withUser(func(s *model.Settings) { s.AutoCompactWindow = set("100000") })}, env: map[string]string{},
			window: 200000, windowSrc: "model", autocompact: 67000, acSrc: "autoCompactWindow in /h/settings.json"},
		{name: "per-model setting before top level", in: Input{Model: opus, Settings: withUser(func(s *model.Settings) {
			s.AutoCompactWindow = set("100000")
			s.ModelAutoCompactWindow = map[string]string{opus: "150k"}
		})}, env: map[string]string{},
			window: 200000, windowSrc: "model", autocompact: 117000, acSrc: "modelSettings." + opus + ".autoCompactWindow in /h/settings.json"},
		{name: "per-model setting of another model ignored", in: Input{Model: opus, Settings: withUser(func(s *model.Settings) {
			s.ModelAutoCompactWindow = map[string]string{"claude-sonnet-4-6": "150k"}
		})}, env: map[string]string{},
			window: 200000, windowSrc: "model", autocompact: 167000, acSrc: "default"},
		{name: "later settings file wins", in: Input{Model: opus, Settings: model.SettingsStack{
			func() model.Settings { s := user; s.AutoCompactWindow = set("100000"); return s }(),
			func() model.Settings { s := project; s.AutoCompactWindow = set("120000"); return s }(),
		}}, env: map[string]string{},
			window: 200000, windowSrc: "model", autocompact: 87000, acSrc: "autoCompactWindow in /p/.claude/settings.json"},
		{name: "variable over setting", in: Input{Model: opus, Settings: withUser(func(s *model.Settings) { s.AutoCompactWindow = set("150000") })},
			env:    map[string]string{EnvAutoCompactWindow: "100k"},
			window: 200000, windowSrc: "model", autocompact: 67000, acSrc: EnvAutoCompactWindow},
		{name: "settings env block counts as the environment", in: Input{Model: opus, Settings: withUser(func(s *model.Settings) {
			s.Env = map[string]string{EnvAutoCompactWindow: "120000"}
		})}, env: nil,
			window: 200000, windowSrc: "model", autocompact: 87000, acSrc: EnvAutoCompactWindow + " in /h/settings.json"},
		{name: "subagent lowers", in: Input{Model: opus, SubagentWindow: 100000, Settings: withUser(func(s *model.Settings) { s.AutoCompactWindow = set("150000") })},
			env:    map[string]string{},
			window: 200000, windowSrc: "model", autocompact: 67000, acSrc: "the subagent's autoCompactWindow"},
		{name: "subagent cannot raise", in: Input{Model: opus, SubagentWindow: 150000}, env: map[string]string{EnvAutoCompactWindow: "100000"},
			window: 200000, windowSrc: "model", autocompact: 67000, acSrc: EnvAutoCompactWindow},
		{name: "pct override lowers", in: Input{Model: opus}, env: map[string]string{EnvAutocompactPct: "50"},
			window: 200000, windowSrc: "model", autocompact: 90000, acSrc: EnvAutocompactPct + "=50"},
		{name: "pct override cannot raise", in: Input{Model: opus}, env: map[string]string{EnvAutocompactPct: "95"},
			window: 200000, windowSrc: "model", autocompact: 167000, acSrc: "default"},
		{name: "DISABLE_COMPACT", in: Input{Model: opus}, env: map[string]string{EnvDisableCompact: "1"},
			window: 200000, windowSrc: "model", autocompact: 167000, acSrc: "default", off: EnvDisableCompact},
		{name: "autoCompactEnabled false", in: Input{Model: opus, Settings: withUser(func(s *model.Settings) { s.AutoCompactEnabled = on(false) })}, env: map[string]string{},
			window: 200000, windowSrc: "model", autocompact: 167000, acSrc: "default", off: "autoCompactEnabled: false in /h/settings.json"},
		{name: "compactions near 67k with nothing else: inferred", in: Input{Model: opus, AutoPreTokens: []Tokens{67542, 62811}}, env: nil,
			window: 200000, windowSrc: "model", autocompact: 67000, acSrc: "inferred from 2 automatic compactions", inferred: true},
		{name: "compactions near the computed level: no inference", in: Input{Model: opus, AutoPreTokens: []Tokens{165800}}, env: nil,
			window: 200000, windowSrc: "model", autocompact: 167000, acSrc: "default"},
		{name: "compactions agree with the variable", in: Input{Model: opus, AutoPreTokens: []Tokens{67542}}, env: map[string]string{EnvAutoCompactWindow: "100000"},
			window: 200000, windowSrc: "model", autocompact: 67000, acSrc: EnvAutoCompactWindow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			if tt.env != nil {
				env := tt.env
				in.Getenv, in.EnvFrom = func(k string) string { return env[k] }, "test"
			}
			r := Resolve(in)
			if r.Window.Tokens != tt.window || !strings.Contains(r.Window.Source, tt.windowSrc) {
				t.Errorf("window %d (%s), want %d (%s)", r.Window.Tokens, r.Window.Source, tt.window, tt.windowSrc)
			}
			if r.Autocompact.Tokens != tt.autocompact || r.Config.AutocompactAt() != tt.autocompact || !strings.Contains(r.Autocompact.Source, tt.acSrc) {
				t.Errorf("autocompact %d / config %d (%s), want %d (%s)", r.Autocompact.Tokens, r.Config.AutocompactAt(), r.Autocompact.Source, tt.autocompact, tt.acSrc)
			}
			if r.Off != (tt.off != "") || r.OffSource != tt.off {
				t.Errorf("off %v (%s), want %q", r.Off, r.OffSource, tt.off)
			}
			if (r.Inferred != nil) != tt.inferred {
				t.Errorf("inferred %+v, want %v", r.Inferred, tt.inferred)
			}
			if tt.env == nil && r.EnvNote != EnvAssumed {
				t.Errorf("env note %q without an environment", r.EnvNote)
			}
			if r.Config.BlockedAt() != r.Window.Tokens-20000-3000 {
				t.Errorf("blocked at %d moved off the model's window %d", r.Config.BlockedAt(), r.Window.Tokens)
			}
		})
	}
}

func TestResolveLineAndIdle(t *testing.T) {
	r := Resolve(Input{Model: "claude-opus-4-6", Getenv: func(k string) string {
		return map[string]string{EnvAutoCompactWindow: "100000"}[k]
	}, EnvFrom: "test"})
	if got, want := r.Line(), "autocompact at 67k · "+EnvAutoCompactWindow; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	if r.IdleNote() == "" || !r.IdleCompaction || r.IdleCompactionSource != "default" {
		t.Errorf("idle compaction on by default: %v %q %q", r.IdleCompaction, r.IdleCompactionSource, r.IdleNote())
	}
	off := false
	r = Resolve(Input{Model: "claude-opus-4-6", Settings: model.SettingsStack{{Path: "/h/s.json", IdleCompaction: &off}}})
	if r.IdleCompaction || r.IdleNote() != "" || r.IdleCompactionSource != "idleCompaction in /h/s.json" {
		t.Errorf("idleCompaction false: %v %q %q", r.IdleCompaction, r.IdleCompactionSource, r.IdleNote())
	}
	r = Resolve(Input{Model: "claude-opus-4-6", AutoPreTokens: []Tokens{67542}})
	if !strings.Contains(r.Line(), "inferred") || !strings.Contains(r.Line(), "67k") || !strings.Contains(r.Line(), "167k") {
		t.Errorf("inferred line %q", r.Line())
	}
}

func TestParseTokens(t *testing.T) {
	for in, want := range map[string]Tokens{"100000": 100000, "100k": 100000, " 1M ": 1000000, "1.5M": 1500000, "250K": 250000} {
		if got, ok := ParseTokens(in); !ok || got != want {
			t.Errorf("ParseTokens(%q) = %d %v, want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "k", "abc", "-5", "1.5", "1e20"} {
		if got, ok := ParseTokens(in); ok {
			t.Errorf("ParseTokens(%q) = %d, want rejected", in, got)
		}
	}
}
