package ledger

import (
	"bytes"
	"fmt"
	"io/fs"
	"time"

	"github.com/memscope/memscope/engine/diskcache"
	"github.com/memscope/memscope/internal/jsonscan"
	"github.com/memscope/memscope/model"
)

// newestKind names, in memscope's cache, each transcript's newest
// compaction time (HomeSince).
const newestKind = "ledger-newest.1"

// newest is what HomeSince keeps of one transcript: whether a line
// names a compact boundary, the newest time such a line carries, and
// whether one carries no time it can read (then the file is read whole).
type newest struct {
	Has     bool
	Newest  time.Time
	Unknown bool
	err     error
}

// HomeSince is Home for the boundaries at or after since: the ledger of
// every transcript one of whose compact boundaries is that recent (a
// boundary's Time is its record's timestamp, which is what the raw pass
// reads from each line naming a boundary). The others are not decoded:
// on a home of old sessions the Overview's dropped line reads each
// transcript once, raw, on a cold start, and nothing on a warm one (each
// file's newest boundary time is kept in cache by stat's rule). What it
// returns holds every boundary of Home's at or after since, with the
// other boundaries of the same files.
func HomeSince(home fs.FS, homeDir string, cache *diskcache.Store, since time.Time) ([]Session, []model.Problem) {
	files, probs := model.FindTranscripts(home)
	res := perFile(home, homeDir, cache, newestKind, files, nil, func(name string, _ *[]byte) newest {
		var sc jsonscan.Scanner
		return newestBoundary(home, name, &sc)
	}, func(n newest) bool { return n.err == nil })
	var read, skipped []model.TranscriptFile
	for i, f := range files {
		n := res[i]
		switch {
		case n.err != nil:
			probs = append(probs, model.EntryProblem(f.Path, n.err))
		case n.Has && (n.Unknown || !n.Newest.Before(since)):
			read = append(read, f)
		default:
			skipped = append(skipped, f)
		}
	}
	return homeOf(home, homeDir, cache, read, probs, skipped)
}

// newestBoundary reads one transcript raw for the lines naming a compact
// boundary and the newest timestamp among them.
func newestBoundary(home fs.FS, name string, sc *jsonscan.Scanner) newest {
	var n newest
	f, err := model.OpenRegular(home, name)
	if err != nil {
		n.err = fmt.Errorf("open transcript %s: %w", name, err)
		return n
	}
	defer f.Close()
	lr := model.NewLineReader(f)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		n.line(line, sc)
	}
	if err := lr.Err(); err != nil {
		n.err = fmt.Errorf("read transcript %s: %w", name, err)
	}
	return n
}

// compactFinder finds compactMark from its rare '_' on (most lines have
// none: passed over at memchr's speed).
var compactFinder = jsonscan.NewFinder(string(compactMark))

// line reads one line of the transcript (newestBoundary's, and the
// shared pass's: Feed).
func (n *newest) line(line model.Line, sc *jsonscan.Scanner) {
	if line.TooLong {
		// Not read here: the file is read whole, whatever it holds.
		n.Has, n.Unknown = true, true
		return
	}
	if !compactFinder.In(line.Bytes) {
		return
	}
	n.Has = true
	var ts []byte
	_ = sc.Line(line.Bytes, func(key []byte, v, depth int) (int, error) {
		end, err := sc.Value(v, depth)
		if err == nil && string(key) == "timestamp" {
			ts = sc.Bytes()[v:end]
		}
		return end, err
	})
	n.boundary(ts)
}

// boundary notes a line naming a compact boundary whose timestamp
// member's raw value is ts (nil when it has none).
func (n *newest) boundary(ts []byte) {
	t, ok := model.ParseTimestamp(ts)
	if !ok {
		n.Unknown = true
		return
	}
	if t.After(n.Newest) {
		n.Newest = t
	}
}

// lineTop is line for a line that was one valid JSON object, from its
// top-level members subtype and timestamp (the last of each; nil when
// absent): a line names a compact boundary when its subtype
// member (the last, as Home's decoder reads a member written twice)
// holds compactMark, which is where a boundary record (system,
// subtype compact_boundary or microcompact_boundary, what Home decodes)
// has it. The mark elsewhere (a message quoting a transcript, a tool
// result) names no boundary: line's search counted such a line too, a
// file HomeSince then read for nothing (its boundaries are what
// DroppedRules counts, and the line has none), so what HomeSince returns
// for the horizon is the same. The whole line is not searched: only the
// subtype's value, a few bytes.
func (n *newest) lineTop(sub, ts []byte) {
	// Raw, as line's search reads the line: "microcompact_boundary"
	// holds the mark too.
	if !bytes.Contains(sub, compactMark) {
		return
	}
	n.Has = true
	n.boundary(ts)
}
