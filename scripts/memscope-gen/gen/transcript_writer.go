package gen

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/memscope/memscope/model"
)

// clientVersion is the version stamped on generated records.
const clientVersion = "2.1.330"

// TranscriptStats is what the generator knows it wrote to one transcript:
// the totals a reader must find. Field names follow model.TranscriptSummary.
type TranscriptStats struct {
	// Kind is "main" or "subagent".
	Kind string `json:"kind"`
	// Path is relative to the home.
	Path      string `json:"path"`
	SessionID string `json:"sessionId"`
	AgentID   string `json:"agentId,omitempty"`
	CWD       string `json:"cwd"`
	Bytes     int64  `json:"bytes"`
	Lines     int    `json:"lines"`
	// Records equals Lines: the generator writes no bad lines.
	Records  int            `json:"records"`
	Types    map[string]int `json:"types"`
	Subtypes map[string]int `json:"subtypes"`
	// CompactBoundaries counts every compact_boundary, partial ones
	// included; PartialCompactions those with a preservedSegment.
	CompactBoundaries      int `json:"compactBoundaries"`
	PartialCompactions     int `json:"partialCompactions"`
	MicrocompactBoundaries int `json:"microcompactBoundaries"`
	// Usage is summed once per message.id+requestId (Responses of them);
	// AssistantLines counts every assistant line, duplicates included.
	Usage          model.Usage `json:"usage"`
	Responses      int         `json:"responses"`
	AssistantLines int         `json:"assistantLines"`
	// SidechainRecords counts chain records with isSidechain true.
	SidechainRecords int       `json:"sidechainRecords"`
	First            time.Time `json:"first"`
	Last             time.Time `json:"last"`
	// FileHistorySnapshots and FileHistoryDeltas count those records;
	// FileHistoryBackups the backup files written for this session.
	FileHistorySnapshots int `json:"fileHistorySnapshots"`
	FileHistoryDeltas    int `json:"fileHistoryDeltas"`
	FileHistoryBackups   int `json:"fileHistoryBackups"`
	// ToolResultFiles counts large results saved beside the transcript.
	ToolResultFiles int `json:"toolResultFiles"`
}

// transcriptWriter appends records to one transcript file, keeping the
// chain (parent uuid), the clock and the stats.
type transcriptWriter struct {
	f    *os.File
	w    *bufio.Writer
	r    *rand.Rand
	st   *TranscriptStats
	line []byte
	err  error

	now       time.Time
	sid       string
	cwd       string
	branch    string
	agentID   string
	sidechain bool
	// parent is the uuid the next chain record hangs from; "" is null.
	parent string
	// seen holds message.id+requestId pairs already counted.
	seen map[string]bool
	// model is the session's model (genModel).
	model string
}

// genModels are the models sessions run on: priced by ccusage 18.0.11's
// offline table as by memscope's, so the cost parity test compares like
// with like, and all as long as the real client's claude-opus-5-5, so
// the files keep their sizes.
var genModels = [...]string{"claude-opus-4-5", "claude-opus-4-6", "claude-opus-4-1"}

// genModel picks a session's model from its id, without drawing from the
// random stream (which would change everything generated after it).
func genModel(sid string) string {
	h := fnv.New32a()
	h.Write([]byte(sid))
	return genModels[h.Sum32()%uint32(len(genModels))]
}

func newTranscriptWriter(home, rel string, r *rand.Rand, st *TranscriptStats, start time.Time) (*transcriptWriter, error) {
	p := filepath.Join(home, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", p, err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", p, err)
	}
	st.Path = rel
	st.Types = map[string]int{}
	st.Subtypes = map[string]int{}
	return &transcriptWriter{f: f, w: bufio.NewWriterSize(f, 1<<20), r: r, st: st, now: start, sid: st.SessionID, cwd: st.CWD,
		branch: "main", agentID: st.AgentID, seen: map[string]bool{}, model: genModel(st.SessionID)}, nil
}

// close flushes the file and sets its mtime to the last record's time, as
// the client's appends would have.
func (t *transcriptWriter) close() error {
	if err := t.w.Flush(); err != nil && t.err == nil {
		t.err = err
	}
	if err := t.f.Close(); err != nil && t.err == nil {
		t.err = err
	}
	if t.err == nil && !t.st.Last.IsZero() {
		t.err = os.Chtimes(t.f.Name(), t.st.Last, t.st.Last)
	}
	if t.err != nil {
		return fmt.Errorf("write %s: %w", t.f.Name(), t.err)
	}
	return nil
}

