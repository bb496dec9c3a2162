package feed

import engov "github.com/memscope/memscope/engine/overview"

// Checked is what the load computed of the project's memory that the
// Overview's lines take instead of computing it again (engov.Checked):
// the next session's prompt, and lint's report when the load read the
// project's auto memory (not another store) with every load the
// transcripts say (LoadsComplete), with the project's folder as the tree
// drift was checked against. A load that took its loads from a cache
// missing some (the start's first: LoadsCmd reads them after) can count
// fewer warnings than `memscope lint`: its lint is to come.
func (p *ProjectLoaded) Checked() *engov.Checked {
	c := &engov.Checked{Project: p.Project, Preview: p.Preview}
	if p.StoreIdx == 0 {
		if !p.LoadsComplete() {
			c.LintToCome = true
			return c
		}
		// A copy: the feed's next load replaces p while a line reads it.
		l := p.Lint
		c.MemoryDir, c.Tree, c.Lint = p.AbsDir, p.Project, &l
	}
	return c
}

// LoadsComplete says the load's loads are every load the transcripts
// say: read, not only what the cache held (engineloads.Report.Partial).
func (p *ProjectLoaded) LoadsComplete() bool { return p.Loads != nil && !p.Loads.Partial }
