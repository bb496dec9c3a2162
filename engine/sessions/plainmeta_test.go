package sessions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memscope/memscope/model"
)

// The metadata of compaction boundaries as the client writes them (the
// shapes of the bench home's), and a few more.
var plainMetaSeeds = []string{
	`{"trigger":"auto","preTokens":167021,"preCompactOrganizationsCoverStart":false,"durationMs":80713,"postTokens":9911,"cumulativeDroppedTokens":0}`,
	`{"trigger":"manual","preTokens":52000,"preCompactOrganizationsCoverStart":false}`,
	`{"trigger":"manual","preTokens":1,"preservedSegment":{"headUuid":"a","anchorUuid":"b","tailUuid":"c"}}`,
	`{"trigger":"auto","preTokens":90210,"tokensSaved":12000,"compactedToolIds":["toolu_01","toolu_02"],"clearedAttachmentUUIDs":[]}`,
	`{"trigger":null,"preTokens":null,"messagesSummarized":-0,"compactedToolIds":null}`,
	`{}`, `null`, `[]`, `{"trigger":"a\u0041"}`, `{"preTokens":1.5}`, `{"preTokens":1e3}`, `{"preTokens":012}`,
	`{"preTokens":99999999999999999999}`, `{"PreTokens":"x"}`, `{"preTokens":"x"}`, `{"trigger":5}`,
	`{"trigger":"auto" }`, `{"trigger":"auto",}`, `{"compactedToolIds":["a",]}`, `{"compactedToolIds":[1]}`,
	`{"preCompactOrganizationsCoverStart":0}`, `{"trigger":"auto"}x`, `{"trigger":"auto"`,
}

// plainMetaAgrees fails t when plainMeta says b decodes and json.Unmarshal
// into the struct says it does not.
func plainMetaAgrees(t *testing.T, b []byte) {
	t.Helper()
	if plainMeta(b, compactMetaKind) {
		if err := json.Unmarshal(b, new(model.CompactMetadata)); err != nil {
			t.Fatalf("plainMeta accepts %q as compact metadata; json.Unmarshal: %v", b, err)
		}
	}
	if plainMeta(b, microcompactMetaKind) {
		if err := json.Unmarshal(b, new(model.MicrocompactMetadata)); err != nil {
			t.Fatalf("plainMeta accepts %q as microcompact metadata; json.Unmarshal: %v", b, err)
		}
	}
}

// TestPlainMetaAccepts: the client's usual metadata is answered without
// json.Unmarshal.
func TestPlainMetaAccepts(t *testing.T) {
	for _, s := range []string{plainMetaSeeds[0], plainMetaSeeds[1], `{}`, `{"trigger":null,"preTokens":null,"messagesSummarized":-0}`} {
		if !plainMeta([]byte(s), compactMetaKind) {
			t.Errorf("plainMeta(%s) as compact metadata: false, want true", s)
		}
	}
	if s := plainMetaSeeds[3]; !plainMeta([]byte(s), microcompactMetaKind) {
		t.Errorf("plainMeta(%s) as microcompact metadata: false, want true", s)
	}
	for _, s := range plainMetaSeeds[5:] {
		if s != `{}` && (plainMeta([]byte(s), compactMetaKind) || plainMeta([]byte(s), microcompactMetaKind)) {
			t.Errorf("plainMeta(%s): true, want false (json.Unmarshal's to answer)", s)
		}
	}
}

// TestPlainMetaAgrees holds plainMeta to json.Unmarshal over a generated
// corpus: the seeds with each byte deleted, replaced or followed by each
// of the bytes that matter to the grammar.
func TestPlainMetaAgrees(t *testing.T) {
	bytesOf := []byte("{}[]\",:\\ -0123456789.eE+ntrufalsxT\x00\x1f\x7f\xff")
	for _, s := range plainMetaSeeds {
		b := []byte(s)
		plainMetaAgrees(t, b)
		for i := range b {
			plainMetaAgrees(t, append(append([]byte{}, b[:i]...), b[i+1:]...))
			for _, c := range bytesOf {
				m := append([]byte{}, b...)
				m[i] = c
				plainMetaAgrees(t, m)
				plainMetaAgrees(t, append(append(append([]byte{}, b[:i]...), c), b[i:]...))
			}
		}
	}
}

func FuzzPlainMeta(f *testing.F) {
	for _, s := range plainMetaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(plainMetaAgrees)
}

// TestPlainMetaIntFitsTheInt: the longest integer plainMeta takes
// decodes into the metadata's *int on this platform, and one digit more
// is left to json.Unmarshal (a 32-bit int refuses 18 digits).
func TestPlainMetaIntFitsTheInt(t *testing.T) {
	longest := `{"preTokens":` + strings.Repeat("9", maxIntDigits) + `}`
	if !plainMeta([]byte(longest), compactMetaKind) {
		t.Fatalf("plainMeta refuses %s", longest)
	}
	if err := json.Unmarshal([]byte(longest), new(model.CompactMetadata)); err != nil {
		t.Fatalf("plainMeta takes %s, json.Unmarshal refuses it: %v", longest, err)
	}
	over := `{"preTokens":` + strings.Repeat("9", maxIntDigits+1) + `}`
	if plainMeta([]byte(over), compactMetaKind) {
		t.Fatalf("plainMeta takes %s (%d digits, over maxIntDigits)", over, maxIntDigits+1)
	}
}
