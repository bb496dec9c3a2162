package timeline

import "github.com/memscope/memscope/model"

// IsTurn reports whether r ends (part of) an API response of the main
// conversation: an assistant record outside a sidechain, with usage.
// Timeline.Turns and the live view count turns by this rule.
func IsTurn(r *model.Record) bool {
	return r.Type == model.RecordAssistant && !r.IsSidechain && r.Message != nil && r.Message.Usage != nil
}

// TurnKey is what the records of one response share: message.id and
// requestId. A response written as several lines (one per content block)
// is one turn; ok is false when both ids are missing, and such a record
// is a turn of its own.
func TurnKey(r *model.Record) (key string, ok bool) {
	key = r.Message.ID + "\x00" + r.RequestID
	return key, key != "\x00"
}

// AgentFile reports whether t is a subagent's own transcript
// (subagents/agent-<id>.jsonl): it has chain records and every one is a
// sidechain's, as the client writes an agent's turns. There the sidechain
// is the conversation, and its responses are the steps.
func AgentFile(t *model.Transcript) bool {
	var a agentScan
	for _, r := range t.Records {
		a.add(r)
	}
	return a.agentFile()
}

// agentScan answers AgentFile record by record.
type agentScan struct{ chain, main bool }

func (a *agentScan) add(r *model.Record) {
	if r.IsChain() {
		a.chain = true
		a.main = a.main || !r.IsSidechain
	}
}

func (a agentScan) agentFile() bool { return a.chain && !a.main }

// isTurnIn is IsTurn, and in an agent's own file (AgentFile) the same
// rule on its sidechain.
func isTurnIn(r *model.Record, agentFile bool) bool {
	if !agentFile || !r.IsSidechain {
		return IsTurn(r)
	}
	return r.Type == model.RecordAssistant && r.Message != nil && r.Message.Usage != nil
}