// tick advances the clock by a random step between lo and hi.
func (t *transcriptWriter) tick(lo, hi time.Duration) time.Time {
	// Records carry milliseconds; keeping the clock at that precision
	// makes the manifest's times equal to what a reader parses.
	t.now = t.now.Add(lo + time.Duration(t.r.Int64N(int64(hi-lo)+1))).Truncate(time.Millisecond)
	return t.now
}

// seenTime records a timestamp written on a line.
func (t *transcriptWriter) seenTime(ts time.Time) {
	if t.st.First.IsZero() || ts.Before(t.st.First) {
		t.st.First = ts
	}
	if ts.After(t.st.Last) {
		t.st.Last = ts
	}
}

// emit writes t.line as one record of the given type.
func (t *transcriptWriter) emit(typ, subtype string) {
	t.line = append(t.line, '\n')
	if _, err := t.w.Write(t.line); err != nil && t.err == nil {
		t.err = err
	}
	t.st.Bytes += int64(len(t.line))
	t.st.Lines++
	t.st.Records++
	t.st.Types[typ]++
	if subtype != "" {
		t.st.Subtypes[typ+"/"+subtype]++
	}
}

// meta writes a metadata record: body is the JSON members after "type".
func (t *transcriptWriter) meta(typ, body string) {
	t.line = fmt.Appendf(t.line[:0], `{"type":"%s",%s,"sessionId":"%s"}`, typ, body, t.sid)
	t.emit(typ, "")
}

// metaAt is meta for records that carry a top-level timestamp.
func (t *transcriptWriter) metaAt(typ, body string, ts time.Time) {
	t.line = fmt.Appendf(t.line[:0], `{"type":"%s",%s,"sessionId":"%s","timestamp":"%s"}`, typ, body, t.sid, isoMillis(ts))
	t.seenTime(ts)
	t.emit(typ, "")
}

// chain writes a chain record hanging from t.parent and makes it the new
// parent. body holds the record's own members (no leading or trailing
// comma); the common members are added here.
func (t *transcriptWriter) chain(typ, subtype, uuid, body string, ts time.Time) {
	b := t.line[:0]
	if t.parent == "" {
		b = append(b, `{"parentUuid":null,`...)
	} else {
		b = fmt.Appendf(b, `{"parentUuid":"%s",`, t.parent)
	}
	b = fmt.Appendf(b, `"isSidechain":%t,%s,"type":"%s",`, t.sidechain, body, typ)
	if subtype != "" {
		b = fmt.Appendf(b, `"subtype":"%s",`, subtype)
	}
	b = fmt.Appendf(b, `"uuid":"%s","timestamp":"%s","userType":"external","entrypoint":"cli","cwd":"%s","sessionId":"%s","version":"%s","gitBranch":"%s"`,
		uuid, isoMillis(ts), jsonEscape(t.cwd), t.sid, clientVersion, t.branch)
	if t.agentID != "" {
		b = fmt.Appendf(b, `,"agentId":"%s"`, t.agentID)
	}
	t.line = append(b, '}')
	t.seenTime(ts)
	if t.sidechain {
		t.st.SidechainRecords++
	}
	t.emit(typ, subtype)
	t.parent = uuid
}

// apiResponse is one API response: usage counted once however many lines
// carry it.
type apiResponse struct {
	msgID, reqID, reqRef string
	usage                model.Usage
}

// assistant writes the lines of one response, one content block per line
// as the client does (so several lines share message.id and requestId),
// and counts its usage once. stop is the response's stop_reason.
func (t *transcriptWriter) assistant(resp apiResponse, blocks []string, stop string) {
	for i, block := range blocks {
		u := resp.usage
		body := fmt.Sprintf(`"message":{"id":"%s","type":"message","role":"assistant","model":"%s","content":[%s],"stop_reason":"%s","stop_sequence":null,"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d,"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":%d}}},"apiBlockIndex":%d,"requestId":"%s","requestRef":"%s","requestedModel":"%s","promptCacheRequested":"5m","effort":"medium","madeBy":"model"`,
			resp.msgID, t.model, block, stop, u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens, u.CacheCreationInputTokens, i, resp.reqID, resp.reqRef, t.model)
		t.chain("assistant", "", newUUID(t.r), body, t.tick(time.Millisecond, 40*time.Millisecond))
		t.st.AssistantLines++
	}
	key := resp.msgID + "\x00" + resp.reqID
	if !t.seen[key] {
		t.seen[key] = true
		t.st.Responses++
		t.st.Usage.InputTokens += resp.usage.InputTokens
		t.st.Usage.OutputTokens += resp.usage.OutputTokens
		t.st.Usage.CacheCreationInputTokens += resp.usage.CacheCreationInputTokens
		t.st.Usage.CacheReadInputTokens += resp.usage.CacheReadInputTokens
	}
}
