package extract

import (
	"context"
	"fmt"
	"time"
)

// CandidateType is the memory type a proposed memory would get; the four
// types of Claude Code's typed memory files.
type CandidateType string

// The memory types an extractor proposes.
const (
	// CandidateUser is the user's role, expertise and preferences.
	CandidateUser CandidateType = "user"
	// CandidateFeedback is a correction or a confirmed approach, with
	// **Why:** and **How to apply:** lines.
	CandidateFeedback CandidateType = "feedback"
	// CandidateProject is a decision or deadline, with absolute dates and
	// **Why:** and **How to apply:** lines.
	CandidateProject CandidateType = "project"
	// CandidateReference is a pointer to an external tracker or dashboard.
	CandidateReference CandidateType = "reference"
)

// Input is one user message an extractor reads.
type Input struct {
	SessionID string `json:"sessionId"`
	UUID      string `json:"uuid"`
	// Timestamp anchors relative dates ("by Friday"); dates are computed
	// in its location, so pass local time to get the user's calendar.
	Timestamp time.Time `json:"timestamp"`
	// Text is the message as the user sent it, wrappers and pastes included:
	// the extractor strips them.
	Text string `json:"text"`
}

// ExistingMemory is a memory already on disk, for deduplication.
type ExistingMemory struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Body        string `json:"body"`
	// Type is the memory's type as read; it may be empty or unknown.
	Type CandidateType `json:"type"`
}

// Provenance says where a candidate came from.
type Provenance struct {
	SessionID   string `json:"sessionId"`
	MessageUUID string `json:"messageUuid"`
	// Quote is the user's sentence the candidate was read from.
	Quote string `json:"quote"`
}

// Candidate is a proposed memory.
type Candidate struct {
	// Name is a slug of [a-z0-9-], unique among the existing memories and
	// the other candidates.
	Name        string        `json:"name"`
	Type        CandidateType `json:"type"`
	Description string        `json:"description"`
	Body        string        `json:"body"`
	Provenance  Provenance    `json:"provenance"`
	// Reason says which rule proposed it, e.g. "correction".
	Reason string `json:"reason"`
}

// DuplicateCandidate is a candidate left out because it repeats an existing
// memory (or an earlier candidate of the same run).
type DuplicateCandidate struct {
	Candidate Candidate `json:"candidate"`
	// Matches is the name of the memory or candidate it repeats.
	Matches string `json:"matches"`
	// Similarity is in [0, 1]; see RuleExtractor.DuplicateThreshold.
	Similarity float64 `json:"similarity"`
}

// Rejection is a sentence a rule picked up that the exclusion list
// keeps out of memory, so the user can see why nothing was proposed.
type Rejection struct {
	Provenance Provenance `json:"provenance"`
	// Rule is the rule that picked the sentence up.
	Rule string `json:"rule"`
	// Reason names the exclusion, e.g. "in-progress task state".
	Reason string `json:"reason"`
}

// Result is what an extractor proposes.
type Result struct {
	Candidates []Candidate          `json:"candidates"`
	Duplicates []DuplicateCandidate `json:"duplicates"`
	Rejected   []Rejection          `json:"rejected"`
}

// Extractor reads user messages and proposes memories. The default is
// RuleExtractor; a model-backed extractor can take its place.
type Extractor interface {
	Extract(ctx context.Context, msgs []Input, existing []ExistingMemory) (Result, error)
}

// DefaultDuplicateThreshold is the similarity at which RuleExtractor
// treats a candidate as a repeat of an existing memory.
const DefaultDuplicateThreshold = 0.5

// RuleExtractor is the deterministic default Extractor. It proposes
//   - feedback from explicit "remember …" requests, corrections ("don't …",
//     "stop …", "no, use X instead") and confirmed approaches ("yes,
//     exactly, keep using X");
//   - user memories from the user's role and preferences ("I'm a …",
//     "I prefer …");
//   - project memories from decisions and deadlines, with relative dates
//     made absolute from the message time ("by Friday" → the date);
//   - references from links to trackers and dashboards (Linear, Jira,
//     Grafana, Slack, GitHub issues, …) given with some context.
//
// It follows Claude Code's exclusion list: nothing derivable from the code
// or git history, no debugging recipes, no in-progress task state, no code
// blocks, stack traces or lists of file paths; pasted content and
// harness wrappers (system reminders, command output) are not read.
type RuleExtractor struct {
	// DuplicateThreshold is the similarity in [0, 1] at or above which a
	// candidate repeats a memory; 0 means DefaultDuplicateThreshold.
	DuplicateThreshold float64
}

// exQuoteMax bounds a provenance quote.
const exQuoteMax = 300

func exRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// exUniqueName returns name, or name with the first free "-N" suffix.
func exUniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for n := 2; ; n++ {
		if alt := fmt.Sprintf("%s-%d", name, n); !taken[alt] {
			return alt
		}
	}
}

// Extract implements Extractor. It fails only when ctx is done.
func (x RuleExtractor) Extract(ctx context.Context, msgs []Input, existing []ExistingMemory) (Result, error) {
	threshold := x.DuplicateThreshold
	if threshold <= 0 {
		threshold = DefaultDuplicateThreshold
	}
	res := Result{Candidates: []Candidate{}, Duplicates: []DuplicateCandidate{}, Rejected: []Rejection{}}
	names := map[string]bool{}
	for _, m := range existing {
		names[m.Name] = true
	}
	known := exKnownMemories(existing)
	for _, msg := range msgs {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("extract memories: %w", err)
		}
		sentences := exSentences(exCleanMessage(msg.Text))
		for i, s := range sentences {
			prev := ""
			if i > 0 {
				prev = sentences[i-1]
			}
			next := ""
			if i+1 < len(sentences) {
				next = sentences[i+1]
			}
			m, ok := exClassify(s, prev, msg.Timestamp)
			if !ok {
				continue
			}
			prov := Provenance{SessionID: msg.SessionID, MessageUUID: msg.UUID, Quote: exCut(m.quote, exQuoteMax)}
			if m.reject != "" {
				res.Rejected = append(res.Rejected, Rejection{Provenance: prov, Rule: m.reason, Reason: m.reject})
				continue
			}
			c := exBuild(m, next, msg.Timestamp, prov)
			if match, sim, dup := exFindDuplicate(c, known, threshold); dup {
				res.Duplicates = append(res.Duplicates, DuplicateCandidate{Candidate: c, Matches: match, Similarity: sim})
				continue
			}
			c.Name = exUniqueName(c.Name, names)
			names[c.Name] = true
			known = append(known, exKnown(c.Name, c.Description, c.Body))
			res.Candidates = append(res.Candidates, c)
		}
	}
	return res, nil
}
