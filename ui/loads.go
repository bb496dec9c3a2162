package ui

import (
	"io/fs"
	"reflect"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	engineloads "github.com/memscope/memscope/engine/loads"
	enginepreview "github.com/memscope/memscope/engine/preview"
	"github.com/memscope/memscope/model"
)

// loadsReadMsg carries what a project's transcripts say was loaded.
type loadsReadMsg struct {
	slug   string
	report *engineloads.Report
}

// projectLoads reads what the project's transcripts say was loaded,
// against the next session's rules and imports; cachedOnly reads no
// transcript (engineloads.Options.CachedOnly).
func projectLoads(fsys, root fs.FS, md *model.MemoryDir, homeDir, slug, project string, getenv func(string) string, now time.Time, cache *engineloads.Cache, cachedOnly bool) *engineloads.Report {
	o := engineloads.Options{Home: fsys, HomeDir: homeDir, Slug: slug, Root: root, Memory: md,
		MemoryDir: joinAbs(homeDir, "projects/"+slug+"/memory"), Now: now, Cache: cache, CachedOnly: cachedOnly}
	if strings.HasPrefix(project, "/") {
		po := previewOptions(root, homeDir, project, getenv, now)
		po.Memory, po.MemoryDir = md, o.MemoryDir // read by the caller: not again
		p := enginepreview.Build(po)
		o.Preview = &p
	}
	r := engineloads.Build(o)
	return &r
}

// loadsCmd reads what the project's transcripts say was loaded (through
// the cache: only transcripts that changed are read again). The project's
// memory folder is the one its last load read, when that load showed it
// (a store's read is replaced, never changed, and a change to the folder
// loads the project again, then this): a session's append does not read
// the folder again.
func (m Model) loadsCmd(slug string) tea.Cmd {
	if slug == "" {
		return nil
	}
	fsys, now, homeDir, project, root, getenv, cache := m.opts.Home.FS, m.opts.Now(), m.opts.Home.Dir, m.projectPath(slug), m.root(), m.opts.Getenv, m.loadsCache
	var read *model.MemoryDir
	if p := m.data.project; p.slug == slug && p.storeIdx == 0 && p.dir != nil {
		read = p.dir
	}
	return func() tea.Msg {
		md := read
		if md == nil {
			md, _ = model.ReadMemoryDir(fsys, "projects/"+slug+"/memory")
		}
		return loadsReadMsg{slug: slug, report: projectLoads(fsys, root, md, homeDir, slug, project, getenv, now, cache, false)}
	}
}

// applyLoads loads the project again when the transcripts say something
// the open project's panes, lint and prune plan do not have yet (that
// load finds the new events in the cache, and its own loads read then
// finds nothing new).
func (m *Model) applyLoads(msg loadsReadMsg) tea.Cmd {
	if msg.slug != m.data.open {
		return nil
	}
	if p := m.data.project.loads; m.data.project.slug == msg.slug && p != nil && reflect.DeepEqual(*p, *msg.report) {
		return nil
	}
	return m.requestProject(msg.slug)
}
