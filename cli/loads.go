package cli

import (
	"github.com/memscope/memscope/engine/loads"
	"github.com/memscope/memscope/model"
)

// projectLoads reads what the transcripts of t's project (its startup
// folder's projects/ folder) say was loaded, against the next session's
// rules and imports, over the last days days (loads.DefaultDays when 0).
func projectLoads(e *env, t *memoryTarget, days int) loads.Report {
	slug, ok := model.FindProjectDir(t.home.FS, t.project)
	if !ok {
		slug = ""
	}
	p := previewFor(e, t.root, t.home, t.project, nil)
	r := loads.Build(loads.Options{HomeDir: t.home.Dir, Home: t.home.FS, Slug: slug, Root: t.root, Memory: t.store.Memory(),
		MemoryDir: t.loc.Dir, Preview: &p, Now: e.now(), Days: days})
	if !ok {
		r.Slug = model.Slug(t.project)
	}
	return r
}
