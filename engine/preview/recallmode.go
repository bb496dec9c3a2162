package preview

import "fmt"

// RecallEnv is the environment variable that turns recall on in the
// client (FORMATS.md, "Found since … 2.1.331"): any non-empty value. A
// server-side gate can also turn it on for an account; memscope cannot see
// that gate.
const RecallEnv = "CLAUDE_MEMORY_STORES"

// RecallSwitch says which recall state a preview shows: the one the
// environment gives (RecallFromEnv), or one asked for.
type RecallSwitch string

// The switches.
const (
	RecallFromEnv RecallSwitch = ""
	RecallOn      RecallSwitch = "on"
	RecallOff     RecallSwitch = "off"
)

// ParseRecallSwitch reads --recall: "on", "off", or "env" (or "") for the
// environment's state.
func ParseRecallSwitch(s string) (RecallSwitch, error) {
	switch s {
	case "", "env":
		return RecallFromEnv, nil
	case "on":
		return RecallOn, nil
	case "off":
		return RecallOff, nil
	}
	return "", fmt.Errorf("--recall %q: want on, off or env", s)
}

// RecallMode is whether the client's recall (the model picking up to 5
// memories per prompt) runs for this user, why, and the session start in
// both states, so either can be compared with the other.
type RecallMode struct {
	// On is the state the preview's layers show.
	On bool `json:"on"`
	// Source says what decided it: "CLAUDE_MEMORY_STORES", "--recall",
	// or "default" (off; only a server-side gate memscope cannot see
	// would turn it on).
	Source string `json:"source"`
	Reason string `json:"reason"`
	// Selector names memscope's stand-in for the client's model call.
	Selector string `json:"selector"`
	// Off and On are the two states.
	Off     RecallState `json:"off"`
	OnState RecallState `json:"onState"`
}

// RecallState is the context one recall state gives at session start.
type RecallState struct {
	// IndexTokens is MEMORY.md's share (0 when it is left out);
	// RecalledTokens what recall adds for the preview's queries (0 when
	// recall is off); StartupTokens the instructions and MEMORY.md.
	IndexTokens    int    `json:"indexTokens"`
	RecalledTokens int    `json:"recalledTokens"`
	StartupTokens  int    `json:"startupTokens"`
	Summary        string `json:"summary"`
}

// Reasons for the layers recall changes.
const (
	recallOnIndexReason  = "left out of the prompt: recall is on, so the client sends no MEMORY.md and picks up to 5 memories per prompt instead"
	recallOffPickReason  = "not sent: recall is off for this user; this is what recall would pick when on"
	recallStandInSummary = "per prompt the model picks up to 5 memories; memscope's BM25 ranking stands in for that model call"
)

// recallMode decides the state: --recall first, then the environment.
func recallMode(o Options) RecallMode {
	m := RecallMode{Selector: "bm25 (a local stand-in for the client's model call)"}
	switch {
	case o.Recall == RecallOn:
		m.On, m.Source, m.Reason = true, "--recall", "asked for with --recall on"
	case o.Recall == RecallOff:
		m.Source, m.Reason = "--recall", "asked for with --recall off"
	case o.Getenv != nil && o.Getenv(RecallEnv) != "":
		m.On, m.Source, m.Reason = true, RecallEnv, RecallEnv+" is set"
	default:
		m.Source, m.Reason = "default", RecallEnv+" is not set; a server-side gate memscope cannot see may still turn it on"
	}
	return m
}

// fillStates works out both states: the instructions (instr tokens) load
// in both; MEMORY.md (index) only with recall off; the files recall picks
// for the preview's queries (recalled) only with it on.
func (m *RecallMode) fillStates(instr, index, recalled int) {
	m.Off = RecallState{IndexTokens: index, StartupTokens: instr + index,
		Summary: fmt.Sprintf("MEMORY.md loads (~%d tokens); no memory is picked per prompt", index)}
	m.OnState = RecallState{RecalledTokens: recalled, StartupTokens: instr,
		Summary: fmt.Sprintf("MEMORY.md is left out (−%d tokens); %s", index, recallStandInSummary)}
	if recalled > 0 {
		m.OnState.Summary += fmt.Sprintf(" (~%d tokens for these prompts)", recalled)
	}
}
