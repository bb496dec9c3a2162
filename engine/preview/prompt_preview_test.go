package preview

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/memscope/memscope/engine/internal/enginetest"
	"github.com/memscope/memscope/engine/memindex"
)

// TestPreviewWithoutIndex: a project with no MEMORY.md and no topic files
// has the whole of both caps left, and no layer list is null.
func TestPreviewWithoutIndex(t *testing.T) {
	p := Build(Options{Root: fstest.MapFS{"p/.keep": {}}, HomeDir: "/h", Project: "/p", Now: fixtureTime})
	ix := p.MemoryIndex
	if ix.Exists || ix.RoomLines != memindex.MaxLines || ix.RoomChars != memindex.MaxChars || ix.Truncated || ix.DroppedEntries == nil {
		t.Errorf("index %+v", ix)
	}
	if p.Layers == nil || len(p.Layers) != 0 || p.Text != "" {
		t.Errorf("layers %v text %q", p.Layers, p.Text)
	}
}

// TestPreviewReportAge: the report says "1 day old", not "1 days old".
func TestPreviewReportAge(t *testing.T) {
	dir := "h/projects/-p/memory/"
	root := fstest.MapFS{"p/.keep": {},
		dir + "a.md": {Data: []byte(enginetest.Typed("alpha", "user", "alpha beta notes", "b")), ModTime: fixtureTime.Add(-30 * time.Hour)},
		dir + "b.md": {Data: []byte(enginetest.Typed("beta", "user", "beta alpha notes", "b")), ModTime: fixtureTime.Add(-50 * time.Hour)}}
	p := Build(Options{Root: root, HomeDir: "/h", Project: "/p", Now: fixtureTime, Queries: []string{"alpha beta"}})
	var b bytes.Buffer
	WritePreviewReport(&b, p)
	for _, want := range []string{" 1 day old (mtime", " 2 days old (mtime"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
