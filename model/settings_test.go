package model

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func ptr[T any](v T) *T { return &v }

func TestParseSettings(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      Settings
		probLines []int
		probHas   string
	}{
		{"all keys", `{"cleanupPeriodDays": 7, "autoMemoryEnabled": false, "autoMemoryDirectory": "~/mem",
 "claudeMdExcludes": ["**/vendor/**"], "autoCompactEnabled": true, "model": "x"}`,
			Settings{CleanupPeriodDays: ptr(7), AutoMemoryEnabled: ptr(false), AutoMemoryDirectory: ptr("~/mem"), ClaudeMdExcludes: []string{"**/vendor/**"}, AutoCompactEnabled: ptr(true)}, nil, ""},
		{"empty file", "", Settings{}, nil, ""},
		{"white space only", " \n\t", Settings{}, nil, ""},
		{"BOM", "\uFEFF{\"cleanupPeriodDays\": 0}", Settings{CleanupPeriodDays: ptr(0)}, nil, ""},
		{"unknown keys only", `{"permissions": {"allow": []}, "theme": "dark"}`, Settings{}, nil, ""},
		{"window keys and env", `{"autoCompactWindow": 100000, "modelSettings": {"claude-opus-4-6": {"autoCompactWindow": "150k"}, "x": {}}, "idleCompaction": false, "env": {"DISABLE_COMPACT": "1", "N": 5, "O": {}}}`,
			Settings{AutoCompactWindow: ptr("100000"), ModelAutoCompactWindow: map[string]string{"claude-opus-4-6": "150k"}, IdleCompaction: ptr(false),
				Env: map[string]string{"DISABLE_COMPACT": "1", "N": "5"}}, nil, ""},
		{"window not a number", `{"autoCompactWindow": [1]}`, Settings{}, []int{1}, "number of tokens"},
		{"syntax error on line 3", "{\n \"cleanupPeriodDays\": 5,\n \"x\": ,\n}", Settings{}, []int{3}, "invalid character"},
		{"truncated", "{\n\"autoMemoryEnabled\": tr", Settings{}, []int{2}, "settings"},
		{"wrong type reported on its line, others kept", "{\n\"cleanupPeriodDays\": \"ten\",\n\"autoCompactEnabled\": false\n}",
			Settings{AutoCompactEnabled: ptr(false)}, []int{2}, "whole number"},
		{"negative cleanup", `{"cleanupPeriodDays": -1}`, Settings{}, []int{1}, "negative"},
		{"fractional cleanup", `{"cleanupPeriodDays": 1.5}`, Settings{}, []int{1}, "whole number"},
		{"excludes not strings", `{"claudeMdExcludes": [1]}`, Settings{}, []int{1}, "array of strings"},
		{"top level array", `[1]`, Settings{}, []int{1}, "not a JSON object"},
		{"data after object", "{}\n{}", Settings{}, []int{2}, "after top-level value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, probs := ParseSettings("s.json", []byte(tt.in))
			got.Path = ""
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("settings = %+v, want %+v", got, tt.want)
			}
			var lines []int
			for _, p := range probs {
				lines = append(lines, p.Line)
				if p.File != "s.json" || !strings.Contains(p.Reason, tt.probHas) {
					t.Errorf("problem %+v: want file s.json and reason containing %q", p, tt.probHas)
				}
			}
			if !reflect.DeepEqual(lines, tt.probLines) {
				t.Errorf("problem lines = %v, want %v (%v)", lines, tt.probLines, probs)
			}
		})
	}
}

func TestLoadSettingsStack(t *testing.T) {
	fsys := fstest.MapFS{
		"h/settings.json":                       {Data: []byte(`{"autoMemoryEnabled": true, "claudeMdExcludes": ["a", "b"], "cleanupPeriodDays": 3}`)},
		"p/.claude/settings.json":               {Data: []byte(`{"autoMemoryEnabled": false, "claudeMdExcludes": ["b", "c"]}`)},
		"p/.claude/settings.local.json":         {Data: []byte(`{bad`)},
		"etc/claude-code/managed-settings.json": {Data: []byte(`{"cleanupPeriodDays": 9}`)},
	}
	st, probs := LoadSettings(fsys, "/h", "/p", "/etc/claude-code")
	if len(st) != 4 || st[0].Source != SettingsUser || st[1].Source != SettingsProject || st[2].Source != SettingsLocal || st[3].Source != SettingsManaged {
		t.Fatalf("stack = %+v", st)
	}
	if len(probs) != 1 || probs[0].File != "/p/.claude/settings.local.json" || probs[0].Line != 1 {
		t.Errorf("problems = %+v", probs)
	}
	on, from := st.AutoMemoryEnabled()
	if on == nil || *on || from.Path != "/p/.claude/settings.json" {
		t.Errorf("AutoMemoryEnabled = %v from %+v; want false from the project file", on, from)
	}
	if got := st.CleanupPeriodDays(); got != 9 {
		t.Errorf("CleanupPeriodDays = %d, want managed 9", got)
	}
	if got := st.ClaudeMdExcludes(); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("ClaudeMdExcludes = %v", got)
	}
	if got := (SettingsStack{}).CleanupPeriodDays(); got != 30 {
		t.Errorf("default CleanupPeriodDays = %d, want 30", got)
	}
	if on, from := (SettingsStack{}).AutoCompactEnabled(); !on || from != nil {
		t.Errorf("default AutoCompactEnabled = %v from %v, want true by default", on, from)
	}
	off := false
	st = append(st, Settings{Path: "/x/settings.json", AutoCompactEnabled: &off})
	if on, from := st.AutoCompactEnabled(); on || from == nil || from.Path != "/x/settings.json" {
		t.Errorf("AutoCompactEnabled = %v from %+v, want false from /x/settings.json", on, from)
	}
}

func TestClaudeJSON(t *testing.T) {
	fsys := fstest.MapFS{
		"cfg/.claude.json":     {Data: []byte(`{"projects": {"/repo": {"hasClaudeMdExternalIncludesApproved": true, "lastSessionId": "s1"}, "/bad": 3, "/other": {}}, "numStartups": 4}`)},
		"home/me/.claude.json": {Data: []byte(`{"projects": {"/repo": {}}}`)},
	}
	c, probs := ReadClaudeJSON(fsys, ClaudeJSONPaths("/cfg", "/home/me"))
	if c == nil || c.Path != "/cfg/.claude.json" {
		t.Fatalf("read %+v", c)
	}
	if !c.ExternalIncludesApproved("/repo") || c.ExternalIncludesApproved("/other") || c.ExternalIncludesApproved("/none") {
		t.Errorf("approvals wrong: %+v", c.Projects)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Reason, `"/bad"`) {
		t.Errorf("problems = %+v", probs)
	}
	c, _ = ReadClaudeJSON(fsys, ClaudeJSONPaths("", "/home/me"))
	if c == nil || c.Path != "/home/me/.claude.json" || c.ExternalIncludesApproved("/repo") {
		t.Errorf("fallback to ~/.claude.json: %+v", c)
	}
	if c, _ := ReadClaudeJSON(fsys, []string{"/nowhere/.claude.json"}); c != nil {
		t.Errorf("missing file read as %+v", c)
	}
	_, probs = ParseClaudeJSON("x", []byte("{\n\"projects\": [\n"))
	if len(probs) != 1 || probs[0].Line < 2 {
		t.Errorf("bad json problems = %+v", probs)
	}
	var nilC *ClaudeJSON
	if nilC.ExternalIncludesApproved("/repo") {
		t.Error("nil ClaudeJSON approves")
	}
}
