package preview

import (
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func files(kv ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[strings.TrimPrefix(kv[i], "/")] = &fstest.MapFile{Data: []byte(kv[i+1]), ModTime: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	}
	return m
}

// rows renders layers as "status kind path" for compact comparison.
func rows(ls []Layer) []string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s %s %s", l.Status, l.Kind, l.Path))
	}
	return out
}

func TestAssembleLoadOrder(t *testing.T) {
	fsys := files(
		"/etc/claude-code/CLAUDE.md", "managed",
		"/etc/claude-code/.claude/rules/policy.md", "policy",
		"/home/me/.claude/CLAUDE.md", "user",
		"/home/me/.claude/rules/b.md", "user rule b",
		"/home/me/.claude/rules/a/nested.md", "user rule nested",
		"/CLAUDE.md", "root",
		"/repo/CLAUDE.md", "repo",
		"/repo/.claude/CLAUDE.md", "repo dot",
		"/repo/.claude/rules/r1.md", "rule",
		"/repo/.claude/rules/ts.md", "---\npaths:\n  - \"src/**/*.ts\"\n---\nts only",
		"/repo/.claude/rules/notes.txt", "not a rule",
		"/repo/CLAUDE.local.md", "local",
		"/repo/sub/CLAUDE.md", "sub",
		"/repo/sub/other/CLAUDE.md", "not on the path",
		"/extra/CLAUDE.md", "add dir",
	)
	res := AssembleClaudeMd(ClaudeMdOptions{Root: fsys, HomeDir: "/home/me/.claude", UserHome: "/home/me", Project: "/repo/sub", AddDirs: []string{"/extra"}, AddDirsClaudeMd: true})
	want := []string{
		"loaded managed /etc/claude-code/CLAUDE.md",
		"loaded managed /etc/claude-code/.claude/rules/policy.md",
		"loaded user /home/me/.claude/CLAUDE.md",
		"loaded user /home/me/.claude/rules/a/nested.md",
		"loaded user /home/me/.claude/rules/b.md",
		"loaded project /CLAUDE.md",
		"loaded project /repo/CLAUDE.md",
		"loaded project /repo/.claude/CLAUDE.md",
		"loaded project /repo/.claude/rules/r1.md",
		"conditional project /repo/.claude/rules/ts.md",
		"loaded local /repo/CLAUDE.local.md",
		"loaded project /repo/sub/CLAUDE.md",
		"loaded project /extra/CLAUDE.md",
	}
	if got := rows(res.Layers); !reflect.DeepEqual(got, want) {
		t.Errorf("layers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.ConditionalRules) != 1 || res.ConditionalRules[0].Note != "loads when a file matching src/**/*.ts is touched (then about 12 tokens, sent in the tool result)" {
		t.Errorf("conditional = %+v", res.ConditionalRules)
	}
	if got := res.Layers[6].Text; got != "Contents of /repo/CLAUDE.md (project instructions, checked into the codebase):\n\nrepo" {
		t.Errorf("project header: %q", got)
	}
	if got := res.Layers[10].Text; got != "Contents of /repo/CLAUDE.local.md (user's private project instructions, not checked in):\n\nlocal" {
		t.Errorf("local header: %q", got)
	}
	if got := res.Layers[2].Text; got != "Contents of /home/me/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nuser" {
		t.Errorf("user header: %q", got)
	}
}

// 2.1.331 reads --add-dir folders' files only when
// CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD is true: Build follows the
// environment, and the files show as skipped (imports and path rules
// included) when it is not set.
func TestAddDirsFollowTheEnvironment(t *testing.T) {
	fsys := files(
		"/repo/CLAUDE.md", "repo",
		"/repo/extra/CLAUDE.md", "add dir @more.md @gone.md",
		"/repo/extra/more.md", "more",
		"/repo/extra/.claude/rules/ts.md", "---\npaths: [\"**/*.ts\"]\n---\nts",
	)
	for _, tc := range []struct {
		env  string
		want []string
		note string
	}{
		{"", []string{"loaded project /repo/CLAUDE.md", "skipped project /repo/extra/CLAUDE.md", "skipped project /repo/extra/more.md", "missing project /repo/extra/gone.md", "conditional project /repo/extra/.claude/rules/ts.md"}, "do not load"},
		{"0", []string{"loaded project /repo/CLAUDE.md", "skipped project /repo/extra/CLAUDE.md", "skipped project /repo/extra/more.md", "missing project /repo/extra/gone.md", "conditional project /repo/extra/.claude/rules/ts.md"}, "do not load"},
		{"true", []string{"loaded project /repo/CLAUDE.md", "loaded project /repo/extra/CLAUDE.md", "loaded project /repo/extra/more.md", "missing project /repo/extra/gone.md", "conditional project /repo/extra/.claude/rules/ts.md"}, "load because"},
	} {
		p := Build(Options{Root: fsys, HomeDir: "/h", Project: "/repo", AddDirs: []string{"/repo/extra"}, Now: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
			Getenv: func(k string) string {
				if k == EnvAddDirsClaudeMd {
					return tc.env
				}
				return ""
			}})
		var got []string
		for _, l := range p.Layers {
			if l.Kind == KindProject {
				got = append(got, fmt.Sprintf("%s %s %s", l.Status, l.Kind, l.Path))
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("env %q:\n%s\nwant\n%s", tc.env, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		off := tc.note == "do not load"
		if off && (len(p.MissingImports) != 0 || len(p.ConditionalRules) != 0 || strings.Contains(p.Text, "add dir")) {
			t.Errorf("env %q: nothing of --add-dir may load: missing %v rules %v", tc.env, p.MissingImports, p.ConditionalRules)
		}
		if !off && !strings.Contains(p.Text, "add dir") {
			t.Errorf("env %q: the --add-dir CLAUDE.md is not in the text", tc.env)
		}
		if !strings.Contains(strings.Join(p.Notes, "\n"), tc.note) {
			t.Errorf("env %q: notes %v", tc.env, p.Notes)
		}
	}
}

func TestAssembleImports(t *testing.T) {
	big := strings.Repeat("x", ImportMaxBytes+1)
	tests := []struct {
		name     string
		fs       fstest.MapFS
		project  string
		approved bool
		excludes []string
		want     []string
		reasons  map[int]string // layer index → reason substring
		missing  []string
	}{
		{"placed right after the importer, depth first", files(
			"/r/CLAUDE.md", "top @a.md",
			"/r/a.md", "a @b/b.md",
			"/r/b/b.md", "b",
			"/r/CLAUDE.local.md", "local"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "loaded project /r/a.md", "loaded project /r/b/b.md", "loaded local /r/CLAUDE.local.md"}, nil, nil},
		{"imports take the importer's kind", files(
			"/r/CLAUDE.local.md", "@mine.md",
			"/r/mine.md", "m"), "/r", false, nil,
			[]string{"loaded local /r/CLAUDE.local.md", "loaded local /r/mine.md"}, nil, nil},
		{"depth: the file and four levels load", files(
			"/r/CLAUDE.md", "@d1.md", "/r/d1.md", "@d2.md", "/r/d2.md", "@d3.md", "/r/d3.md", "@d4.md", "/r/d4.md", "@d5.md", "/r/d5.md", "too deep"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "loaded project /r/d1.md", "loaded project /r/d2.md", "loaded project /r/d3.md", "loaded project /r/d4.md", "skipped project /r/d5.md"},
			map[int]string{5: "depth limit"}, nil},
		{"cycle cut", files("/r/CLAUDE.md", "@a.md", "/r/a.md", "@CLAUDE.md"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "loaded project /r/a.md", "skipped project /r/CLAUDE.md"}, map[int]string{2: "cycle"}, nil},
		{"self import", files("/r/CLAUDE.md", "@./CLAUDE.md"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "skipped project /r/CLAUDE.md"}, map[int]string{1: "cycle"}, nil},
		{"second import of a file skipped", files("/r/CLAUDE.md", "@c.md @c.md#again", "/r/c.md", "c"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "loaded project /r/c.md", "skipped project /r/c.md"}, map[int]string{2: "already loaded"}, nil},
		{"missing import shown", files("/r/CLAUDE.md", "x\n@nope.md"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "missing project /r/nope.md"}, nil, []string{"/r/nope.md from /r/CLAUDE.md:2"}},
		{"folder import is missing", files("/r/CLAUDE.md", "@sub", "/r/sub/x.md", "x"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "missing project /r/sub"}, nil, []string{"/r/sub from /r/CLAUDE.md:1"}},
		{"over 4 MiB skipped", files("/r/CLAUDE.md", "@big.md", "/r/big.md", big), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "skipped project /r/big.md"}, map[int]string{1: "4 MiB"}, nil},
		{"binary extension skipped, none allowed", files("/r/CLAUDE.md", "@logo.png @LICENSE", "/r/logo.png", "\x89PNG", "/r/LICENSE", "MIT"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "skipped project /r/logo.png", "loaded project /r/LICENSE"}, map[int]string{1: "not a text"}, nil},
		{"escaped space", files("/r/CLAUDE.md", `@my\ notes.md`, "/r/my notes.md", "n"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "loaded project /r/my notes.md"}, nil, nil},
		{"code and comments are not followed", files("/r/CLAUDE.md", "`@a.md`\n<!-- @b.md -->\n```\n@c.md\n```", "/r/a.md", "a", "/r/b.md", "b", "/r/c.md", "c"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md"}, nil, nil},
		{"external judged against the startup dir", files("/r/CLAUDE.md", "@shared.md", "/r/shared.md", "s", "/r/sub/.keep", ""), "/r/sub", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "skipped project /r/shared.md"}, map[int]string{1: "needs approval"}, nil},
		{"external approved", files("/r/CLAUDE.md", "@../outside.md", "/outside.md", "o"), "/r", true, nil,
			[]string{"loaded project /r/CLAUDE.md", "loaded project /outside.md"}, map[int]string{1: "approved"}, nil},
		{"external missing is skipped before it is found missing", files("/r/CLAUDE.md", "@/nowhere.md"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "skipped project /nowhere.md"}, map[int]string{1: "needs approval"}, nil},
		{"files in $H are not external", files("/r/CLAUDE.md", "@~/.claude/shared.md", "/home/me/.claude/shared.md", "h"), "/r", false, nil,
			[]string{"loaded project /r/CLAUDE.md", "loaded project /home/me/.claude/shared.md"}, nil, nil},
		{"user files may import anything", files("/home/me/.claude/CLAUDE.md", "@~/notes.md", "/home/me/notes.md", "n"), "/r", false, nil,
			[]string{"loaded user /home/me/.claude/CLAUDE.md", "loaded user /home/me/notes.md"}, nil, nil},
		{"claudeMdExcludes on files and imports", files("/r/CLAUDE.md", "@vendor/x.md @ok.md", "/r/vendor/x.md", "v", "/r/ok.md", "ok", "/r/CLAUDE.local.md", "l"), "/r", false, []string{"**/vendor/**", "**/CLAUDE.local.md"},
			[]string{"loaded project /r/CLAUDE.md", "skipped project /r/vendor/x.md", "loaded project /r/ok.md", "skipped local /r/CLAUDE.local.md"}, map[int]string{1: "**/vendor/**", 3: "claudeMdExcludes"}, nil},
		{"empty after comments", files("/r/CLAUDE.md", "<!-- only a comment -->\n"), "/r", false, nil,
			[]string{"skipped project /r/CLAUDE.md"}, map[int]string{0: "empty"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := AssembleClaudeMd(ClaudeMdOptions{Root: tt.fs, HomeDir: "/home/me/.claude", UserHome: "/home/me", Project: tt.project, ExternalApproved: tt.approved, Excludes: tt.excludes})
			if got := rows(res.Layers); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("layers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i, r := range tt.reasons {
				if !strings.Contains(res.Layers[i].Reason, r) {
					t.Errorf("layer %d reason %q lacks %q", i, res.Layers[i].Reason, r)
				}
			}
			var missing []string
			for _, m := range res.MissingImports {
				missing = append(missing, fmt.Sprintf("%s from %s:%d", m.Path, m.From, m.Line))
			}
			if !reflect.DeepEqual(missing, tt.missing) {
				t.Errorf("missing = %v, want %v", missing, tt.missing)
			}
			for _, l := range res.Layers {
				if (l.Status == StatusLoaded) != (l.Text != "") || l.Status == StatusLoaded && l.Tokens != (l.Chars+3)/4 {
					t.Errorf("layer %s: status %s, text %d chars, %d tokens", l.Path, l.Status, l.Chars, l.Tokens)
				}
			}
		})
	}
}

func TestAssembleStripsCommentsAndMarksLaterChanges(t *testing.T) {
	fsys := files("/r/CLAUDE.md", "\n  Keep <!-- hidden --> this.\n<!--\nblock\n-->\n")
	at := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	res := AssembleClaudeMd(ClaudeMdOptions{Root: fsys, Project: "/r", At: &at})
	l := res.Layers[0]
	// The block comment goes; the one inside the paragraph is sent as
	// written (the client's lexer sees it as the paragraph's text).
	if l.Text != "Contents of /r/CLAUDE.md (project instructions, checked into the codebase):\n\nKeep <!-- hidden --> this." {
		t.Errorf("text %q", l.Text)
	}
	if !strings.Contains(l.Reason, "changed after the session started") {
		t.Errorf("reason %q", l.Reason)
	}
}

// A paths: rule joins mid-session as a nested_memory attachment sent in
// the tool result, "Contents of <path>:" without the session-start label,
// its final newline kept (e2e TestPathRuleJoinsAsComputed).
func TestConditionalRuleJoinText(t *testing.T) {
	fsys := files("/r/.claude/rules/ts.md", "---\npaths: [\"**/*.ts\"]\n---\n<!-- note -->\nUse strict mode.\n")
	res := AssembleClaudeMd(ClaudeMdOptions{Root: fsys, HomeDir: "/h", Project: "/r"})
	if len(res.ConditionalRules) != 1 {
		t.Fatalf("rules %+v", res.ConditionalRules)
	}
	c := res.ConditionalRules[0]
	if want := "Contents of /r/.claude/rules/ts.md:\n\nUse strict mode.\n"; c.Text != want || c.Chars != len(want) || c.Tokens != (len(want)+3)/4 {
		t.Errorf("join text %q (%d chars, %d tokens), want %q", c.Text, c.Chars, c.Tokens, want)
	}
	if !strings.Contains(c.Note, "then about") {
		t.Errorf("note %q", c.Note)
	}
}

// A nested CLAUDE.md is listed with its size as it joins; over
// NestedMaxChars it is cut as the client 2.1.332 cut it: lines of 205
// characters (é counts one unit), 731 kept (149 854 characters), then
// the note pointing the model at line 732. Hidden folders and
// node_modules are not searched; the project's own CLAUDE.md is a layer.
func TestNestedClaudeMdCut(t *testing.T) {
	var big strings.Builder
	for i := 0; big.Len() < 400000; i++ {
		fmt.Fprintf(&big, "- rule %05d: %s\n", i, strings.Repeat("é", 190))
	}
	fsys := files(
		"/repo/CLAUDE.md", "top",
		"/repo/api/CLAUDE.md", "- small\n",
		"/repo/web/deep/CLAUDE.md", big.String(),
		"/repo/.git/x/CLAUDE.md", "hidden",
		"/repo/node_modules/p/CLAUDE.md", "dependency",
	)
	fsys["repo/pipe/CLAUDE.md"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	if res := AssembleClaudeMd(ClaudeMdOptions{Root: fsys, HomeDir: "/home/me/.claude", Project: "/repo"}); len(res.Nested) != 0 || len(res.Problems) != 0 {
		t.Fatalf("the folders below the project are walked though Nested is off: %+v %+v", res.Nested, res.Problems)
	}
	res := AssembleClaudeMd(ClaudeMdOptions{Root: fsys, HomeDir: "/home/me/.claude", Project: "/repo", Nested: true})
	if len(res.Problems) != 1 || res.Problems[0].File != "/repo/pipe/CLAUDE.md" {
		t.Errorf("a FIFO named CLAUDE.md is not reported: %+v", res.Problems)
	}
	var got []string
	for _, n := range res.Nested {
		got = append(got, fmt.Sprintf("%s %v", n.Path, n.Truncated))
	}
	if want := []string{"/repo/api/CLAUDE.md false", "/repo/web/deep/CLAUDE.md true"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("nested %v, want %v", got, want)
	}
	cut := res.Nested[1].Text
	note := "\n\n> Only the start of this file is shown. For the rest, call Read on /repo/web/deep/CLAUDE.md with offset=732 and a limit."
	body, ok := strings.CutSuffix(cut, note)
	if !ok {
		t.Fatalf("the cut text does not end with the client's note: …%q", cut[max(0, len(cut)-200):])
	}
	body = strings.TrimPrefix(body, "Contents of /repo/web/deep/CLAUDE.md:\n\n")
	if n := len([]rune(body)); n != 149854 || !strings.HasSuffix(body, "- rule 00730: "+strings.Repeat("é", 190)) {
		t.Errorf("kept %d characters ending …%q, want 149854 ending with rule 00730", n, body[max(0, len(body)-30):])
	}
	if !strings.Contains(res.Nested[1].Note, "only its start loads") || res.Nested[0].Chars != len("Contents of /repo/api/CLAUDE.md:\n\n- small\n") {
		// A file joining mid-session is sent untrimmed: its final
		// newline counts (e2e TestCommentsAsTheClientSends).
		t.Errorf("notes %+v", res.Nested)
	}
}

// The preview says which window and autocompact level a session started
// in the project gets, and where each came from: the project's
// autoCompactWindow, then the environment's variable over it.
func TestPreviewWindowSource(t *testing.T) {
	fsys := files("/repo/.claude/settings.json", `{"autoCompactWindow": 100000}`)
	now := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	p := Build(Options{Root: fsys, HomeDir: "/h", Project: "/repo", Now: now, Model: "claude-opus-4-6"})
	if a := p.Window.Autocompact; a.Tokens != 67000 || !strings.Contains(a.Source, "autoCompactWindow in /repo/.claude/settings.json") {
		t.Errorf("autocompact %+v, want 67000 from the project's autoCompactWindow", a)
	}
	if w := p.Window.Window; w.Tokens != 200000 || w.Source == "" {
		t.Errorf("window %+v", w)
	}
	env := map[string]string{"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "120k"}
	p = Build(Options{Root: fsys, HomeDir: "/h", Project: "/repo", Now: now, Getenv: func(k string) string { return env[k] }})
	if a := p.Window.Autocompact; a.Tokens != 87000 || a.Source != "CLAUDE_CODE_AUTO_COMPACT_WINDOW" || p.Window.EnvNote != "reads memscope's environment" {
		t.Errorf("with the variable: %+v (%s)", a, p.Window.EnvNote)
	}
}
