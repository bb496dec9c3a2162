package memindex

import (
	"github.com/memscope/memscope/model"
)

// IndexLineMaxChars is the length an index line should stay under
// (UTF-16 units, as the client counts): the client's own backfill cuts
// lines there, and its memory prompt asks for entries "under ~150
// characters".
const LineMaxChars = BackfillMaxLineChar

// entryTarget is the folder path an index entry links, if any.
func EntryTarget(e *model.IndexEntry) (string, bool) {
	if e == nil || e.Form != model.EntryLink {
		return "", false
	}
	return TargetPath(e.Target)
}
