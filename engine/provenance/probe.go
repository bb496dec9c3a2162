package provenance

import (
	"bytes"
	"crypto/sha256"

	"github.com/memscope/memscope/model"
)

// probeMax bounds the text a probe keeps of an edit: memory files are a
// few KB, and a longer new_string is checked by its head.
const probeMax = 16 << 10

// probe is what tells whether a file still holds what a call wrote. The
// client rewrites a memory file's frontmatter when it saves one (it
// stamps metadata.modified, re-emits the YAML), so a Write is compared
// by its body; an Edit by the text it put in.
type probe struct {
	// body is the SHA-256 of a Write's body (text after the frontmatter).
	body *[32]byte
	// text is an Edit's new_string (its head, at most probeMax bytes).
	text []byte
}

func writeProbe(content string) probe {
	f, _ := model.ParseMemoryFile("write", []byte(content))
	h := sha256.Sum256([]byte(f.Body))
	return probe{body: &h}
}

func editProbe(s string) probe {
	if s == "" {
		return probe{} // a deletion leaves nothing to look for
	}
	return probe{text: []byte(s[:min(len(s), probeMax)])}
}

// check reports whether f still holds what the call wrote; known is
// false when the call left nothing to check by.
func (p probe) check(f *model.MemoryFile) (holds, known bool) {
	switch {
	case p.body != nil:
		return sha256.Sum256([]byte(f.Body)) == *p.body, true
	case p.text != nil:
		return bytes.Contains(f.Raw(), p.text), true
	}
	return false, false
}
