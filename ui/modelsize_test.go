package ui

import (
	"reflect"
	"testing"
	"unsafe"
)

// maxRootModel is the root model's bound: Bubble Tea copies the root on
// every message, so it holds the shell's own state (layout, focus, modal
// state, status) and pointers: the panes (paneSet), the keymap, the help
// model, the loads' state. 8 KiB is an eighth of Go's limit for a value
// the compiler keeps on the stack when it is made implicitly (64 KiB,
// README "Following a running session"); the root was 57 KiB before the
// panes moved behind a pointer.
const maxRootModel = 8 << 10

// The root model, copied on every message, stays under the bound. The
// message names the biggest fields when it does not.
func TestRootModelStaysOnTheStack(t *testing.T) {
	size := unsafe.Sizeof(Model{})
	if size <= maxRootModel {
		return
	}
	rt := reflect.TypeOf(Model{})
	var big []string
	for i := range rt.NumField() {
		if f := rt.Field(i); f.Type.Size() > 512 {
			big = append(big, f.Name+" "+f.Type.String())
		}
	}
	t.Errorf("the root model is %d bytes, over %d: hold big fields by pointer (fields over 512 bytes: %v)", size, maxRootModel, big)
}
