package memindex

import (
	"sort"

	"github.com/memscope/memscope/model"
)

// NewestFirst returns files sorted by mtime, newest first, then by path:
// the order of both the recall scan and the backfilled index.
func NewestFirst(files []*model.MemoryFile) []*model.MemoryFile {
	sorted := append([]*model.MemoryFile{}, files...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if !sorted[i].ModTime.Equal(sorted[j].ModTime) {
			return sorted[i].ModTime.After(sorted[j].ModTime)
		}
		return sorted[i].Path < sorted[j].Path
	})
	return sorted
}
