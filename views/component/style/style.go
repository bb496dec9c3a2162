// Package style holds the app's styles, built once from the terminal's
// background (light or dark) and NO_COLOR, and passed down to every pane.
// There are no package-level styles: a pane gets its Styles from its parent.
package style

import (
	"image/color"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/memscope/memscope/config/theme"
)

// Styles is every style the panes use. It is a handle on one Set: every
// pane and list keeps its Styles, and the root model is copied on every
// message, so a copy must be a pointer, not 17 KB of lipgloss.Style
// values (that was most of the root model's size). A Set is never changed
// after New; a theme change builds new Styles.
type Styles struct{ *Set }

// Set is the styles themselves.
type Set struct {
	NoColor bool
	IsDark  bool

	Title        lipgloss.Style
	TabActive    lipgloss.Style
	TabInactive  lipgloss.Style
	PaneFocused  lipgloss.Style
	PaneBlurred  lipgloss.Style
	StatusBar    lipgloss.Style
	Banner       lipgloss.Style
	Selected     lipgloss.Style
	Dim          lipgloss.Style
	Bold         lipgloss.Style
	Warn         lipgloss.Style
	Error        lipgloss.Style
	OK           lipgloss.Style
	CutLine      lipgloss.Style
	Header       lipgloss.Style
	BarFill      lipgloss.Style
	BarEmpty     lipgloss.Style
	BadgeUser    lipgloss.Style
	BadgeFeed    lipgloss.Style
	BadgeProj    lipgloss.Style
	BadgeRef     lipgloss.Style
	BadgeNone    lipgloss.Style
	BadgeFresh   lipgloss.Style
	BadgeAging   lipgloss.Style
	BadgeStale   lipgloss.Style
	BadgeProblem lipgloss.Style
}

// New builds the styles for a light or dark background. With noColor set
// (NO_COLOR in the environment) every style is plain text, with bold and
// reverse kept where they carry meaning.
func New(isDark, noColor bool) Styles {
	return NewThemed(isDark, noColor, Theme{})
}

// Theme overrides colours by role (config/theme holds the roles, so
// that the settings file is checked without linking the styles).
type Theme = theme.Theme

// Roles are the colour roles a theme can set (theme.Roles).
func Roles() map[string][2]string { return theme.Roles() }

// RoleNames are the roles' names, sorted (theme.RoleNames).
func RoleNames() []string { return theme.RoleNames() }

