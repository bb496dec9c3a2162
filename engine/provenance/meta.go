package provenance

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/memscope/memscope/model"
)

// readMeta reads the agent-<id>.meta.json beside a subagent transcript
// (model.ReadSubagentMeta: a regular file, bounded); a zero value when
// there is none or it does not parse.
func readMeta(home fs.FS, t model.TranscriptFile) model.SubagentMeta {
	name := t.MetaPath
	if name == "" {
		name = strings.TrimSuffix(t.Path, ".jsonl") + ".meta.json"
	}
	m, err := model.ReadSubagentMeta(home, name)
	if err != nil {
		return model.SubagentMeta{}
	}
	return m
}

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
