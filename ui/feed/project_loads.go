package feed

import (
	"io/fs"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	engineloads "github.com/memscope/memscope/engine/loads"
	enginepreview "github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/engine/projectmem"
	"github.com/memscope/memscope/model"
)

// The project's loads: what its transcripts say was loaded, read at each
// project load (from the cache only) and after it (LoadsCmd).

// projectLoads reads what the project's transcripts say was loaded,
// against the next session's rules and imports: those of pv when given,
// else of a preview built here (nil when the project's folder is
// unknown); cachedOnly reads no transcript (engineloads.Options.CachedOnly).
func projectLoads(home *model.Home, root fs.FS, md *model.MemoryDir, slug, project string, getenv func(string) string, now time.Time, cache *engineloads.Cache, cachedOnly bool, pv *enginepreview.Preview) *engineloads.Report {
	o := engineloads.Options{Home: home.FS, HomeDir: home.Dir, Slug: slug, Root: root, Memory: md,
		MemoryDir: JoinAbs(home.Dir, "projects/"+slug+"/memory"), Now: now, Cache: cache, CachedOnly: cachedOnly, Preview: pv}
	if pv == nil && strings.HasPrefix(project, "/") {
		po := PreviewOptions(root, home, project, getenv, now)
		po.Memory, po.MemoryDir = md, o.MemoryDir // read by the caller: not again
		p := enginepreview.Build(po)
		o.Preview = &p
	}
	r := engineloads.Build(o)
	return &r
}

// PreviewOptions are the options of the next session's prompt for
// project, as the Prompt pane and `memscope prompt` build it
// (projectmem.Env.PreviewOptions).
func PreviewOptions(root fs.FS, home *model.Home, project string, getenv func(string) string, now time.Time) enginepreview.Options {
	return projectmem.Env{Root: root, Home: home, UserHome: getenv("HOME"), Getenv: getenv, Now: now}.PreviewOptions(project)
}

// LoadsCmd reads what the project's transcripts say was loaded (through
// the cache: only transcripts that changed are read again). The
// project's memory folder is the one its last load read, when that load
// showed it (a store's read is replaced, never changed, and a change to
// the folder loads the project again, then this): a session's append
// does not read the folder again.
func (p *Project) LoadsCmd(slug string) tea.Cmd {
	if slug == "" {
		return nil
	}
	e := p.env
	home, now, project, root, getenv, cache := p.heldOr(), e.Now(), p.home.Path(slug), e.root(), e.Getenv, p.loads
	var read *model.MemoryDir
	if c := p.cur; c.Slug == slug && c.StoreIdx == 0 && c.Dir != nil {
		read = c.Dir
	}
	return func() tea.Msg {
		md := read
		if md == nil {
			md, _ = model.ReadMemoryDir(home.FS, "projects/"+slug+"/memory")
		}
		return LoadsRead{slug: slug, report: projectLoads(home, root, md, slug, project, getenv, now, cache, false, nil)}
	}
}
