// Package theme is the colour roles a theme can set in memscope's
// settings file, with memscope's own colours: data only, so that the
// settings file is read (and checked) the same way by the terminal app,
// whose styles (views/component/style) are built from it, and by the hook
// binary (cmd/memscope-hook), which links no styling package.
package theme

import (
	"maps"
	"slices"
)

// Theme overrides colours by role (Roles), for light and for dark
// backgrounds: "#RRGGBB", "#RGB" or an ANSI colour number. A role left
// out keeps memscope's colour.
type Theme struct {
	Light map[string]string
	Dark  map[string]string
}

// Roles are the colour roles a theme can set, with memscope's light and
// dark colours.
func Roles() map[string][2]string {
	return map[string][2]string{
		"accent":      {"#5A56E0", "#7D79F6"},
		"muted":       {"#555555", "#9A9A9A"},
		"dim":         {"#9A9A9A", "#666666"},
		"border":      {"#CCCCCC", "#444444"},
		"warn":        {"#B25E00", "#F2B155"},
		"error":       {"#C4252C", "#FF6B6B"},
		"ok":          {"#1E7F3B", "#5FD38D"},
		"selected_bg": {"#5A56E0", "#4B47B8"},
		"banner_bg":   {"#C26A00", "#E8A33D"},
		"user":        {"#2D6CDF", "#6FA3FF"},
		"feedback":    {"#8E44AD", "#C792EA"},
	}
}

// RoleNames are the roles' names, sorted.
func RoleNames() []string {
	return slices.Sorted(maps.Keys(Roles()))
}
