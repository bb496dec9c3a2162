package timeline

import "github.com/memscope/memscope/model"

// Boundary describes the compact (or microcompact) boundary r of t, as
// Timeline.Boundaries lists it.
func Boundary(t *model.Transcript, r *model.Record) BoundaryInfo { return boundaryInfo(t, r) }

// PreservedRecords are the records of a partial compaction's preserved
// segment, head to tail, or why its links are broken.
func PreservedRecords(t *model.Transcript, ps *model.PreservedSegment) ([]*model.Record, error) {
	return preservedSegment(View{T: t, From: 1}, ps)
}

// Summary is the compact summary row that follows boundary r, nil when
// none does.
func Summary(t *model.Transcript, r *model.Record) *model.Record { return summaryOf(t, r) }
