package gen

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"time"
)

// Context and compaction figures of the synthetic sessions. They are
// chosen so a session of the standard workload (about 3.3 MB) compacts
// several times, as a heavy real session does.
const (
	// compactAt is the context size (tokens) that triggers compaction,
	// varied by ±compactJitter.
	compactAt     = 150_000
	compactJitter = 15_000
	// microcompactFrom is the context size above which a microcompaction
	// may happen first; it saves microSaveMin.. tokens.
	microcompactFrom = 100_000
	microSaveMin     = 20_000
	// largeToolResult is where a tool result is saved to a file instead.
	largeToolResult = 50_000
	// previewBytes is the preview kept in the transcript for such results.
	previewBytes = 2000
	// syntheticHome is where the generated home pretends to live, beside
	// the synthetic project paths; absolute paths written into records use
	// it, so the output does not depend on -out.
	syntheticHome = "/home/dev/.claude"
)

// sessionPlan is one session to write, fixed before any writing so the
// output does not depend on scheduling.
type sessionPlan struct {
	Home  string
	Slug  string
	SID   string
	CWD   string
	Start time.Time
	// Budget is the bytes to write for this session (main transcript and
	// subagents together).
	Budget int64
	Seed   [2]uint64
}

// sessionResult is what writing one session produced.
type sessionResult struct {
	Main      TranscriptStats
	Subagents []TranscriptStats
	Err       error
}

// trackedFile is a file the session edits, for file-history records.
type trackedFile struct {
	rel     string
	abs     string
	version int
	absent  bool
	changed bool
}

type sessionGen struct {
	plan       sessionPlan
	r          *rand.Rand
	t          *transcriptWriter
	res        *sessionResult
	ctx        int64
	sinceReq   int64
	threshold  int64
	cumDropped int64
	cached     bool
	fresh      bool
	prompt     int
	recent     []string
	userUUID   string
	edits      []string
	tracked    map[string]*trackedFile
	trackOrder []string
	sidechain  bool
	subagents  bool
}

// writeSession writes one session's transcript, subagent transcripts,
// tool-result files and file-history backups.
func writeSession(plan sessionPlan) sessionResult {
	res := sessionResult{Main: TranscriptStats{Kind: "main", SessionID: plan.SID, CWD: plan.CWD}}
	r := rand.New(rand.NewPCG(plan.Seed[0], plan.Seed[1]))
	t, err := newTranscriptWriter(plan.Home, path.Join("projects", plan.Slug, plan.SID+".jsonl"), r, &res.Main, plan.Start)
	if err != nil {
		res.Err = err
		return res
	}
	g := &sessionGen{plan: plan, r: r, t: t, res: &res, cached: r.IntN(5) > 0, fresh: true, tracked: map[string]*trackedFile{},
		sidechain: r.IntN(10) == 0, subagents: r.IntN(3) == 0}
	g.threshold = g.newThreshold()
	if r.IntN(10) < 4 {
		for i, n := 0, 1+r.IntN(4); i < n; i++ {
			g.edits = append(g.edits, fmt.Sprintf("src/%s/%s_%d.go", words[r.IntN(len(words))], words[r.IntN(len(words))], i))
		}
		g.edits = append(g.edits, "README.md")
	}
	t.meta("mode", `"mode":"normal"`)
	t.meta("permission-mode", `"permissionMode":"auto"`)
	for t.err == nil && res.Main.Bytes+g.subagentBytes() < plan.Budget {
		g.turn()
	}
	t.meta("cost-state", fmt.Sprintf(`"totalCostUSD":%.4f,"totalAPIDuration":%d,"totalDuration":%d,"startTime":%d`,
		float64(res.Main.Usage.OutputTokens)/20000, r.IntN(900000), r.IntN(9000000), plan.Start.UnixMilli()))
	if err := t.close(); err != nil && res.Err == nil {
		res.Err = err
	}
	return res
}

func (g *sessionGen) subagentBytes() int64 {
	var n int64
	for _, s := range g.res.Subagents {
		n += s.Bytes
	}
	return n
}

func (g *sessionGen) newThreshold() int64 {
	return compactAt - compactJitter + g.r.Int64N(2*compactJitter)
}

