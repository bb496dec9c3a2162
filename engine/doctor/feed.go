package doctor

import (
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Feed is doctor's pass as a consumer of the shared reader
// (engine/homepass): it reads the transcripts its cache does not answer
// for and keeps their scans in that cache (Done), so ScanCached, after,
// reads none of them.
type Feed struct {
	fill *diskcache.Filling[fileScan]
}

// NewFeed is doctor's consumer for the home at homeDir, kept in store.
func NewFeed(store *diskcache.Store, homeDir string) *Feed {
	return &Feed{fill: diskcache.LoadFill[fileScan](store, cacheKind(), homeDir)}
}

// Want reads t unless the cache answers for it.
func (f *Feed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	if f.fill.Has(t.Path, st) {
		return nil
	}
	return &feedFile{fd: newFileFeed(t.Path, &jsonscan.Scanner{}), fill: f.fill, st: st}
}

// Done keeps what was read.
func (f *Feed) Done() error { return f.fill.Save() }

type feedFile struct {
	fd   *fileFeed
	fill *diskcache.Filling[fileScan]
	st   model.FileStamp
}

func (ff *feedFile) Line(l model.Line) { ff.fd.line(l) }

// LineValid takes the word of the reader that checked the line whole
// (stat's; homepass.Trusting).
func (ff *feedFile) LineValid(l model.Line, valid bool) { ff.fd.lineValid(l, valid) }

// LineTop takes the members that reader walked too (homepass.Walking).
func (ff *feedFile) LineTop(l model.Line, top *jsonscan.Top) { ff.fd.lineTop(l, top) }

func (ff *feedFile) End(_ int64, err error, whole bool) {
	if v := ff.fd.end(err); whole && v.Problem == nil {
		ff.fill.Add(ff.fd.path, ff.st, v)
	}
}
