package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/memscope/memscope/engine/provenance"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// projectProvenance is where every memory file of t's project came from
// (origin, review): projectmem's scan of the whole home's transcripts for
// calls on its memory folders, and memscope's journals. cache (nil: none)
// lets a command that looks again after its writes read no transcript
// twice.
func projectProvenance(t *memoryTarget, cache *provenance.FirstCache) provenance.Project {
	return t.engine().Provenance(cache)
}

// firstCache is the provenance cache of a command reading t's home: kept
// in memscope's cache folder across runs (the app's too) unless c turns
// it off or the home is a demo or an archive.
func (e *env) firstCache(c cacheFlags, t *memoryTarget) *provenance.FirstCache {
	if t.opened == nil {
		return provenance.NewFirstCache()
	}
	return provenance.NewFirstCacheOn(e.cache(c, t.opened), t.home.Dir)
}

// originLabel names a memory file for a list: its path, and for agent
// memory the agent and scope.
func originLabel(o *provenance.Origin) string {
	if o.Kind.IsAgent() {
		return fmt.Sprintf("%s  (agent memory, %s scope)", o.Path, o.Kind.Scope())
	}
	return o.Path
}

// printWrite prints one call on a memory file: what, by whom, when, the
// prompt behind it and its result, indented by pad.
func printWrite(w io.Writer, pad string, c *provenance.Write) {
	fmt.Fprintf(w, "%s%s  %s by %s, session %s, message %s (%s:%d)\n", pad, format.Timestamp(c.Time), c.Tool, c.ByText(),
		format.ShortID(c.SessionID), format.ShortID(c.MessageUUID), model.SanitizeLine(filepath.Base(c.Transcript)), c.Line)
	if c.By != nil && c.By.Description != "" {
		fmt.Fprintf(w, "%s    subagent: %s\n", pad, model.SanitizeLine(c.By.Description))
	}
	if c.By != nil && c.By.Task != "" {
		fmt.Fprintf(w, "%s    task:     %q\n", pad, model.SanitizeLine(c.By.Task))
	}
	if c.Prompt != nil {
		fmt.Fprintf(w, "%s    prompt:   %q (%s)\n", pad, model.SanitizeLine(c.Prompt.Text), format.Timestamp(c.Prompt.Time))
	} else {
		fmt.Fprintf(w, "%s    prompt:   not found (the chain or the parent session is not on disk)\n", pad)
	}
	switch c.Result {
	case provenance.OutcomeOK:
		fmt.Fprintf(w, "%s    result:   ok\n", pad)
	case provenance.OutcomeError:
		fmt.Fprintf(w, "%s    result:   FAILED — %s (the file was not written)\n", pad, model.SanitizeLine(c.Error))
	default:
		fmt.Fprintf(w, "%s    result:   none on disk (the session stopped mid-call?)\n", pad)
	}
}
