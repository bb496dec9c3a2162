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
	m.p.search.SetStyles(st)
	for i := range paneTable {
		m.paneAt(i).SetStyles(st)
	}
}

// helpStyles are bubbles' help styles, plain under NO_COLOR.
func helpStyles(isDark, noColor bool) help.Styles {
	if noColor {
		return help.Styles{}
	}
	return help.DefaultStyles(isDark)
}
