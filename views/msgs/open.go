package msgs

// OpenPane asks the root to focus the pane called Pane (a keymap.Panes
// name, any case) and show it Show: a row or filter that pane understands
// ("cut" on Index scrolls to the cut, "stale" on Memories filters the
// list). The root routes Show to the pane as a Show message after focusing
// it; a pane that does not understand it shows itself as it is.
type OpenPane struct {
	Pane string
	Show string
}

// Show is what the root hands the pane an OpenPane opened: the row or
// filter to show.
type Show struct {
	What string
}
