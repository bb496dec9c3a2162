// Package chaos is a test writer that behaves like Claude Code on a home
// while memscope reads it: it appends to history.jsonl and a session
// transcript at a high rate (whole lines in one O_APPEND write each, and
// now and then a line split over two writes with a pause between, as a
// writer under load does), writes paste-cache files, and replaces memory
// files and MEMORY.md by atomic rename. It counts exactly what it wrote,
// independently of memscope's own readers, so tests can compare.
//
// It imports nothing from memscope: the counts must not come from the
// code under test.
package chaos

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Config says where and how the writer writes.
type Config struct {
	// Home is the Claude home ($CLAUDE_CONFIG_DIR).
	Home string
	// Project is the startup directory of the simulated session (the
	// history "project" and the transcripts' cwd); its slug names the
	// project folder.
	Project string
	// SessionID names the transcript.
	SessionID string
	// Seed makes a run reproducible.
	Seed uint64
	// SplitEvery splits every Nth appended line over two writes (0: never).
	SplitEvery int
	// SplitPause is the pause between the two halves of a split line.
	SplitPause time.Duration
	// Topics is how many distinct memory topic files the writer keeps
	// replacing (at least 1).
	Topics int
	// Pause is the pause after each step (0: as fast as it can).
	Pause time.Duration
	// MaxSteps stops Run after this many steps (0: only stop does).
	MaxSteps int
	// BetweenHalves, when set, runs between the two writes of a split
	// line, with the file's path and the bytes still to come: a test
	// reads the home there to see a partial last line for certain.
	BetweenHalves func(path string, rest []byte)
}

// Usage is a token usage total, counted once per message.id+requestId.
type Usage struct {
	Input         int64 `json:"input"`
	Output        int64 `json:"output"`
	CacheCreation int64 `json:"cacheCreation"`
	CacheRead     int64 `json:"cacheRead"`
}

// Counts is exactly what the writer wrote.
type Counts struct {
	Steps int `json:"steps"`
	// HistoryLines is the number of lines in history.jsonl.
	HistoryLines int `json:"historyLines"`
	// TranscriptRecords is the number of lines in the transcript.
	TranscriptRecords int `json:"transcriptRecords"`
	// Responses is the number of distinct message.id+requestId pairs.
	Responses int `json:"responses"`
	// Usage is the usage of those responses, each counted once.
	Usage Usage `json:"usage"`
	// PasteFiles is the number of distinct paste-cache files.
	PasteFiles int `json:"pasteFiles"`
	// PasteRefs is the number of history pastes that point at the cache.
	PasteRefs int `json:"pasteRefs"`
	// MemoryFiles is the number of topic files in the memory folder.
	MemoryFiles int `json:"memoryFiles"`
	// MemoryReplacements counts atomic renames over memory files and MEMORY.md.
	MemoryReplacements int `json:"memoryReplacements"`
	// IndexEntries is the number of entries MEMORY.md lists.
	IndexEntries int `json:"indexEntries"`
	// SplitLines counts lines that went out in two writes.
	SplitLines int `json:"splitLines"`
}

// Writer writes a home like Claude Code does. Safe for one goroutine;
// Counts may be read from another.
type Writer struct {
	cfg       Config
	rng       *rand.Rand
	transPath string
	histPath  string
	memDir    string
	pasteDir  string

	clock    time.Time
	lastUUID string
	seq      int
	lines    int

	mu     sync.Mutex
	counts Counts
	topics map[string]bool
	pastes map[string]bool
}

// Slug is Claude Code's project folder name for a path: every character
// outside [A-Za-z0-9] becomes "-" (short paths only; the writer never
// makes long ones).
func Slug(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
			if r > 0xFFFF {
				b.WriteByte('-') // two UTF-16 units
			}
		}
	}
	return b.String()
}

// New makes the folders and returns a writer. Nothing is written yet.
func New(cfg Config) (*Writer, error) {
	if cfg.Home == "" || cfg.Project == "" {
		return nil, errors.New("chaos: Home and Project are required")
	}
	if cfg.SessionID == "" {
		cfg.SessionID = "c4a05c4a-0000-4000-8000-000000000001"
	}
	if cfg.Topics < 1 {
		cfg.Topics = 1
	}
	proj := filepath.Join(cfg.Home, "projects", Slug(cfg.Project))
	w := &Writer{
		cfg:       cfg,
		rng:       rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		transPath: filepath.Join(proj, cfg.SessionID+".jsonl"),
		histPath:  filepath.Join(cfg.Home, "history.jsonl"),
		memDir:    filepath.Join(proj, "memory"),
		pasteDir:  filepath.Join(cfg.Home, "paste-cache"),
		clock:     time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC),
		topics:    map[string]bool{},
		pastes:    map[string]bool{},
	}
	for _, d := range []string{proj, w.memDir, w.pasteDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("chaos: %w", err)
		}
	}
	return w, nil
}

// TranscriptPath is the transcript the writer appends to.
func (w *Writer) TranscriptPath() string { return w.transPath }

