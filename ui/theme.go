package ui

import (
	"charm.land/bubbles/v2/help"

	"github.com/memscope/memscope/views/component/style"
)

// setTheme rebuilds the styles for a light or dark background and hands
// them to every pane.
func (m *Model) setTheme(isDark bool) {
	st := style.NewThemed(isDark, m.styles.NoColor, m.opts.Theme)
	m.styles = st
	m.help.Styles = helpStyles(isDark, m.styles.NoColor)
	m.projects.SetStyles(st)
	m.search.SetStyles(st)
	m.index.SetStyles(st)
	m.memories.SetStyles(st)
	m.history.SetStyles(st)
	m.pastes.SetStyles(st)
	m.replay.SetStyles(st)
	m.prompt.SetStyles(st)
	m.health.SetStyles(st)
	m.retention.SetStyles(st)
	m.files.SetStyles(st)
	m.livePane.SetStyles(st)
	m.reviewPane.SetStyles(st)
	m.security.SetStyles(st)
}

// helpStyles are bubbles' help styles, plain under NO_COLOR.
func helpStyles(isDark, noColor bool) help.Styles {
	if noColor {
		return help.Styles{}
	}
	return help.DefaultStyles(isDark)
}
