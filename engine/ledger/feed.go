package ledger

import (
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Feed is HomeSince's raw pass (each transcript's newest compaction) as
// a consumer of the shared reader (engine/homepass): it reads the
// transcripts its cache does not answer for and keeps their answers there
// (Done), so HomeSince, after, reads none of them raw.
type Feed struct {
	fill *diskcache.Filling[newest]
}

// NewFeed is the ledger's consumer for the home at homeDir, kept in
// store.
func NewFeed(store *diskcache.Store, homeDir string) *Feed {
	return &Feed{fill: diskcache.LoadFill[newest](store, newestKind, homeDir)}
}

// Want reads t unless the cache answers for it.
func (f *Feed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	if f.fill.Has(t.Path, st) {
		return nil
	}
	return &feedFile{f: f, name: t.Path, st: st}
}

// Done keeps what was read.
func (f *Feed) Done() error { return f.fill.Save() }

type feedFile struct {
	f    *Feed
	name string
	st   model.FileStamp
	sc   jsonscan.Scanner
	n    newest
	// top finds subtype and timestamp among a line's members (LineTop),
	// once a shape of line.
	top jsonscan.Members
}

func (ff *feedFile) Line(l model.Line) { ff.n.line(l, &ff.sc) }

// LineTop takes the members the shared pass's checker walked
// (homepass.Walking): a valid line is decided from its subtype and
// timestamp members, with no search of the whole line; any other line
// is read as Line reads it.
func (ff *feedFile) LineTop(l model.Line, top *jsonscan.Top) {
	if l.TooLong || !top.Valid() {
		ff.n.line(l, &ff.sc)
		return
	}
	at := ff.top.Of(top, "subtype", "timestamp")
	ff.n.lineTop(top.Value(at[0]), top.Value(at[1]))
}

func (ff *feedFile) End(_ int64, err error, whole bool) {
	if err == nil && whole {
		ff.f.fill.Add(ff.name, ff.st, ff.n)
	}
}
