package model

import (
	"strings"
	"testing"
)

// client2332 is a transcript shaped as 2.1.332 writes it: a -p prompt with
// sentAtMs, a tool result with toolCallEnded, a response retried after a
// refusal, an api-request record with thread and echoWireToolInputs, a
// nested_memory with replacesPath, an old instruction_files_not_loaded
// attachment, and a compact summary whose earlierMessages hold a card.
const client2332 = `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"ask me"},"uuid":"u1","timestamp":"2026-11-28T10:00:00.000Z","sentAtMs":1795860000000,"sessionId":"s","cwd":"/w","version":"2.1.332","gitBranch":"main"}
{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/w/wt/CLAUDE.md"}}],"usage":{"input_tokens":10,"cache_read_input_tokens":900,"cache_creation_input_tokens":0,"output_tokens":20}},"requestId":"req_1","refusalRetry":{"attempt":1},"uuid":"a1","timestamp":"2026-11-28T10:00:01.000Z","sessionId":"s","cwd":"/w","version":"2.1.332","gitBranch":"main"}
{"type":"api-request","thread":"main","echoWireToolInputs":true,"timestamp":"2026-11-28T10:00:01.100Z","sessionId":"s"}
{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"not run"}]},"toolCallEnded":"not_started","uuid":"u2","timestamp":"2026-11-28T10:00:02.000Z","sessionId":"s","cwd":"/w","version":"2.1.332","gitBranch":"main"}
{"parentUuid":"u2","isSidechain":false,"type":"attachment","attachment":{"type":"nested_memory","path":"/w/wt/CLAUDE.md","displayPath":"wt/CLAUDE.md","replacesPath":"/w/CLAUDE.md","content":{"type":"Project","rawContent":"# rules\n","contentDiffersFromDisk":false}},"uuid":"n1","timestamp":"2026-11-28T10:00:02.100Z","sessionId":"s","cwd":"/w","version":"2.1.332","gitBranch":"main"}
{"parentUuid":"n1","isSidechain":false,"type":"attachment","attachment":{"type":"instruction_files_not_loaded","files":[{"path":"/w/big/CLAUDE.md","reason":"too large"}]},"uuid":"x1","timestamp":"2026-11-28T10:00:02.200Z","sessionId":"s","cwd":"/w","version":"2.1.330","gitBranch":"main"}
{"parentUuid":null,"logicalParentUuid":"x1","isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{"trigger":"auto","preTokens":67542,"postTokens":3000},"uuid":"b1","timestamp":"2026-11-28T10:01:00.000Z","sessionId":"s","cwd":"/w","version":"2.1.332","gitBranch":"main"}
{"parentUuid":"b1","isSidechain":false,"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation."},"isVisibleInTranscriptOnly":true,"isCompactSummary":true,"sentAtMs":1795860060000,"earlierMessages":[{"kind":"user","text":"ask me"},{"kind":"card","text":"Blue","input":{"questions":[{"question":"Colour?"}]}},{"kind":"mystery","text":"dropped"},{"kind":"note","text":""}],"uuid":"c1","timestamp":"2026-11-28T10:01:00.100Z","sessionId":"s","cwd":"/w","version":"2.1.332","gitBranch":"main"}
`

func TestClient2332Transcript(t *testing.T) {
	var recs []*Record
	sum, err := ScanTranscript(strings.NewReader(client2332), "t.jsonl", ScanOptions{Content: true, MemoryText: true}, func(r *Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Problems) != 0 || sum.Records != 8 {
		t.Fatalf("%d records, problems %+v: the new optional fields must not be malformed", sum.Records, sum.Problems)
	}
	if sum.Types["api-request"] != 1 || sum.Types["attachment"] != 2 {
		t.Errorf("types %v", sum.Types)
	}
	nested := recs[4]
	if len(nested.AttachmentFiles) != 1 || nested.AttachmentFiles[0].ReplacesPath != "/w/CLAUDE.md" || nested.AttachmentFiles[0].Path != "/w/wt/CLAUDE.md" {
		t.Errorf("nested_memory files %+v", nested.AttachmentFiles)
	}
	if recs[5].AttachmentType != "instruction_files_not_loaded" {
		t.Errorf("retired attachment read as %q", recs[5].AttachmentType)
	}
	// The summary's earlier messages: "ask me" (6), the card's answer
	// (4) with its AskUserQuestion call and input, and "No response
	// requested." since nothing answers it; the unknown kind and the
	// empty note are dropped.
	summary := recs[7]
	input := `{"questions":[{"question":"Colour?"}]}`
	want := len("ask me") + len("Blue") + len(`{"type":"tool_use","name":"AskUserQuestion","input":}`) + len(input) + len("No response requested.")
	if got := summary.EarlierChars(); got != want {
		t.Errorf("earlier chars %d, want %d", got, want)
	}
	// A reply after the card answers it: no "No response requested.".
	summary.EarlierMessages = append(summary.EarlierMessages, EarlierMessage{Kind: EarlierReply, Text: "ok"})
	if got := summary.EarlierChars(); got != want-len("No response requested.")+len("ok") {
		t.Errorf("with a reply: earlier chars %d", got)
	}
}
