package memcheck

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/lint"
	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/engine/store"
	"github.com/memscope/memscope/model"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Drift is checked against the project's folder only when it is a folder
// on the root; the loads become lint's load facts; a leftover copy in the
// memory folder becomes a lint finding input.
func TestAssemble(t *testing.T) {
	root := fstest.MapFS{
		"work/app/README.md": {Data: []byte("# app\n")},
		"home/.claude/projects/-work-app/memory/MEMORY.md": {Data: []byte("- [a](a.md)\n")},
	}
	md, probs := model.ReadMemoryDir(root, "home/.claude/projects/-work-app/memory")
	base := Request{Memory: md, Problems: probs, MemoryDir: "/home/.claude/projects/-work-app/memory", Root: root, HomeDir: "/home/.claude", Now: now}

	r := base
	r.ProjectDir = "/work/app"
	if in := Assemble(r); in.Lint.Project == nil {
		t.Error("a project folder on the root is not given to lint for drift")
	}
	r.ProjectDir = "/work/gone"
	if in := Assemble(r); in.Lint.Project != nil {
		t.Error("a missing project folder is given to lint: every drift check would fail")
	}
	r.ProjectDir = ""
	if in := Assemble(r); in.Lint.Project != nil || in.Lint.Loads != nil || in.Lint.Now != now || in.Lint.Memory != md {
		t.Errorf("no project, no loads: %+v", in.Lint)
	}
	rep := loads.Report{Days: 30, SessionsInWindow: 4}
	r.Loads = &rep
	if in := Assemble(r); in.Lint.Loads == nil || in.Lint.Loads.Sessions != 4 || in.Lint.Loads.Days != 30 {
		t.Errorf("the loads' facts: %+v", in.Lint.Loads)
	}
	r.Unstamped = true
	if !Assemble(r).Lint.Unstamped {
		t.Error("an unstamped folder is linted as stamped")
	}
}

// Prune keeps the caller's options and adds the request's facts: the
// memo's near-duplicate index, whether the folder is stamped, and no load
// window without loads.
func TestPrune(t *testing.T) {
	po := Prune(store.PruneOptions{Now: now, StaleAction: store.PruneDelete}, Request{Unstamped: true, Memo: lint.NewMemo()})
	if !po.Now.Equal(now) || po.StaleAction != store.PruneDelete || !po.Unstamped || po.Dupes == nil {
		t.Errorf("prune options %+v", po)
	}
	if !po.LoadsSince.IsZero() || po.LastLoaded != nil {
		t.Errorf("loads facts without loads: %v %v", po.LoadsSince, po.LastLoaded)
	}
	if po := Prune(store.PruneOptions{}, Request{}); po.Dupes != nil || po.Unstamped {
		t.Errorf("an empty request set %+v", po)
	}
}
