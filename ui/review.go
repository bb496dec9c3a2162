package ui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/ui/feed"
	"github.com/memscope/memscope/views/msgs"
)

// loadReviewCmd reads the open project's review inbox (the Project
// feed's).
func (m *Model) loadReviewCmd() tea.Cmd { return m.feeds.project.ReviewCmd(m.data.open) }

// reviewCountsCmd counts every project's memories to review.
func (m Model) reviewCountsCmd() tea.Cmd { return m.feeds.project.CountsCmd() }

// handleReview takes the review loads and requests.
func (m Model) handleReview(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case feed.ReviewLoaded:
		out, ok := m.feeds.project.ReviewDone(msg, m.data.open, m.opts.Now())
		if !ok {
			return m, nil, true
		}
		paneTable[paneReview].update(m.p, out.Review)
		if out.Origins != nil {
			paneTable[paneMemories].update(m.p, *out.Origins)
		}
		if out.Counts != nil {
			paneTable[paneProjects].update(m.p, *out.Counts)
		}
		return m, nil, true
	case feed.ReviewCounts:
		paneTable[paneProjects].update(m.p, m.feeds.project.Counted(msg, m.data.open))
		return m, nil, true
	case msgs.AcceptReview:
		if m.readOnly {
			return m, func() tea.Msg { return errMsg{errors.New("the home is read-only: review is off")} }, true
		}
		return m, m.feeds.project.AcceptCmd(m.data.open, msg), true
	case feed.ReviewSaved:
		if msg.Err != nil {
			m.setStatus(fmt.Sprintf("accept %s: %v", msg.Path, msg.Err), true)
			return m, nil, true
		}
		m.setStatus("accepted "+model.SanitizeLine(msg.Path)+" (it comes back if Claude Code changes it again)", false)
		if msg.Slug != m.data.open {
			return m, nil, true
		}
		return m, m.loadReviewCmd(), true
	}
	return m, nil, false
}
