package compact

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/memscope/memscope/engine/window"
	"github.com/memscope/memscope/model"
)

type chainTail struct {
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	Version   string `json:"version"`
	GitBranch string `json:"gitBranch"`
}

type compactMetaOut struct {
	Trigger                 string                   `json:"trigger"`
	PreTokens               int                      `json:"preTokens"`
	PreservedSegment        *model.PreservedSegment  `json:"preservedSegment,omitempty"`
	PreservedMessages       *model.PreservedMessages `json:"preservedMessages,omitempty"`
	PostTokens              int                      `json:"postTokens"`
	CumulativeDroppedTokens int                      `json:"cumulativeDroppedTokens"`
}

type boundaryOut struct {
	ParentUUID        *string         `json:"parentUuid"`
	LogicalParentUUID string          `json:"logicalParentUuid,omitempty"`
	IsSidechain       bool            `json:"isSidechain"`
	Type              string          `json:"type"`
	Subtype           string          `json:"subtype"`
	Content           string          `json:"content"`
	IsMeta            bool            `json:"isMeta"`
	Level             string          `json:"level"`
	UUID              string          `json:"uuid"`
	Timestamp         string          `json:"timestamp"`
	CompactMetadata   *compactMetaOut `json:"compactMetadata,omitempty"`
	MicrocompactMeta  *microMetaOut   `json:"microcompactMetadata,omitempty"`
	chainTail
}

type microMetaOut struct {
	Trigger          string   `json:"trigger"`
	PreTokens        int      `json:"preTokens"`
	TokensSaved      int      `json:"tokensSaved"`
	CompactedToolIDs []string `json:"compactedToolIds"`
}

type summaryMessageOut struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type summaryOut struct {
	ParentUUID                string            `json:"parentUuid"`
	IsSidechain               bool              `json:"isSidechain"`
	Type                      string            `json:"type"`
	Message                   summaryMessageOut `json:"message"`
	IsVisibleInTranscriptOnly bool              `json:"isVisibleInTranscriptOnly"`
	IsCompactSummary          bool              `json:"isCompactSummary"`
	UUID                      string            `json:"uuid"`
	Timestamp                 string            `json:"timestamp"`
	chainTail
}

type lastPromptOut struct {
	Type       string `json:"type"`
	LastPrompt string `json:"lastPrompt"`
	LeafUUID   string `json:"leafUuid"`
	SessionID  string `json:"sessionId"`
}

// clientTime formats a timestamp as the client does.
func clientTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// marshalRecord encodes v on one line without HTML escaping (the client's
// JSON.stringify leaves <, > and & alone).
func marshalRecord(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only plain structs of strings and numbers are encoded here.
		panic(fmt.Sprintf("encode record: %v", err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// randomUUID returns a version 4 UUID.
func randomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (p *pipelineRun) newUUID() string {
	if p.cfg.NewUUID != nil {
		return p.cfg.NewUUID()
	}
	return randomUUID()
}

func (p *pipelineRun) tail() chainTail {
	s := p.in.Session
	return chainTail{SessionID: s.SessionID, CWD: s.CWD, Version: s.Version, GitBranch: s.GitBranch}
}

// microcompactRecord is the microcompact_boundary the client appends when
// it clears old tool results; it stays on the chain.
func (p *pipelineRun) microcompactRecord(pre, saved window.Tokens, toolIDs []string) []byte {
	leaf := p.in.Session.Leaf
	uuid := p.newUUID()
	rec := boundaryOut{ParentUUID: &leaf, Type: "system", Subtype: model.SubtypeMicrocompactBoundary,
		Content: "Context microcompacted", Level: "info", UUID: uuid, Timestamp: clientTime(p.now),
		MicrocompactMeta: &microMetaOut{Trigger: p.cfg.Trigger, PreTokens: int(pre), TokensSaved: int(saved), CompactedToolIDs: toolIDs},
		chainTail:        p.tail()}
	p.in.Session.Leaf = uuid
	return marshalRecord(rec)
}

// compactRecords are the lines the client appends for a compaction: the
// boundary (no parent; logicalParentUuid is the old leaf), the summary
// under it, and a last-prompt naming the summary as the leaf so a resume
// starts there. A partial compaction's kept messages become the preserved
// segment, relinked after the summary on resume.
func (p *pipelineRun) compactRecords(summary Msg, keep []Msg, pre, post window.Tokens) [][]byte {
	s := &p.in.Session
	dropped := s.CumulativeDroppedTokens + int(pre-post)
	meta := &compactMetaOut{Trigger: p.cfg.Trigger, PreTokens: int(pre), PostTokens: int(post), CumulativeDroppedTokens: dropped}
	if len(keep) > 0 {
		var ids []string
		for _, m := range keep {
			ids = append(ids, m.UUID)
		}
		head, tail := keep[0].UUID, keep[len(keep)-1].UUID
		meta.PreservedSegment = &model.PreservedSegment{HeadUUID: head, AnchorUUID: summary.UUID, TailUUID: tail}
		meta.PreservedMessages = &model.PreservedMessages{AnchorUUID: summary.UUID, UUIDs: ids, AllUUIDs: ids}
	}
	b := p.newUUID()
	ts := clientTime(p.now)
	out := [][]byte{
		marshalRecord(boundaryOut{LogicalParentUUID: s.Leaf, Type: "system", Subtype: model.SubtypeCompactBoundary,
			Content: "Conversation compacted", Level: "info", UUID: b, Timestamp: ts, CompactMetadata: meta, chainTail: p.tail()}),
		marshalRecord(summaryOut{ParentUUID: b, Type: "user", Message: summaryMessageOut{Role: "user", Content: summary.Blocks[0].Text},
			IsVisibleInTranscriptOnly: true, IsCompactSummary: true, UUID: summary.UUID, Timestamp: ts, chainTail: p.tail()}),
		marshalRecord(lastPromptOut{Type: "last-prompt", LastPrompt: s.LastPrompt, LeafUUID: summary.UUID, SessionID: s.SessionID}),
	}
	s.Leaf, s.CumulativeDroppedTokens = summary.UUID, dropped
	return out
}
