package model

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestResolveMemoryLocation(t *testing.T) {
	dir := &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	base := fstest.MapFS{
		"home/me/.claude":   dir,
		"home/me/repo/.git": dir,
		"home/me/repo/sub":  dir,
		"tmp/loose":         dir,
	}
	user := func(json string) SettingsStack {
		s, _ := ParseSettings("/home/me/.claude/settings.json", []byte(json))
		s.Source = SettingsUser
		return SettingsStack{s}
	}
	project := func(json string) SettingsStack {
		s, _ := ParseSettings("/home/me/repo/.claude/settings.json", []byte(json))
		s.Source = SettingsProject
		return SettingsStack{s}
	}
	tests := []struct {
		name        string
		start       string
		env         map[string]string
		settings    SettingsStack
		bare        bool
		wantDir     string
		wantRule    MemoryRule
		wantOn      bool
		wantSwitch  MemorySwitch
		wantIgnored string
	}{
		{"git root from a sub folder", "/home/me/repo/sub", nil, nil, false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchDefault, ""},
		{"no git: startup dir", "/tmp/loose", nil, nil, false,
			"/home/me/.claude/projects/-tmp-loose/memory", MemoryRuleStartDir, true, SwitchDefault, ""},
		{"cowork override", "/home/me/repo", map[string]string{EnvCoworkMemoryPath: "/srv/mem/"}, nil, false,
			"/srv/mem", MemoryRuleCoworkEnv, true, SwitchDefault, ""},
		{"cowork override must be absolute", "/home/me/repo", map[string]string{EnvCoworkMemoryPath: "rel/mem"}, nil, false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchDefault, "not an absolute path"},
		{"cowork beats setting", "/home/me/repo", map[string]string{EnvCoworkMemoryPath: "/srv/mem"}, user(`{"autoMemoryDirectory": "/x"}`), false,
			"/srv/mem", MemoryRuleCoworkEnv, true, SwitchDefault, ""},
		{"user setting with ~/", "/home/me/repo", nil, user(`{"autoMemoryDirectory": "~/notes/mem"}`), false,
			"/home/me/notes/mem", MemoryRuleSetting, true, SwitchDefault, ""},
		{"user setting absolute", "/home/me/repo", nil, user(`{"autoMemoryDirectory": "/data/mem"}`), false,
			"/data/mem", MemoryRuleSetting, true, SwitchDefault, ""},
		{"setting with .. rejected", "/home/me/repo", nil, user(`{"autoMemoryDirectory": "~/a/../../etc"}`), false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchDefault, `".." is not allowed`},
		{"relative setting rejected", "/home/me/repo", nil, user(`{"autoMemoryDirectory": "mem"}`), false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchDefault, "not an absolute path"},
		{"checked-in setting ignored", "/home/me/repo", nil, project(`{"autoMemoryDirectory": "/evil"}`), false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchDefault, "checked-in"},
		{"remote memory dir replaces $H", "/home/me/repo", map[string]string{EnvRemoteMemoryDir: "/remote"}, nil, false,
			"/remote/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchDefault, ""},
		{"disable env truthy", "/home/me/repo", map[string]string{EnvDisableAutoMemory: " TRUE "}, nil, false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, false, SwitchEnvOff, ""},
		{"disable env falsy forces on over bare and setting", "/home/me/repo", map[string]string{EnvDisableAutoMemory: "0"}, user(`{"autoMemoryEnabled": false}`), true,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchEnvForcedOn, ""},
		{"disable env other value ignored", "/home/me/repo", map[string]string{EnvDisableAutoMemory: "maybe"}, nil, false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, true, SwitchDefault, ""},
		{"bare", "/home/me/repo", nil, nil, true,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, false, SwitchBare, ""},
		{"setting off", "/home/me/repo", nil, user(`{"autoMemoryEnabled": false}`), false,
			"/home/me/.claude/projects/-home-me-repo/memory", MemoryRuleGitRoot, false, SwitchSetting, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := ResolveMemoryLocation(MemoryOptions{
				Root: base, HomeDir: "/home/me/.claude", UserHome: "/home/me", StartDir: tt.start,
				Getenv: func(k string) string { return tt.env[k] }, Settings: tt.settings, Bare: tt.bare,
			})
			if loc.Dir != tt.wantDir || loc.Rule != tt.wantRule || loc.Enabled != tt.wantOn || loc.Switch != tt.wantSwitch {
				t.Errorf("got dir %q rule %s on %v switch %s; want %q %s %v %s (%+v)", loc.Dir, loc.Rule, loc.Enabled, loc.Switch, tt.wantDir, tt.wantRule, tt.wantOn, tt.wantSwitch, loc)
			}
			if loc.Reason == "" || loc.SwitchReason == "" {
				t.Errorf("missing reasons: %+v", loc)
			}
			ign := strings.Join(loc.Ignored, "; ")
			if tt.wantIgnored == "" && ign != "" || !strings.Contains(ign, tt.wantIgnored) {
				t.Errorf("ignored = %q, want it to mention %q", ign, tt.wantIgnored)
			}
		})
	}
}

func TestResolveMemoryLocationWorktreeAndLongSlug(t *testing.T) {
	long := "/w/" + strings.Repeat("d", 220)
	prefix := Slug(long)[:200]
	fsys := fstest.MapFS{
		"repo/.git/worktrees/wt/commondir": {Data: []byte("../..")},
		"wt/.git":                          {Data: []byte("gitdir: /repo/.git/worktrees/wt")},
		RootName(long) + "/f":              {},
		"h/projects/" + prefix + "-oldbuild/memory/MEMORY.md": {},
	}
	loc := ResolveMemoryLocation(MemoryOptions{Root: fsys, HomeDir: "/h", StartDir: "/wt"})
	if loc.Dir != "/h/projects/-repo/memory" || loc.Rule != MemoryRuleWorktree || loc.Key != "/repo" {
		t.Errorf("worktree: %+v", loc)
	}
	loc = ResolveMemoryLocation(MemoryOptions{Root: fsys, HomeDir: "/h", StartDir: long})
	if loc.Dir != "/h/projects/"+prefix+"-oldbuild/memory" || !strings.Contains(loc.Reason, "prefix") {
		t.Errorf("long slug: %+v", loc)
	}
	loc = ResolveMemoryLocation(MemoryOptions{HomeDir: "/h", StartDir: "/x"})
	if loc.Dir != "/h/projects/-x/memory" {
		t.Errorf("nil root: %+v", loc)
	}
}

func TestEnvSwitchValues(t *testing.T) {
	for _, v := range []string{"1", "true", "YES", " on "} {
		if !EnvTruthy(v) || EnvFalsy(v) {
			t.Errorf("%q should be truthy only", v)
		}
	}
	for _, v := range []string{"0", "False", "no", "OFF"} {
		if EnvTruthy(v) || !EnvFalsy(v) {
			t.Errorf("%q should be falsy only", v)
		}
	}
	for _, v := range []string{"", "2", "y"} {
		if EnvTruthy(v) || EnvFalsy(v) {
			t.Errorf("%q should be neither", v)
		}
	}
}
