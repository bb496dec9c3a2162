package diskcache

import (
	"unsafe"

	"github.com/memscope/memscope/model"
)

// StartOwned is Start for a form b that is the Unpacker's from now on,
// never changed after: the payload Load read for an Unpack alone (each
// Load reads its file into a buffer of its own). Its strings are slices
// of b itself, not of a copy: a warm start's stat cache (1.4 MB on W)
// was copied whole to read its paths and hashes from one string.
func (u *Unpacker) StartOwned(b []byte, version byte) {
	u.start(b, unsafe.String(unsafe.SliceData(b), len(b)), version)
}

// Problems packs a list of problems (stat's and the secrets counts'
// caches keep them).
func (p *Packer) Problems(probs []model.Problem) {
	p.Uint(uint64(len(probs)))
	for _, pr := range probs {
		p.Str(pr.File)
		p.Int(int64(pr.Line))
		p.Str(string(pr.Kind))
		p.Str(pr.Reason)
	}
}

// Problems reads what Packer.Problems packed: nil for none (as gob reads
// an empty list).
func (u *Unpacker) Problems() []model.Problem {
	// A problem takes 4 bytes at least (three lengths and a line).
	n := u.Count(4)
	if n == 0 {
		return nil
	}
	probs := make([]model.Problem, n)
	for i := range probs {
		probs[i] = model.Problem{File: u.Str(), Line: int(u.Int()), Kind: model.ProblemKind(u.Str()), Reason: u.Str()}
	}
	return probs
}
