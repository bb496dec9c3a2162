package model

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

// statCountFS counts the Stat calls on the files it opens.
type statCountFS struct {
	fstest.MapFS
	stats int
}

func (c *statCountFS) Open(name string) (fs.File, error) {
	f, err := c.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return &statCountFile{File: f, c: c}, nil
}

type statCountFile struct {
	fs.File
	c *statCountFS
}

func (f *statCountFile) Stat() (fs.FileInfo, error) {
	f.c.stats++
	return f.File.Stat()
}

// ReadMemoryFile asks the opened file its size once for the stamp and
// the read (OpenRegular's own check aside), not again before reading:
// a cold stat reads some 2 400 memory files. The file read is whole, and
// one over the limit is still refused.
func TestReadMemoryFileStatsTheOpenedFileOnce(t *testing.T) {
	note := "---\nname: n\ndescription: d\ntype: project\n---\nbody\n"
	c := &statCountFS{MapFS: fstest.MapFS{
		"m/a.md":   {Data: []byte(note)},
		"m/big.md": {Data: make([]byte, MaxDocumentBytes+1)},
	}}
	f, prob := ReadMemoryFile(c, "m/a.md", "a.md")
	if f == nil || prob != nil || f.Name != "n" || f.Body != "body\n" {
		t.Fatalf("read %+v, %v", f, prob)
	}
	// OpenRegular checks what it opened (checkRegular), then
	// statAndRead asks for the stamp.
	if c.stats != 2 {
		t.Errorf("the opened file was asked its Stat %d times, want 2", c.stats)
	}
	if f, prob := ReadMemoryFile(c, "m/big.md", "big.md"); f != nil || prob == nil {
		t.Errorf("a file over the limit read: %+v, %v", f, prob)
	}
}
