package model

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestMountFSStat(t *testing.T) {
	root := fstest.MapFS{"etc/x": {Data: []byte("12")}}
	home := fstest.MapFS{"projects/a.jsonl": {Data: []byte("abc")}}
	m := MountFS(root, "/home/me/.claude", home)
	if _, ok := m.(fs.StatFS); !ok {
		t.Fatal("a mounted tree is not an fs.StatFS")
	}
	for name, size := range map[string]int64{"etc/x": 2, "home/me/.claude/projects/a.jsonl": 3} {
		info, err := fs.Stat(m, name)
		if err != nil || info.Size() != size {
			t.Errorf("%s: %v, %v", name, info, err)
		}
	}
	if info, err := fs.Stat(m, "home/me/.claude"); err != nil || !info.IsDir() {
		t.Errorf("mount point: %v, %v", info, err)
	}
	if _, err := fs.Stat(m, "home/me/other"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("outside both: %v", err)
	}
	if _, err := fs.Stat(MountFS(nil, "/h", home), "etc/x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("nil root: %v", err)
	}
	if _, err := fs.Stat(m, "/abs"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("invalid name: %v", err)
	}
}
