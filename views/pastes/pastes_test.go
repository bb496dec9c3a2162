package pastes

import (
	"strings"
	"testing"

	"github.com/memscope/memscope/keymap"
	"github.com/memscope/memscope/model"
	"github.com/memscope/memscope/views/component/style"
	"github.com/memscope/memscope/views/msgs"
)

// A previewed paste is shown sanitized and wrapped at the pane's width,
// and wrapped again at the new width when the pane is resized (the
// pane keeps the text as shown, made once per paste and width, not for
// every frame).
func TestPreviewWrapsAtTheWidthAndAgainOnResize(t *testing.T) {
	m := New(keymap.Default(), style.New(true, true))
	m.SetSize(40, 30)
	m, _ = m.Update(InventoryMsg{Inventory: &model.PasteInventory{Files: []model.PasteFile{{Hash: "0123456789abcdef", Path: "paste-cache/0123456789abcdef.txt", Size: 100}}}})
	long := strings.TrimSpace(strings.Repeat("word ", 20)) + "\x1b]0;title\x07"
	m, _ = m.Update(msgs.PasteResolved{Hash: "0123456789abcdef", Content: long})
	rows := func() int {
		n := 0
		for _, l := range strings.Split(m.View(), "\n") {
			if strings.Contains(l, "word") {
				n++
			}
		}
		return n
	}
	if strings.Contains(m.View(), "\x1b]0;") {
		t.Fatal("the paste's terminal control is printed")
	}
	at40 := rows()
	m.SetSize(120, 30)
	at120 := rows()
	if at40 < 3 || at120 != 1 {
		t.Fatalf("the 99-cell line takes %d rows at 40 columns and %d at 120, want 3 or more and 1:\n%s", at40, at120, m.View())
	}
}
