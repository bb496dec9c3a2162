package enginetest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// RandomTranscript writes n records in a random message tree: rewinds,
// sidechains, duplicate and forward and missing parents, cycles, partial
// compactions with whole and broken preserved segments, multi-line
// responses, tool results, attachments, last-prompts, legacy summaries,
// broken lines, CRLF and a byte order mark (by seed).
func RandomTranscript(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b bytes.Buffer
	nl := "\n"
	if seed%5 == 1 {
		nl = "\r\n"
	}
	if seed%7 == 2 {
		b.WriteString("\ufeff")
	}
	var uuids []string
	uuidOf := func(i int) string {
		if rng.IntN(8) == 0 {
			return fmt.Sprintf("r%d", i)
		}
		return fmt.Sprintf("%08x-0000-4000-8000-%012x", seed, i)
	}
	q := func(s string) string {
		if s == "" {
			return "null"
		}
		return `"` + s + `"`
	}
	pick := func() string {
		if len(uuids) == 0 {
			return ""
		}
		return uuids[rng.IntN(len(uuids))]
	}
	prev, msg := "", 0
	for i := range n {
		u := uuidOf(i)
		if rng.IntN(40) == 0 && len(uuids) > 0 {
			u = pick() // a duplicate
		}
		parent := prev
		switch k := rng.IntN(40); {
		case k < 3:
			parent = pick()
		case k < 4:
			parent = uuidOf(i + 1 + rng.IntN(5)) // forward, or missing
		case k < 5:
			parent = "gone-" + u
		case k < 6:
			parent = ""
		}
		side := rng.IntN(10) == 0
		ts := fmt.Sprintf("2026-11-%02dT10:%02d:%02d.%03dZ", 1+i/1000%28, i/60%60, i%60, i%1000)
		if i%13 == 0 {
			ts = fmt.Sprintf("2026-11-01T10:00:%02d+02:00", i%60)
		}
		common := fmt.Sprintf(`"uuid":%s,"parentUuid":%s,"isSidechain":%v,"timestamp":%q,"sessionId":"s-%d","cwd":"/w"`, q(u), q(parent), side, ts, seed)
		if side {
			common += fmt.Sprintf(`,"agentId":"ag%d"`, rng.IntN(3))
		}
		var line string
		switch k := rng.IntN(100); {
		case k < 30:
			line = fmt.Sprintf(`{"type":"user",%s,"message":{"role":"user","content":"prompt %d %s"}}`, common, i, strings.Repeat("x", rng.IntN(400)))
		case k < 36:
			line = fmt.Sprintf(`{"type":"user",%s,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`, common, i, strings.Repeat("r", rng.IntN(2000)))
		case k < 70:
			if rng.IntN(3) > 0 {
				msg++
			}
			ids := fmt.Sprintf(`"requestId":"req_%d",`, msg)
			mid := fmt.Sprintf(`"id":"msg_%d",`, msg)
			if rng.IntN(15) == 0 {
				ids, mid = "", ""
			}
			call := ""
			if rng.IntN(3) == 0 {
				// a call whose result may come a few records on
				call = fmt.Sprintf(`,{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"ls %d"}}`, i+1+rng.IntN(4), i)
			}
			line = fmt.Sprintf(`{"type":"assistant",%s%s,"message":{%s"role":"assistant","model":"claude-x","content":[{"type":"text","text":"%s"}%s],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d}}}`,
				ids, common, mid, strings.Repeat("a", rng.IntN(300)), call, rng.IntN(5000), rng.IntN(900), rng.IntN(150000))
		case k < 75:
			line = fmt.Sprintf(`{"type":"attachment",%s,"attachment":{"type":"prompt_snapshot","content":"%s"}}`, common, strings.Repeat("s", rng.IntN(3000)))
		case k < 78:
			line = fmt.Sprintf(`{"type":"attachment",%s,"attachment":{"type":"nested_memory","content":"%s"}}`, common, strings.Repeat("m", rng.IntN(800)))
		case k < 84:
			seg := ""
			if rng.IntN(2) == 0 {
				seg = fmt.Sprintf(`,"preservedSegment":{"headUuid":%s,"anchorUuid":%s,"tailUuid":%s}`, q(pick()), q(uuidOf(i+1)), q(pick()))
			}
			bu, lp := u, prev
			if rng.IntN(6) == 0 {
				bu = ""
			}
			line = fmt.Sprintf(`{"type":"system","subtype":"compact_boundary","uuid":%s,"parentUuid":null,"logicalParentUuid":%s,"timestamp":%q,"sessionId":"s-%d","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":%d,"postTokens":%d%s}}`,
				q(bu), q(lp), ts, seed, 100000+rng.IntN(90000), rng.IntN(9000), seg)
			u = bu
			if u != "" {
				uuids = append(uuids, u)
				b.WriteString(line + nl)
				prev = u
				// its summary
				s := uuidOf(i + 1)
				line = fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%q,"isCompactSummary":true,"timestamp":%q,"sessionId":"s-%d","message":{"role":"user","content":"summary %s"},"summarizeMetadata":{"direction":"from"}}`, s, u, ts, seed, strings.Repeat("z", rng.IntN(900)))
				u = s
			}
		case k < 86:
			line = fmt.Sprintf(`{"type":"system","subtype":"microcompact_boundary",%s,"microcompactMetadata":{"trigger":"auto","preTokens":%d,"tokensSaved":%d}}`, common, rng.IntN(100000), rng.IntN(9000))
		case k < 92:
			leaf := pick()
			if rng.IntN(4) == 0 {
				leaf = "nowhere"
			}
			line = fmt.Sprintf(`{"type":"last-prompt","lastPrompt":"p","leafUuid":%q,"sessionId":"s-%d"}`, leaf, seed)
			u = ""
		case k < 95:
			line = fmt.Sprintf(`{"type":"api-request-blob","hash":"h%d"}`, i)
			u = ""
		case k < 97:
			line = `{"type":"user","uuid":"broken", "message": {`
			u = ""
		default:
			line = fmt.Sprintf(`{"type":"summary","summary":"old","leafUuid":%q}`, pick())
			u = ""
		}
		b.WriteString(line + nl)
		if u != "" {
			uuids = append(uuids, u)
			prev = u
		}
	}
	return b.Bytes()
}