// NewThemed is New with a theme's colours over memscope's.
func NewThemed(isDark, noColor bool, th Theme) Styles {
	ld := lipgloss.LightDark(isDark)
	roles := Roles()
	role := func(name string) color.Color {
		light, dark := roles[name][0], roles[name][1]
		if v := th.Light[name]; v != "" {
			light = v
		}
		if v := th.Dark[name]; v != "" {
			dark = v
		}
		return ld(lipgloss.Color(light), lipgloss.Color(dark))
	}
	c := func(light, dark string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(dark)) }
	s := Styles{&Set{NoColor: noColor, IsDark: isDark}}
	if noColor {
		plain := lipgloss.NewStyle()
		s.Title = plain.Bold(true)
		s.TabActive = plain.Bold(true).Reverse(true).Padding(0, 1)
		s.TabInactive = plain.Padding(0, 1)
		s.PaneFocused = plain.Border(lipgloss.NormalBorder())
		s.PaneBlurred = plain.Border(lipgloss.HiddenBorder())
		s.StatusBar = plain
		s.Banner = plain.Bold(true)
		s.Selected = plain.Reverse(true)
		s.Dim, s.Bold, s.Warn, s.Error, s.OK = plain, plain.Bold(true), plain, plain.Bold(true), plain
		s.CutLine, s.Header = plain.Bold(true), plain.Bold(true)
		s.BarFill, s.BarEmpty = plain, plain
		for _, b := range []*lipgloss.Style{&s.BadgeUser, &s.BadgeFeed, &s.BadgeProj, &s.BadgeRef, &s.BadgeNone, &s.BadgeFresh, &s.BadgeAging, &s.BadgeStale, &s.BadgeProblem} {
			*b = plain
		}
		return s
	}
	accent := role("accent")
	s.Title = lipgloss.NewStyle().Bold(true).Foreground(accent)
	s.TabActive = lipgloss.NewStyle().Bold(true).Foreground(c("#FFFFFF", "#1A1A1A")).Background(accent).Padding(0, 1)
	s.TabInactive = lipgloss.NewStyle().Foreground(role("muted")).Padding(0, 1)
	s.PaneFocused = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent)
	s.PaneBlurred = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(role("border"))
	s.StatusBar = lipgloss.NewStyle().Foreground(role("muted"))
	s.Banner = lipgloss.NewStyle().Bold(true).Foreground(c("#FFFFFF", "#1A1A1A")).Background(role("banner_bg")).Padding(0, 1)
	s.Selected = lipgloss.NewStyle().Foreground(c("#FFFFFF", "#FFFFFF")).Background(role("selected_bg"))
	s.Dim = lipgloss.NewStyle().Foreground(role("dim"))
	s.Bold = lipgloss.NewStyle().Bold(true)
	s.Warn = lipgloss.NewStyle().Foreground(role("warn"))
	s.Error = lipgloss.NewStyle().Bold(true).Foreground(role("error"))
	s.OK = lipgloss.NewStyle().Foreground(role("ok"))
	s.CutLine = lipgloss.NewStyle().Bold(true).Foreground(role("error"))
	s.Header = lipgloss.NewStyle().Bold(true).Underline(true)
	s.BarFill = lipgloss.NewStyle().Foreground(accent)
	s.BarEmpty = lipgloss.NewStyle().Foreground(c("#DDDDDD", "#3A3A3A"))
	s.BadgeUser = lipgloss.NewStyle().Foreground(role("user"))
	s.BadgeFeed = lipgloss.NewStyle().Foreground(role("feedback"))
	s.BadgeProj = lipgloss.NewStyle().Foreground(role("ok"))
	s.BadgeRef = lipgloss.NewStyle().Foreground(role("warn"))
	s.BadgeNone = lipgloss.NewStyle().Foreground(c("#777777", "#888888"))
	s.BadgeFresh = lipgloss.NewStyle().Foreground(role("ok"))
	s.BadgeAging = lipgloss.NewStyle().Foreground(role("warn"))
	s.BadgeStale = lipgloss.NewStyle().Foreground(role("error"))
	s.BadgeProblem = lipgloss.NewStyle().Bold(true).Foreground(role("error"))
	return s
}

// Bar draws a horizontal meter of width cells filled to value/max. Over
// max it is drawn full, with the overflow marked by "!".
func (s Styles) Bar(value, max int64, width int) string {
	if width <= 0 {
		return ""
	}
	if max <= 0 {
		max = 1
	}
	fill := int(value * int64(width) / max)
	over := value > max
	if fill > width {
		fill = width
	}
	if fill < 0 {
		fill = 0
	}
	full, empty := "█", "░"
	out := s.BarFill.Render(repeat(full, fill)) + s.BarEmpty.Render(repeat(empty, width-fill))
	if over {
		out += s.Error.Render("!")
	}
	return out
}

func repeat(s string, n int) string {
	if n <= 0 {
		return ""
	}
	b := make([]byte, 0, len(s)*n)
	for i := 0; i < n; i++ {
		b = append(b, s...)
	}
	return string(b)
}

// Input returns a text input with a steady cursor: a blinking cursor
// re-renders the screen twice a second for nothing, and makes scripted
// runs (tests, the tape) wait on its timer.
func Input(prompt, placeholder string) textinput.Model {
	ti := textinput.New()
	ti.Prompt = prompt
	ti.Placeholder = placeholder
	st := ti.Styles()
	st.Cursor.Blink = false
	ti.SetStyles(st)
	return ti
}

// Clip joins lines into a block of at most rows lines, the last one
// saying how many more there were.
func (s Styles) Clip(lines []string, rows int) string {
	rows = max(rows, 1)
	if len(lines) > rows {
		more := len(lines) - rows + 1
		lines = append(lines[:rows-1:rows-1], s.Dim.Render("… "+strconv.Itoa(more)+" more lines"))
	}
	return strings.Join(lines, "\n")
}

// Divided stacks top over bottom with a dim rule of width between them:
// a list over the detail of its selected row.
func (s Styles) Divided(width int, top, bottom string) string {
	return top + "\n" + s.Dim.Render(strings.Repeat("─", max(width, 1))) + "\n" + bottom
}
