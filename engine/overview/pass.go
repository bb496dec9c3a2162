package overview

import (
	"slices"
	"sync"

	"github.com/memscope/memscope/engine/doctor"
	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/inventory"
	"github.com/memscope/memscope/engine/ledger"
	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/engine/secrets"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/model"
)

// Pass is the one reading of the home's transcripts (engine/homepass)
// behind the lines that read them whole: secrets, problems, doctor,
// dropped and review each count from their own cache, which the pass
// fills, reading each transcript once for all of them. The first of
// those lines to count runs it; the others wait for it. An app keeps one
// Pass for its life (Source.Pass), so the lines counted from several
// Sources share it; a Source without one makes its own. Without a cache
// (Source.Cache nil) there is no pass: each line reads for itself.
type Pass struct {
	mu  sync.Mutex
	ran bool
	// folders are the provenance folders the runs looked for, for the
	// projects (their folders, "" for none).
	folders  []provenance.Folder
	projects []string
	// Stats are what the last run read (tests).
	Stats homepass.Stats
	// Followers, when set, are given followers of the open project's
	// transcripts the run builds (the app's Replay list takes them).
	Followers *sessions.Handoff
	// Active, when set, is handed the last activity of each transcript
	// the first run reads (the app's Projects list takes it).
	Active *sessions.ActiveHandoff
	// counts is the first secrets count, which hands the Problems line
	// the pastes' verdicts (pastes.go).
	counts firstCounts
}

// sharedPass runs s's pass once (see Pass). A later line asking for
// provenance folders the run did not look for (the project opened after
// it) reads them alone.
func (s *Source) sharedPass() {
	if s.Cache == nil || s.Env.Home == nil {
		return
	}
	s.passOnce.Do(func() {
		if s.Pass == nil {
			s.Pass = &Pass{}
		}
	})
	p := s.Pass
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ran && slices.Contains(p.projects, s.Project) {
		// Ran for this project: nothing to open to know it.
		return
	}
	var folders []provenance.Folder
	if t := s.open(); t != nil {
		folders = t.ProvenanceFolders()
	}
	p.projects = append(p.projects, s.Project)
	if p.ran && covered(p.folders, folders) {
		return
	}
	h := s.Env.Home
	files, _ := model.FindTranscripts(h.FS)
	var cs []homepass.Consumer
	if !p.ran {
		cs = append(cs, doctor.NewFeed(s.Cache, h.Dir), secrets.NewFeed(s.Cache, h.Dir), inventory.NewFeed(s.Cache, h.Dir), ledger.NewFeed(s.Cache, h.Dir))
		if p.Active != nil {
			cs = append(cs, p.Active.Feed(s.Cache, h.Dir))
		}
	}
	if len(folders) > 0 {
		cs = append(cs, s.reviewCache().Feed(folders))
	}
	cs = append(cs, s.projectFeeds(p)...)
	// A cache that cannot be written costs each line its own read.
	p.Stats, _ = homepass.Run(h.FS, files, 0, cs...)
	p.ran = true
	for _, f := range folders {
		if !slices.Contains(p.folders, f) {
			p.folders = append(p.folders, f)
		}
	}
}

func covered(have, want []provenance.Folder) bool {
	for _, f := range want {
		if !slices.Contains(have, f) {
			return false
		}
	}
	return true
}

// reviewCache is the review line's first-pass cache: Source.Review, else
// one kept in Source.Cache (made once per Source).
func (s *Source) reviewCache() *provenance.FirstCache {
	s.reviewOnce.Do(func() {
		if s.Review == nil {
			s.Review = provenance.NewFirstCacheOn(s.Cache, s.Env.Home.Dir)
		}
	})
	return s.Review
}

// projectFeeds are the consumers of the open project's transcripts the
// pass feeds beside its lines': the project load's loads cache
// (Env.Loads) and, on the first run, the Replay list's followers
// (Pass.Followers), each when set, so neither reads those transcripts
// again.
func (s *Source) projectFeeds(p *Pass) []homepass.Consumer {
	if s.Project == "" || s.Env.Loads == nil && p.Followers == nil {
		return nil
	}
	slug, ok := model.FindProjectDir(s.Env.Home.FS, s.Project)
	if !ok {
		return nil
	}
	var cs []homepass.Consumer
	if s.Env.Loads != nil {
		cs = append(cs, s.Env.Loads.Feed(slug))
	}
	if p.Followers != nil && !p.ran {
		// Only the start's run: a later one (another project opened)
		// runs after that project's list has read its transcripts, and
		// its followers would wait, untaken, for nobody.
		cs = append(cs, p.Followers.Feed(slug))
	}
	return cs
}
