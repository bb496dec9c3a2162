package store

import "github.com/memscope/memscope/model"

// Writable tells whether the store may write in its folder: nil, or a
// *model.ReadOnlyError naming the folder (model.ProbeWritable), so the
// TUI can open read-only and the CLI refuse before it plans anything. A
// StoreFS that is not a folder on disk is taken as writable.
func (s *Store) Writable() error {
	if p, ok := s.fsys.(interface{ probeWritable() error }); ok {
		return p.probeWritable()
	}
	return nil
}

func (d dirFS) probeWritable() error {
	// The probe is a write too: it must not follow a linked memory folder
	// out of the home, and every other write would be refused anyway.
	if err := notALink(d.dir, "the memory folder"); err != nil {
		return err
	}
	return model.ProbeWritable(d.w, d.dir)
}
