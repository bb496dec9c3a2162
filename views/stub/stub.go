// Package stub is a throwaway pane: what a new pane costs.
package stub

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/component/text"
)

// Model is the stub pane.
type Model struct{ w, h int }

// New builds it.
func New(keymap.KeyMap, style.Styles) Model { return Model{} }

func (m Model) Title() string                   { return "Stub" }
func (m *Model) SetSize(w, h int)               { m.w, m.h = w, h }
func (m *Model) SetStyles(style.Styles)         {}
func (m *Model) Focus()                         {}
func (m *Model) Blur()                          {}
func (m Model) View() string                    { return "stub" }
func (m Model) Help() []key.Binding             { return nil }
func (m Model) Filtering() bool                 { return false }
func (m *Model) ClickRow(int) tea.Cmd           { return nil }
func (m Model) Legend() []text.LegendEntry      { return nil }
func (m Model) Update(tea.Msg) (Model, tea.Cmd) { return m, nil }
