package ui

import (
	"reflect"
	"testing"
	"unsafe"
)

// maxRootModel is Go's limit for a value the compiler keeps on the stack
// when it is made implicitly: past it, every message copies the root
// model to the heap, several times (README, "Following a running
// session").
const maxRootModel = 64 << 10

// The root model, copied on every message, stays under the limit: panes
// and lists hold their keymap, filter input and detail viewport by
// pointer. The message names the biggest fields when it does not.
func TestRootModelStaysOnTheStack(t *testing.T) {
	size := unsafe.Sizeof(Model{})
	if size <= maxRootModel {
		return
	}
	rt := reflect.TypeOf(Model{})
	var big []string
	for i := range rt.NumField() {
		if f := rt.Field(i); f.Type.Size() > 2<<10 {
			big = append(big, f.Name+" "+f.Type.String())
		}
	}
	t.Errorf("the root model is %d bytes, over %d: hold big fields by pointer (fields over 2 KB: %v)", size, maxRootModel, big)
}
