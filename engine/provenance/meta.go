package provenance

import (
	"encoding/json"
	"errors"
	"io/fs"
	"strings"

	"github.com/memscope/memscope/model"
)

// subagentMeta is the part of agent-<id>.meta.json provenance uses: the
// client writes it beside a subagent's transcript (2.1.331).
type subagentMeta struct {
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
	ToolUseID   string `json:"toolUseId"`
}

// readMeta reads the meta file of the subagent transcript at p (a
// regular file, bounded); a zero value when there is none or it does
// not parse.
func readMeta(home fs.FS, p string) subagentMeta {
	var m subagentMeta
	data, err := model.ReadFileBounded(home, strings.TrimSuffix(p, ".jsonl")+".meta.json", model.MaxSmallBytes)
	if err != nil {
		return m
	}
	if json.Unmarshal(data, &m) != nil {
		return subagentMeta{}
	}
	return m
}

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
