package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/memscope/memscope/views/style"
)

// placeholder stands in for a pane whose engine is still being built.
type placeholder struct {
	title  string
	styles style.Styles
}

func (p *placeholder) Title() string       { return p.title }
func (p *placeholder) SetSize(w, h int)    {}
func (p *placeholder) Focus()              {}
func (p *placeholder) Blur()               {}
func (p *placeholder) Help() []key.Binding { return nil }
func (p *placeholder) Filtering() bool     { return false }
func (p *placeholder) ClickRow(y int)      {}
func (p *placeholder) View() string {
	return p.styles.Dim.Render("The " + p.title + " pane is not built yet.")
}
