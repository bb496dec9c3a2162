package diskcache

import (
	"io/fs"

	"github.com/memscope/memscope/model"
)

// Entry is what a cache keeps of one file: Value, computed from the
// version of the file whose stamp is Stamp.
type Entry[T any] struct {
	Stamp model.FileStamp
	Value T
}

// PerFile is the one rule by which memscope reuses what it computed from
// a file in an earlier run (stat's summaries, the sessions report's
// scans): a file's entry answers only when the file's stamp now
// (model.StampFile, head hash included) is Equal to the entry's. The
// other files are computed by compute (given their indexes into names,
// in one call, so it can use its workers); an answer is kept in next
// only when the file was stamped before it was read, was not written
// meanwhile (model.Unchanged) and whole says the value covers the file
// of that size whole (no read failure, every byte counted). out is in
// the order of names; hits counts the answers from cache. Without a
// cache (next nil) every file is computed.
func PerFile[T any](fsys fs.FS, names []string, cache, next map[string]Entry[T], compute func(miss []int) []T, whole func(v T, size int64) bool) (out []T, hits int) {
	if next == nil {
		all := make([]int, len(names))
		for i := range all {
			all[i] = i
		}
		return compute(all), 0
	}
	out = make([]T, len(names))
	stamps := make([]model.FileStamp, len(names))
	stamped := make([]bool, len(names))
	var miss []int
	for i, name := range names {
		st, err := model.StampFile(fsys, name)
		if err == nil {
			stamps[i], stamped[i] = st, true
			if c, ok := cache[name]; ok && c.Stamp.Equal(st) {
				out[i] = c.Value
				next[name] = c
				hits++
				continue
			}
		}
		miss = append(miss, i)
	}
	for j, v := range compute(miss) {
		i := miss[j]
		out[i] = v
		if stamped[i] && whole(v, stamps[i].Size) && model.Unchanged(fsys, names[i], stamps[i]) {
			next[names[i]] = Entry[T]{Stamp: stamps[i], Value: v}
		}
	}
	return out, hits
}
