package overview_test

import (
	"io"
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/memscope/memscope/engine/overview"
	"github.com/memscope/memscope/model"
)

// pasteReads counts the bytes read (Read and ReadAt) from each file of a
// home's paste folders, or, with match, of the files it matches; with
// opened, their opens too.
type pasteReads struct {
	fs.FS
	mu     sync.Mutex
	bytes  map[string]int64
	opened map[string]int
	match  func(name string) bool
}

func (p *pasteReads) Open(name string) (fs.File, error) {
	f, err := p.FS.Open(name)
	if err != nil || p.match == nil && !strings.HasPrefix(name, model.PasteCacheDir+"/") && !strings.HasPrefix(name, model.PasteStoreDir+"/") ||
		p.match != nil && !p.match(name) {
		return f, err
	}
	if p.opened != nil {
		p.mu.Lock()
		p.opened[name]++
		p.mu.Unlock()
	}
	return &pasteFile{File: f, p: p, name: name}, nil
}

func (p *pasteReads) Stat(name string) (fs.FileInfo, error) { return fs.Stat(p.FS, name) }

func (p *pasteReads) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(p.FS, name) }

func (p *pasteReads) add(name string, n int) {
	p.mu.Lock()
	p.bytes[name] += int64(n)
	p.mu.Unlock()
}

type pasteFile struct {
	fs.File
	p    *pasteReads
	name string
}

func (f *pasteFile) Read(b []byte) (int, error) {
	n, err := f.File.Read(b)
	f.p.add(f.name, n)
	return n, err
}

func (f *pasteFile) ReadAt(b []byte, off int64) (int, error) {
	n, err := f.File.(io.ReaderAt).ReadAt(b, off)
	f.p.add(f.name, n)
	return n, err
}

// TestColdStartReadsEachPasteOnce: on a cold cache, the two lines that
// read the paste folders (the secrets line's scan; the Problems line's
// stat, whose paste inventory hashes each paste) read each paste's bytes
// once between them, whichever counts first, and the lines are those
// each gives reading on its own. Before, three times: the secrets
// count's stamp read the head (most of a paste), its scan the whole, the
// inventory's check the whole again.
func TestColdStartReadsEachPasteOnce(t *testing.T) {
	orders := map[string][]overview.ID{
		"secrets first":  {overview.Secrets, overview.Problems},
		"problems first": {overview.Problems, overview.Secrets},
		"together":       nil, // both at once, as the app counts them
	}
	for _, h := range passHomes(t) {
		for name, order := range orders {
			t.Run(h.name+"/"+name, func(t *testing.T) {
				home, err := model.OpenHome(h.dir, model.HomeFromFlag)
				if err != nil {
					t.Fatal(err)
				}
				pr := &pasteReads{FS: home.FS, bytes: map[string]int64{}}
				s := passSource(t, h, pr, newCache(t))
				own := passSource(t, h, nil, nil)
				computeInOrder(t, s, own, order)
				read := 0
				for _, dir := range []string{model.PasteCacheDir, model.PasteStoreDir} {
					ents, _ := fs.ReadDir(home.FS, dir)
					for _, e := range ents {
						info, err := e.Info()
						if err != nil || !info.Mode().IsRegular() || info.Size() == 0 {
							continue
						}
						name := dir + "/" + e.Name()
						if got := pr.bytes[name]; got != info.Size() {
							t.Errorf("%s: %d bytes read, the file has %d: want each byte once", name, got, info.Size())
						}
						read++
					}
				}
				if read == 0 {
					t.Fatalf("no paste on %s", h.name)
				}
			})
		}
	}
}
