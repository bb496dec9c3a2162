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

// ListMemoryDir lists the files ReadMemoryDir reads, with their sizes
// and times, by the same rules, and reads none of them.
func TestListMemoryDirMatchesReadMemoryDir(t *testing.T) {
	fsys := os.DirFS("../testdata/home")
	ps, _ := ListProjects(fsys)
	checked := 0
	for _, p := range ps {
		dir := p.Dir + "/memory"
		want, _ := ReadMemoryDir(fsys, dir)
		md, _ := ListMemoryDir(fsys, dir)
		if md.Exists != want.Exists || md.IndexListed != (want.Index != nil) || md.Index != nil || !reflect.DeepEqual(md.Other, want.Other) {
			t.Errorf("%s: folder facts differ: listed %v, index %v", dir, md.IndexListed, want.Index != nil)
		}
		if want.Index != nil && (md.IndexSize != want.IndexSize || !md.IndexModTime.Equal(want.IndexModTime)) {
			t.Errorf("%s: MEMORY.md listed as %d bytes %v, read as %d %v", dir, md.IndexSize, md.IndexModTime, want.IndexSize, want.IndexModTime)
		}
		if len(md.Files) != len(want.Files) {
			t.Fatalf("%s: %d files listed, ReadMemoryDir has %d", dir, len(md.Files), len(want.Files))
		}
		for i, f := range md.Files {
			w := want.Files[i]
			if f.Path != w.Path || f.Size != w.Size || !f.ModTime.Equal(w.ModTime) || f.Body != "" || f.Name != "" {
				t.Errorf("%s: listed %+v, read %s (%d bytes, %v)", dir, f, w.Path, w.Size, w.ModTime)
			}
		}
		checked += len(md.Files)
	}
	if checked == 0 {
		t.Fatal("no memory file in testdata/home: the test checks nothing")
	}
}