// MemoryDir is the memory folder the writer replaces files in.
func (w *Writer) MemoryDir() string { return w.memDir }

// Counts returns what was written so far (complete writes only: a step
// is counted after its last byte is on disk).
func (w *Writer) Counts() Counts {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.counts
}

// Run steps until stop is closed (or MaxSteps), then returns the counts.
func (w *Writer) Run(stop <-chan struct{}) (Counts, error) {
	for i := 0; w.cfg.MaxSteps == 0 || i < w.cfg.MaxSteps; i++ {
		select {
		case <-stop:
			return w.Counts(), nil
		default:
		}
		if err := w.Step(); err != nil {
			return w.Counts(), err
		}
		if w.cfg.Pause > 0 {
			time.Sleep(w.cfg.Pause)
		}
	}
	return w.Counts(), nil
}

// RunN takes n steps.
func (w *Writer) RunN(n int) (Counts, error) {
	for i := 0; i < n; i++ {
		if err := w.Step(); err != nil {
			return w.Counts(), err
		}
	}
	return w.Counts(), nil
}

// Step does one thing Claude Code does: mostly a prompt (history line,
// user record, an assistant response of one or two lines), sometimes a
// paste, sometimes a memory write.
func (w *Writer) Step() error {
	w.seq++
	var err error
	switch r := w.rng.IntN(10); {
	case r < 6:
		err = w.turn("")
	case r < 7:
		err = w.pasteTurn()
	case r < 9:
		err = w.writeTopic()
	default:
		err = w.writeIndex()
	}
	w.mu.Lock()
	w.counts.Steps++
	w.mu.Unlock()
	return err
}

func (w *Writer) tick() time.Time {
	w.clock = w.clock.Add(time.Duration(1+w.rng.IntN(900)) * time.Millisecond)
	return w.clock
}

// prose is text with multi-byte characters, so split writes can cut a
// character in half.
func (w *Writer) prose(n int) string {
	words := []string{"memory", "naïve", "日本語", "café", "résumé", "tokens", "🙂", "compact", "index", "Ωmega"}
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[w.rng.IntN(len(words))])
	}
	return b.String()
}

func (w *Writer) uuid() string {
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", w.rng.Uint32(), w.rng.IntN(1<<16), w.rng.IntN(1<<12), w.rng.IntN(1<<12), w.rng.Uint64()&(1<<48-1))
}

// turn writes a prompt: history line (with pasted, if any), user record,
// then an assistant response in one or two lines with the same ids.
func (w *Writer) turn(pasted string) error {
	prompt := w.prose(20 + w.rng.IntN(200))
	hist := map[string]any{
		"display":   prompt,
		"timestamp": w.tick().UnixMilli(),
		"project":   w.cfg.Project,
		"sessionId": w.cfg.SessionID,
	}
	if pasted != "" {
		hist["display"] = fmt.Sprintf("[Pasted text #1 +%d lines] %s", strings.Count(pasted, "\n"), prompt)
		hist["pastedContents"] = map[string]any{"1": map[string]any{"id": 1, "type": "text", "contentHash": pasteHash(pasted)}}
	}
	if err := w.appendJSON(w.histPath, hist, func(c *Counts) {
		c.HistoryLines++
		if pasted != "" {
			c.PasteRefs++
		}
	}); err != nil {
		return err
	}
	userUUID := w.uuid()
	user := w.chain("user", userUUID)
	user["message"] = map[string]any{"role": "user", "content": prompt}
	if err := w.appendJSON(w.transPath, user, func(c *Counts) { c.TranscriptRecords++ }); err != nil {
		return err
	}
	msgID := fmt.Sprintf("msg_chaos%08d", w.seq)
	reqID := fmt.Sprintf("req_chaos%08d", w.seq)
	u := Usage{Input: int64(1 + w.rng.IntN(50)), Output: int64(1 + w.rng.IntN(900)), CacheCreation: int64(w.rng.IntN(5000)), CacheRead: int64(w.rng.IntN(90000))}
	parts := 1 + w.rng.IntN(2)
	for i := 0; i < parts; i++ {
		a := w.chain("assistant", w.uuid())
		a["requestId"] = reqID
		a["message"] = map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
			"content":     []any{map[string]any{"type": "text", "text": w.prose(40 + w.rng.IntN(400))}},
			"stop_reason": nil,
			"usage": map[string]any{
				"input_tokens": u.Input, "output_tokens": u.Output,
				"cache_creation_input_tokens": u.CacheCreation, "cache_read_input_tokens": u.CacheRead,
			},
		}
		first := i == 0
		if err := w.appendJSON(w.transPath, a, func(c *Counts) {
			c.TranscriptRecords++
			if first {
				c.Responses++
				c.Usage.Input += u.Input
				c.Usage.Output += u.Output
				c.Usage.CacheCreation += u.CacheCreation
				c.Usage.CacheRead += u.CacheRead
			}
		}); err != nil {
			return err
		}
	}
	return nil
}

