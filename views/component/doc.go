// Package component groups the pieces the panes share and that are not
// panes themselves: list (the scrolling, filterable list), detail (the
// scrollable, zoomable text beside or under a list), style (the
// Styles every pane is drawn with), text (sizes, truncation, wrapping),
// markdown (the cached glamour renderer) and hit (a search hit in a
// detail: where it is, and a file's lines with its line marked). Components know nothing of
// panes, of the root model or of the disk.
package component
