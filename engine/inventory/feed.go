package inventory

import (
	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// Feed is stat's transcript summaries as a consumer of the shared reader
// (engine/homepass): it summarizes the transcripts stat's cache does not
// answer for and keeps them there (Done), so Stat, after, reads none of
// them. The home's other stores are Stat's own.
type Feed struct {
	store   *diskcache.Store
	homeDir string
	cache   *statCache
	fill    *diskcache.Fill[model.TranscriptSummary]
}

// NewFeed is stat's consumer for the home at homeDir, kept in store.
func NewFeed(store *diskcache.Store, homeDir string) *Feed {
	c := loadCache(store, homeDir)
	return &Feed{store: store, homeDir: homeDir, cache: c, fill: diskcache.NewFill(c.Transcripts)}
}

// Want summarizes t unless the cache answers for it.
func (f *Feed) Want(t model.TranscriptFile, st model.FileStamp) homepass.File {
	if f.fill.Has(t.Path, st) {
		return nil
	}
	return &feedFile{f: f, s: sessions.NewSummarizing(t.Path), name: t.Path, st: st}
}

// Done keeps what was summarized, with the rest of stat's cache as it was.
func (f *Feed) Done() error {
	m := f.fill.Merged()
	if m == nil {
		return nil
	}
	c := *f.cache
	c.Transcripts = m
	return diskcache.Save(f.store, cacheKind, diskcache.Name(cacheKind, f.homeDir), c)
}

type feedFile struct {
	f    *Feed
	s    *sessions.Summarizing
	name string
	st   model.FileStamp
}

func (ff *feedFile) Line(l model.Line) { ff.s.Line(l) }

// Valid says the line just read is one valid JSON object (homepass.Verdict).
func (ff *feedFile) Valid() bool { return ff.s.Valid() }

// Record is how the summary counted the line (homepass.Recorder).
func (ff *feedFile) Record() (*model.SummaryRecord, homepass.Read) { return ff.s.Record() }

// Top is the line's top-level members, as its check walked them
// (homepass.Walker).
func (ff *feedFile) Top() *jsonscan.Top { return ff.s.Top() }

// KeepTop says whether a reader takes Top (homepass.Walker).
func (ff *feedFile) KeepTop(keep bool) { ff.s.KeepTop(keep) }

func (ff *feedFile) End(n int64, err error, whole bool) {
	if sum := ff.s.Summary(n, err); whole && sum.Whole(ff.st.Size) {
		ff.f.fill.Add(ff.name, ff.st, sum)
	}
}
