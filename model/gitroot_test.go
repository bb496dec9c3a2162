package model

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestRootName(t *testing.T) {
	for in, want := range map[string]string{"/": ".", "": ".", "/home/me": "home/me", "/a/../b/": "b", "rel/x": "rel/x"} {
		if got := RootName(in); got != want {
			t.Errorf("RootName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFindGitRoot(t *testing.T) {
	dir := &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name     string
		fs       fstest.MapFS
		start    string
		wantRoot string
		wantKind GitRootKind
	}{
		{"repo root itself", fstest.MapFS{"repo/.git": dir}, "/repo", "/repo", GitRootRepo},
		{"sub folder of repo", fstest.MapFS{"repo/.git": dir, "repo/a/b": dir}, "/repo/a/b", "/repo", GitRootRepo},
		{"no git", fstest.MapFS{"x/y": dir}, "/x/y", "", GitRootNone},
		{"worktree shares main repo", fstest.MapFS{
			"repo/.git/worktrees/wt/commondir": file("../..\n"),
			"repo/.git/worktrees/wt/gitdir":    file("/wt/.git\n"),
			"wt/.git":                          file("gitdir: /repo/.git/worktrees/wt\n"),
		}, "/wt/src", "/repo", GitRootWorktree},
		{"worktree with relative gitdir and CRLF", fstest.MapFS{
			"repo/.git/worktrees/wt/commondir": file("../..\r\n"),
			"repo/wt/.git":                     file("gitdir: ../.git/worktrees/wt\r\n"),
		}, "/repo/wt", "/repo", GitRootWorktree},
		{"worktree back-link points elsewhere", fstest.MapFS{
			"repo/.git/worktrees/wt/commondir": file("../.."),
			"repo/.git/worktrees/wt/gitdir":    file("/other/.git"),
			"wt/.git":                          file("gitdir: /repo/.git/worktrees/wt"),
		}, "/wt", "/wt", GitRootGitFile},
		{"gitdir outside worktrees/ is not trusted", fstest.MapFS{
			"repo/.git/commondir": file("."),
			"evil/.git":           file("gitdir: /repo/.git"),
		}, "/evil", "/evil", GitRootGitFile},
		{"submodule (no commondir)", fstest.MapFS{
			"repo/.git/modules/sub/HEAD": file("ref"),
			"repo/sub/.git":              file("gitdir: ../.git/modules/sub"),
		}, "/repo/sub", "/repo/sub", GitRootGitFile},
		{"bare common dir", fstest.MapFS{
			"bare.git/worktrees/wt/commondir": file("../.."),
			"wt/.git":                         file("gitdir: /bare.git/worktrees/wt"),
		}, "/wt", "/wt", GitRootGitFile},
		{"garbage .git file", fstest.MapFS{"g/.git": file("\x00\xff")}, "/g", "/g", GitRootGitFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FindGitRoot(tt.fs, tt.start)
			if got.Root != tt.wantRoot || got.Kind != tt.wantKind {
				t.Errorf("FindGitRoot(%s) = %+v; want root %q kind %s", tt.start, got, tt.wantRoot, tt.wantKind)
			}
		})
	}
	if got := FindGitRoot(nil, "/x"); got.Kind != GitRootNone {
		t.Errorf("nil fs: %+v", got)
	}
}
