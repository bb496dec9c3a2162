package model

import (
	"testing"
	"testing/fstest"
)

// TestScanKeepSkipsRefusedBlocks: with ScanOptions.Keep, a block it
// refuses keeps its type and ids but no text, input or size, and a block
// it accepts is read as without Keep, whatever the order of its members
// (here "input" before "name", so the answer must wait for the block's
// end). A message whose content is a string is asked about as text.
func TestScanKeepSkipsRefusedBlocks(t *testing.T) {
	data := `{"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[` +
		`{"type":"text","text":"a long answer"},` +
		`{"type":"tool_use","id":"t1","input":{"command":"go test ./..."},"name":"Bash"},` +
		`{"type":"tool_use","id":"t2","name":"Grep","input":{"pattern":"x"}}]}}` + "\n" +
		`{"type":"user","uuid":"u1","message":{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"Exit code 1"},` +
		`{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"x.go"},{"type":"image"}]}]}}` + "\n" +
		`{"type":"user","uuid":"u2","message":{"role":"user","content":"never mock the db"}}` + "\n" +
		`{"type":"assistant","uuid":"a2","message":{"role":"assistant","content":"plain"}}` + "\n"
	fsys := fstest.MapFS{"t.jsonl": {Data: []byte(data)}}
	all := ScanOptions{Content: true, KeepText: true}
	full, err := ReadTranscriptWith(fsys, "t.jsonl", all)
	if err != nil {
		t.Fatal(err)
	}
	keep := all
	keep.Keep = func(r *Record, b *ContentBlock) bool {
		return b.Name == "Bash" || b.ToolUseID == "t1" || (b.Type == BlockText && r.Type == RecordUser)
	}
	lean, err := ReadTranscriptWith(fsys, "t.jsonl", keep)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[[2]int]bool{{0, 1}: true, {1, 0}: true, {2, 0}: true}
	for i, r := range full.Records {
		fm, lm := r.Message, lean.Records[i].Message
		if len(fm.Content) != len(lm.Content) {
			t.Fatalf("record %d: %d blocks, want %d", i, len(lm.Content), len(fm.Content))
		}
		for j, fb := range fm.Content {
			lb := lm.Content[j]
			if lb.Type != fb.Type || lb.ID != fb.ID || lb.Name != fb.Name || lb.ToolUseID != fb.ToolUseID || lb.IsError != fb.IsError {
				t.Errorf("record %d block %d: ids %+v, want those of %+v", i, j, lb, fb)
			}
			switch {
			case kept[[2]int{i, j}] && lb != fb:
				t.Errorf("record %d block %d kept as %+v, want %+v", i, j, lb, fb)
			case !kept[[2]int{i, j}] && (lb.Text != "" || lb.Input != "" || lb.Bytes != 0 || lb.Chars != 0 || lb.Images != 0):
				t.Errorf("record %d block %d refused but read: %+v", i, j, lb)
			}
		}
	}
	if full.Records[0].Message.Content[0].Text != "a long answer" || full.Records[3].Message.Content[0].Text != "plain" {
		t.Fatal("the full read is not what the test assumes")
	}
	if m := lean.Records[3].Message; m.ContentBytes != 0 {
		t.Errorf("a refused string content is counted: %d bytes", m.ContentBytes)
	}
}
