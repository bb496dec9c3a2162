package model

import (
	"os"
	"reflect"
	"testing"
)

// ScanMemoryDir hands over exactly the files ReadMemoryDir keeps, with
// the same problems, and keeps none itself.
func TestScanMemoryDirMatchesReadMemoryDir(t *testing.T) {
	fsys := os.DirFS("../testdata/home")
	ps, _ := ListProjects(fsys)
	checked := 0
	for _, p := range ps {
		dir := p.Dir + "/memory"
		want, wantProbs := ReadMemoryDir(fsys, dir)
		var got []*MemoryFile
		md, probs := ScanMemoryDir(fsys, dir, func(f *MemoryFile) { got = append(got, f) })
		if len(md.Files) != 0 {
			t.Errorf("%s: ScanMemoryDir kept %d files", dir, len(md.Files))
		}
		if md.Exists != want.Exists || !reflect.DeepEqual(md.Index, want.Index) || !reflect.DeepEqual(md.Other, want.Other) {
			t.Errorf("%s: folder facts differ", dir)
		}
		if len(got) != len(want.Files) {
			t.Fatalf("%s: %d files handed over, ReadMemoryDir has %d", dir, len(got), len(want.Files))
		}
		for i := range got {
			if got[i].Path != want.Files[i].Path || got[i].Invalid != want.Files[i].Invalid || got[i].Body != want.Files[i].Body {
				t.Errorf("%s: file %d is %s, want %s", dir, i, got[i].Path, want.Files[i].Path)
			}
		}
		if !reflect.DeepEqual(probs, wantProbs) {
			t.Errorf("%s: problems %v, want %v", dir, probs, wantProbs)
		}
		checked += len(got)
	}
	if checked == 0 {
		t.Fatal("no memory file in testdata/home: the test checks nothing")
	}
}
