package enginetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/memscope/memscope/model"
)

func MemFile(t testing.TB, rel, text string, mtime time.Time) *model.MemoryFile {
	f, _ := model.ParseMemoryFile(rel, []byte(text))
	f.ModTime = mtime
	return f
}

func Typed(name, typ, desc, body string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\nmetadata:\n  type: %s\n---\n%s", name, desc, typ, body)
}
