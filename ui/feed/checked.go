package feed

import engov "github.com/memscope/memscope/engine/overview"

// Checked is what the load computed of the project's memory that the
// Overview's lines take instead of computing it again (engov.Checked):
// the next session's prompt.
func (p *ProjectLoaded) Checked() *engov.Checked {
	// Its lint is not handed over: a load lints with the loads the cache
	// holds (a cold cache holds none, and the loads are read after), so
	// it can count fewer warnings than `memscope lint`, which reads them;
	// the Overview's Lint line lints for itself.
	return &engov.Checked{Project: p.Project, Preview: p.Preview}
}