// turn writes one user prompt and everything it leads to.
func (g *sessionGen) turn() {
	t, r := g.t, g.r
	if g.ctx >= g.threshold {
		g.compact(r.IntN(100) < 15 && len(g.recent) >= 2)
		g.threshold = g.newThreshold()
	} else if g.ctx > microcompactFrom && r.IntN(100) < 12 {
		g.microcompact()
	}
	g.prompt++
	g.userUUID = newUUID(r)
	ts := t.tick(20*time.Second, 8*time.Minute)
	g.snapshot(ts)
	text := g.promptText()
	t.chain("user", "", g.userUUID, fmt.Sprintf(`"promptId":"%s","message":{"role":"user","content":"%s"},"permissionMode":"auto","origin":{"kind":"human"},"promptSource":"typed","turnOrigin":"human","turnPosition":{"promptIndex":%d,"turnIndex":1}`,
		newUUID(r), text, g.prompt), ts)
	g.remember(g.userUUID)
	g.grow(int64(len(text)) / 4)
	g.attachments()
	steps := r.IntN(5)
	for i := 0; i <= steps; i++ {
		g.request(i == steps)
	}
	t.chain("system", "turn_duration", newUUID(r), fmt.Sprintf(`"durationMs":%d,"messageCount":%d,"isMeta":false`, 200+r.IntN(300000), 4+2*steps), t.tick(time.Millisecond, time.Second))
	if g.sidechain && g.prompt%7 == 3 {
		g.inlineSidechain()
	}
	last := text
	if len(last) > 200 {
		last = strings.TrimRight(last[:200], `\`)
	}
	t.meta("last-prompt", fmt.Sprintf(`"lastPrompt":"%s","leafUuid":"%s"`, last, t.parent))
	switch {
	case g.prompt == 1:
		t.meta("ai-title", fmt.Sprintf(`"aiTitle":"%s"`, sentence(r, 4)))
	case r.IntN(20) == 0:
		t.metaAt("queue-operation", fmt.Sprintf(`"operation":"enqueue","content":"%s"`, sentence(r, 6)), t.now)
	case r.IntN(40) == 0:
		t.meta("custom-title", fmt.Sprintf(`"customTitle":"%s"`, sentence(r, 3)))
	}
}

func (g *sessionGen) remember(uuid string) {
	g.recent = append(g.recent, uuid)
	if len(g.recent) > 8 {
		g.recent = g.recent[len(g.recent)-8:]
	}
}

// grow adds tokens to the context and to what the next request sends new.
func (g *sessionGen) grow(tokens int64) {
	g.ctx += tokens
	g.sinceReq += tokens
}

func (g *sessionGen) promptText() string {
	r := g.r
	text := sentence(r, 5+r.IntN(40))
	if r.IntN(10) == 0 {
		id := randHex(r, 8)
		text += fmt.Sprintf(`\n\n<pasted_content id=\"%s\">\n%s\n</pasted_content id=\"%s\">`, id, jsonEscape(plainText(r, 200+r.IntN(4000))), id)
	}
	return text
}

// attachment writes one attachment record whose rendered text is about
// size bytes and adds it to the context.
func (g *sessionGen) attachment(typ, fields string, size int) {
	body := fmt.Sprintf(`"attachment":{"type":"%s"%s},"rendered":[{"content":"%s"}],"renderedRole":"system"`, typ, fields, filler(g.r, size))
	uuid := newUUID(g.r)
	g.t.chain("attachment", "", uuid, body, g.t.tick(0, 5*time.Millisecond))
	g.remember(uuid)
	g.grow(int64(size) / 4)
}

func (g *sessionGen) attachments() {
	r := g.r
	if g.fresh {
		g.attachment("environment", fmt.Sprintf(`,"snapshot":{"workingDirectory":"%s","isGitRepo":true,"platform":"linux","shell":"bash"}`, jsonEscape(g.plan.CWD)), 800+r.IntN(400))
		g.attachment("model", `,"identity":{"modelId":"`+g.t.model+`"}`, 300+r.IntN(200))
		g.attachment("skill_listing", fmt.Sprintf(`,"skillCount":%d,"isInitial":true`, 5+r.IntN(15)), 6000+r.IntN(8000))
		g.attachment("instructions", fmt.Sprintf(`,"files":[{"path":"%s/CLAUDE.md","type":"Project","content":"%s"}]`, jsonEscape(g.plan.CWD), filler(r, 100+r.IntN(400))), 20000+r.IntN(35000))
		g.attachment("date", `,"date":"2026-11-22"`, 60)
		g.attachment("prompt_snapshot", `,"reminderFold":false`, 30000+r.IntN(30000))
		return
	}
	if r.IntN(10) < 4 {
		g.attachment("session_context", `,"context":{"gitStatus":"clean"}`, 300+r.IntN(600))
	}
	if r.IntN(10) < 3 {
		g.attachment("prompt_snapshot", `,"reminderFold":false`, 20000+r.IntN(40000))
	}
}
