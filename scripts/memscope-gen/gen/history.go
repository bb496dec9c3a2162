package gen

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Shares of history lines by kind of paste, in per mille.
const (
	hashedPastePerMille = 100 // ~10% hashed pastes (paste-cache files)
	inlinePastePerMille = 40
	imagePastePerMille  = 10
	// missingPastePercent of distinct hashed pastes get no file (swept).
	missingPastePercent = 3
	// oldLinesPercent of the oldest lines have no sessionId.
	oldLinesPercent = 5
)

// HistoryStats is what the generator wrote to history.jsonl and the paste
// cache.
type HistoryStats struct {
	Path  string `json:"path"`
	Lines int    `json:"lines"`
	Bytes int64  `json:"bytes"`
	// HashedPastes counts paste references by hash; DistinctHashes the
	// distinct hashes among them.
	HashedPastes     int `json:"hashedPastes"`
	DistinctHashes   int `json:"distinctHashes"`
	InlinePastes     int `json:"inlinePastes"`
	ImagePastes      int `json:"imagePastes"`
	WithoutSessionID int `json:"withoutSessionId"`
	// PerProject counts lines by project path.
	PerProject map[string]int `json:"perProject"`
	// MissingHashes are referenced hashes with no paste-cache file.
	MissingHashes []string `json:"missingHashes"`
	// PasteFiles and PasteBytes cover paste-cache; OrphanPastes are files
	// no line refers to.
	PasteFiles   int   `json:"pasteFiles"`
	PasteBytes   int64 `json:"pasteBytes"`
	OrphanPastes int   `json:"orphanPastes"`
}

// historyProject is what history lines need to know about a project.
type historyProject struct {
	path     string
	sessions []string
}

func pasteHash(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:8])
}

// writeHistory writes history.jsonl with n lines spread over the projects,
// oldest first, and the paste-cache files its hashed pastes refer to.
func writeHistory(home string, n int, projects []historyProject, start time.Time, seed uint64) (HistoryStats, error) {
	r := rand.New(rand.NewPCG(seed, 0x4157))
	st := HistoryStats{Path: "history.jsonl", PerProject: map[string]int{}, MissingHashes: []string{}}
	f, err := os.OpenFile(filepath.Join(home, "history.jsonl"), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return st, fmt.Errorf("create history: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	cacheDir := filepath.Join(home, "paste-cache")
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		return st, fmt.Errorf("create %s: %w", cacheDir, err)
	}
	hashes := map[string]bool{}
	var recent []string
	ts := start
	var werr error
	storePaste := func(content string, at time.Time) {
		p := filepath.Join(cacheDir, pasteHash(content)+".txt")
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil && werr == nil {
			werr = err
		}
		if err := os.Chtimes(p, at, at); err != nil && werr == nil {
			werr = err
		}
		st.PasteFiles++
		st.PasteBytes += int64(len(content))
	}
	writePaste := func(content string, at time.Time) {
		h := pasteHash(content)
		if hashes[h] {
			return
		}
		hashes[h] = true
		if r.IntN(100) < missingPastePercent {
			st.MissingHashes = append(st.MissingHashes, h)
			return
		}
		storePaste(content, at)
	}
	var line strings.Builder
	for i := 0; i < n; i++ {
		ts = ts.Add(time.Duration(1+r.IntN(90)) * time.Second)
		p := projects[r.IntN(len(projects))]
		display := sentence(r, 3+r.IntN(25))
		pastes := "{}"
		switch k := r.IntN(1000); {
		case k < hashedPastePerMille:
			content := plainText(r, 1100+r.IntN(5000))
			if len(recent) > 0 && r.IntN(10) == 0 {
				content = recent[r.IntN(len(recent))]
			}
			recent = append(recent[max(0, len(recent)-20):], content)
			h := pasteHash(content)
			writePaste(content, ts)
			display = placeholder("Pasted text", 1, strings.Count(content, "\n")) + " " + display
			pastes = fmt.Sprintf(`{"1":{"id":1,"type":"text","contentHash":"%s"}}`, h)
			st.HashedPastes++
		case k < hashedPastePerMille+inlinePastePerMille:
			content := plainText(r, 20+r.IntN(1000))
			display = display + " " + placeholder("Pasted text", 1, strings.Count(content, "\n"))
			pastes = fmt.Sprintf(`{"1":{"id":1,"type":"text","content":"%s"}}`, jsonEscape(content))
			st.InlinePastes++
		case k < hashedPastePerMille+inlinePastePerMille+imagePastePerMille:
			display = "[Image #1] " + display
			pastes = fmt.Sprintf(`{"1":{"id":1,"type":"image","content":"%s","mediaType":"image/png","filename":"screenshot-%d.png"}}`, randHex(r, 64), i)
			st.ImagePastes++
		}
		line.Reset()
		fmt.Fprintf(&line, `{"display":"%s","pastedContents":%s,"timestamp":%d,"project":"%s"`, jsonEscape(display), pastes, ts.UnixMilli(), jsonEscape(p.path))
		if i < n*oldLinesPercent/100 || len(p.sessions) == 0 {
			st.WithoutSessionID++
		} else {
			fmt.Fprintf(&line, `,"sessionId":"%s"`, p.sessions[r.IntN(len(p.sessions))])
		}
		line.WriteString("}\n")
		w.WriteString(line.String())
		st.Bytes += int64(line.Len())
		st.Lines++
		st.PerProject[p.path]++
	}
	// A few files nobody refers to any more (their lines were never
	// written, or pasted in a -p run).
	for i := 0; i < max(1, n/2000); i++ {
		storePaste("orphan paste "+plainText(r, 1100+r.IntN(2000)), ts)
		st.OrphanPastes++
	}
	st.DistinctHashes = len(hashes)
	if err := w.Flush(); err != nil && werr == nil {
		werr = err
	}
	if err := f.Close(); err != nil && werr == nil {
		werr = err
	}
	if werr != nil {
		return st, fmt.Errorf("write history: %w", werr)
	}
	return st, nil
}

// placeholder renders "[<kind> #id +M lines]" with "+M lines" left out
// when M is 0, as the client writes it.
func placeholder(kind string, id, lines int) string {
	if lines == 0 {
		return fmt.Sprintf("[%s #%d]", kind, id)
	}
	return fmt.Sprintf("[%s #%d +%d lines]", kind, id, lines)
}
