package feed

import (
	"io/fs"

	"github.com/memscope/memscope/model"
)

// ListFrom makes the project's readers list the home through held's
// answer for the feed's home while it has one (the Overview's Held: the
// home listed once for the lines counting now, dropped at a change, at
// ctrl+r and when they are counted): the review inbox's provenance scan
// walked every session folder of the home on its own at start, and the
// loads (each project load's and LoadsCmd's) listed the project's, a
// moment after the Live pane, the Projects list and the Overview's lines
// had walked them through that listing (issue 28). Without one (a change
// since, the lines counted) a reader reads the home as it is then.
func (p *Project) ListFrom(held func(*model.Home) *model.Home) { p.held = held }

// heldListing is the held listing of the feed's home (the Overview's
// copy of it listed once), nil when there is none. Called where the
// reader's Cmd is made (Update), not in it.
func (p *Project) heldListing() *model.Home {
	if p.held == nil || p.env.Home == nil {
		return nil
	}
	return p.held(p.env.Home)
}

// heldHome is heldListing's file system, nil when there is none.
func (p *Project) heldHome() fs.FS {
	if h := p.heldListing(); h != nil {
		return h.FS
	}
	return nil
}

// heldOr is the feed's home read through the held listing while there
// is one, else the home itself: what the project's loads read the
// project's transcripts through.
func (p *Project) heldOr() *model.Home {
	if h := p.heldListing(); h != nil {
		return h
	}
	return p.env.Home
}