// chain is the common part of a chain record, linked to the previous one.
func (w *Writer) chain(typ, id string) map[string]any {
	rec := map[string]any{
		"parentUuid":  nil,
		"isSidechain": false,
		"userType":    "external",
		"cwd":         w.cfg.Project,
		"sessionId":   w.cfg.SessionID,
		"version":     "2.1.330",
		"gitBranch":   "main",
		"type":        typ,
		"uuid":        id,
		"timestamp":   w.tick().Format("2006-01-02T15:04:05.000Z"),
	}
	if w.lastUUID != "" {
		rec["parentUuid"] = w.lastUUID
	}
	w.lastUUID = id
	return rec
}

func pasteHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:16]
}

// pasteTurn writes a paste over 1024 characters to the cache (in place,
// not by rename: a reader may see it half written), before the history
// line that points at it, then the turn.
func (w *Writer) pasteTurn() error {
	var b strings.Builder
	for b.Len() <= 1100 {
		b.WriteString(w.prose(60))
		b.WriteByte('\n')
	}
	text := b.String()
	h := pasteHash(text)
	if err := os.WriteFile(filepath.Join(w.pasteDir, h+".txt"), []byte(text), 0o600); err != nil {
		return fmt.Errorf("chaos: write paste: %w", err)
	}
	w.mu.Lock()
	if !w.pastes[h] {
		w.pastes[h] = true
		w.counts.PasteFiles++
	}
	w.mu.Unlock()
	return w.turn(text)
}

// topicName is the file name of topic i.
func topicName(i int) string { return fmt.Sprintf("chaos_topic_%03d.md", i) }

// writeTopic replaces (or creates) one topic file by temp + rename, with
// the frontmatter the client writes.
func (w *Writer) writeTopic() error {
	i := w.rng.IntN(w.cfg.Topics)
	name := topicName(i)
	types := []string{"user", "feedback", "project", "reference"}
	body := fmt.Sprintf("---\nname: chaos-topic-%03d\ndescription: Chaos topic %d, revision %d\nmetadata:\n  node_type: memory\n  type: %s\n  originSessionId: %s\n  modified: %s\n---\n\n%s\n",
		i, i, w.seq, types[i%len(types)], w.cfg.SessionID, w.tick().Format("2006-01-02T15:04:05.000Z"), w.prose(80+w.rng.IntN(400)))
	if err := replaceFile(filepath.Join(w.memDir, name), []byte(body), w.seq); err != nil {
		return err
	}
	w.mu.Lock()
	if !w.topics[name] {
		w.topics[name] = true
		w.counts.MemoryFiles++
	}
	w.counts.MemoryReplacements++
	w.mu.Unlock()
	return nil
}

// writeIndex replaces MEMORY.md with one entry per topic file written so
// far, the way the model rewrites the index.
func (w *Writer) writeIndex() error {
	w.mu.Lock()
	n := 0
	var b strings.Builder
	for i := 0; i < w.cfg.Topics; i++ {
		if name := topicName(i); w.topics[name] {
			fmt.Fprintf(&b, "- [Chaos topic %d](%s) — revision %d\n", i, name, w.seq)
			n++
		}
	}
	w.mu.Unlock()
	if err := replaceFile(filepath.Join(w.memDir, "MEMORY.md"), []byte(b.String()), w.seq); err != nil {
		return err
	}
	w.mu.Lock()
	w.counts.IndexEntries = n
	w.counts.MemoryReplacements++
	w.mu.Unlock()
	return nil
}

// replaceFile writes data to a temporary file beside path and renames it
// over path, the way Claude Code saves memory files. The temporary
// name does not end in .md, so no reader takes it for a memory file.
func replaceFile(path string, data []byte, seq int) error {
	tmp := fmt.Sprintf("%s.tmp.%d.%d", path, os.Getpid(), seq)
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("chaos: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("chaos: rename %s: %w", path, err)
	}
	return nil
}

// appendJSON appends v as one line. Usually one write with O_APPEND; every
// SplitEvery-th line goes out in two writes with a pause between, cut at
// a random byte (possibly inside a UTF-8 character). count runs once the
// whole line is on disk.
func (w *Writer) appendJSON(path string, v any, count func(*Counts)) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("chaos: encode: %w", err)
	}
	data = append(data, '\n')
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("chaos: open %s: %w", path, err)
	}
	defer f.Close()
	w.lines++
	split := w.cfg.SplitEvery > 0 && w.lines%w.cfg.SplitEvery == 0
	if split {
		cut := 1 + w.rng.IntN(len(data)-1)
		if _, err := f.Write(data[:cut]); err != nil {
			return fmt.Errorf("chaos: append %s: %w", path, err)
		}
		if w.cfg.SplitPause > 0 {
			time.Sleep(w.cfg.SplitPause)
		}
		data = data[cut:]
		if w.cfg.BetweenHalves != nil {
			w.cfg.BetweenHalves(path, data)
		}
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("chaos: append %s: %w", path, err)
	}
	w.mu.Lock()
	count(&w.counts)
	if split {
		w.counts.SplitLines++
	}
	w.mu.Unlock()
	return nil
}
