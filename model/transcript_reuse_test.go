package model

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// reuseTranscript is n rounds of: a chain record, a line that is not a
// record, two records the tree does not keep (an api-request-blob and a
// cost-state), a malformed line.
func reuseTranscript(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%d","parentUuid":%s,"sessionId":"s","message":{"role":"user","content":"prompt %d"}}`+"\n",
			i, parentOf(i), i)
		b.WriteString(`[1,2]` + "\n")
		fmt.Fprintf(&b, `{"type":"api-request-blob","hash":"h%d","message":{"role":"user","content":[{"type":"text","text":"blob %d"}]},"sessionId":"s"}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"cost-state","totalCostUSD":%d,"sessionId":"s"}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"user","uuid":"bad%d",`+"\n", i)
	}
	return b.Bytes()
}

func parentOf(i int) string {
	if i == 0 {
		return "null"
	}
	return fmt.Sprintf(`"u%d"`, i-1)
}

// TestReadTranscriptReusesOnlyDroppedRecords: the records the tree does
// not keep are decoded into one reused Record; every kept record is its
// own, whole after the lines read into the reused one, and the summary
// still counts every record and problem.
func TestReadTranscriptReusesOnlyDroppedRecords(t *testing.T) {
	const n = 50
	tr, err := ReadTranscriptFrom(bytes.NewReader(reuseTranscript(n)), "r.jsonl", ScanOptions{Content: true, KeepText: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Records) != n {
		t.Fatalf("kept %d records, want %d", len(tr.Records), n)
	}
	seen := map[*Record]bool{}
	for i, r := range tr.Records {
		if seen[r] {
			t.Fatalf("record %d shares its Record with an earlier one", i)
		}
		seen[r] = true
		if r.UUID != fmt.Sprintf("u%d", i) || r.Type != RecordUser || r.Line != 5*i+1 || r.Message == nil ||
			len(r.Message.Content) != 1 || r.Message.Content[0].Text != fmt.Sprintf("prompt %d", i) {
			t.Fatalf("record %d is %+v (message %+v)", i, r, r.Message)
		}
	}
	s := tr.Summary
	if s.Records != 3*n || s.Types["api-request-blob"] != n || s.Types["cost-state"] != n || len(s.Problems) != 2*n {
		t.Fatalf("summary: %d records, types %v, %d problems", s.Records, s.Types, len(s.Problems))
	}
	if p := s.Problems[1]; p.Line != 5 || !strings.Contains(p.Reason, "invalid JSON") {
		t.Fatalf("second problem %+v", p)
	}
}

// TestReadTranscriptAllocatesPerKeptRecord: reading more lines the tree
// drops costs no more allocations per line (each used to get its own
// Record, and each read its own 256 KiB line buffer).
func TestReadTranscriptAllocatesPerKeptRecord(t *testing.T) {
	drops := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":"hi"}}` + "\n")
		for i := range n {
			fmt.Fprintf(&b, `{"type":"api-request-blob","hash":"h","message":{"role":"user","content":[{"type":"text","text":"blob %d"}]},"sessionId":"s"}`+"\n", i)
		}
		return b.Bytes()
	}
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(20, func() {
			if _, err := ReadTranscriptFrom(bytes.NewReader(data), "a.jsonl", ScanOptions{Content: true}); err != nil {
				t.Fatal(err)
			}
		})
	}
	few, many := allocs(drops(10)), allocs(drops(1010))
	if many-few > 100 {
		t.Fatalf("1000 more dropped records cost %.0f more allocations (%.0f, %.0f)", many-few, few, many)
	}
}

// TestPooledLineReaderStartsOver: a line reader taken from the pool
// reads its new input from the start (line numbers, offsets, the byte
// order mark) with the default line limit, whatever the last scan left.
func TestPooledLineReaderStartsOver(t *testing.T) {
	lr := getLineReader(strings.NewReader("a\n" + strings.Repeat("x", 300<<10) + "\nb"))
	lr.MaxLine = 10
	for {
		if _, ok := lr.Next(); !ok {
			break
		}
	}
	putLineReader(lr)
	for range 3 { // whichever reader the pool hands out
		lr := getLineReader(strings.NewReader("\uFEFFone\ntwo\n"))
		l1, ok1 := lr.Next()
		l2, ok2 := lr.Next()
		_, ok3 := lr.Next()
		if !ok1 || !ok2 || ok3 || string(l1.Bytes) != "one" || l1.Number != 1 || string(l2.Bytes) != "two" || l2.Number != 2 ||
			l2.Offset != 7 || lr.Limit() != MaxLineBytes || lr.Err() != nil {
			t.Fatalf("pooled reader read %+v %+v (limit %d, err %v)", l1, l2, lr.Limit(), lr.Err())
		}
		putLineReader(lr)
	}
}

// TestSizeHintSameTree: a transcript read with its size known (the index
// made ahead, the cap included) is the tree read without it.
func TestSizeHintSameTree(t *testing.T) {
	data := reuseTranscript(40)
	plain, err := ReadTranscriptFrom(bytes.NewReader(data), "h.jsonl", ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, hint := range []int64{int64(len(data)), 1 << 40} {
		sized, err := ReadTranscriptFrom(bytes.NewReader(data), "h.jsonl", ScanOptions{SizeHint: hint})
		if err != nil {
			t.Fatal(err)
		}
		if len(sized.Records) != len(plain.Records) || len(sized.Records) != 40 {
			t.Fatalf("hint %d: %d records, want %d", hint, len(sized.Records), len(plain.Records))
		}
		for i, r := range sized.Records {
			kids, want := sized.Children(r.UUID), plain.Children(r.UUID)
			if r.UUID != plain.Records[i].UUID || sized.Get(r.UUID) != r || len(kids) != len(want) || (i < 39) != (len(kids) == 1) {
				t.Fatalf("hint %d: record %d %q: get %v, %d children (want %d)", hint, i, r.UUID, sized.Get(r.UUID), len(kids), len(want))
			}
		}
	}
}
