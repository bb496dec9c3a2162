package engine

import (
	"testing"
	"testing/fstest"
)

// TestPreviewWithoutIndex: a project with no MEMORY.md and no topic files
// has the whole of both caps left, and no layer list is null.
func TestPreviewWithoutIndex(t *testing.T) {
	p := BuildPreview(PromptOptions{Root: fstest.MapFS{"p/.keep": {}}, HomeDir: "/h", Project: "/p", Now: fixtureTime})
	ix := p.MemoryIndex
	if ix.Exists || ix.RoomLines != IndexMaxLines || ix.RoomChars != IndexMaxChars || ix.Truncated || ix.DroppedEntries == nil {
		t.Errorf("index %+v", ix)
	}
	if p.Layers == nil || len(p.Layers) != 0 || p.Text != "" {
		t.Errorf("layers %v text %q", p.Layers, p.Text)
	}
}
