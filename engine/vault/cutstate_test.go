package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cutHome is a home whose files reach every corner of the cutter: the
// fixture home, transcripts naming their session near each line's end
// (as a recent Claude Code writes them) and a fork of one (the same
// records, its own id), a history.jsonl naming a new session on most
// lines, a line longer than a chunk, NULs, CRLF line ends and a last
// line without its newline.
func cutHome(t *testing.T) string {
	home := testHome(t, 3000)
	tailLine := func(sid string, i, bulk int) string {
		return fmt.Sprintf(`{"type":"user","message":{"content":"%s"},"uuid":"u-%06d","cwd":"/home/me/app","sessionId":"%s","version":"2.1.330","gitBranch":"main"}`+"\n",
			strings.Repeat(fmt.Sprintf("w%d ", i%97), bulk/4), i, sid)
	}
	var parent, fork, hist strings.Builder
	for i := range 3000 {
		parent.WriteString(tailLine(sidA, i, 100+i%700))
		fork.WriteString(tailLine(sidB, i, 100+i%700))
		fmt.Fprintf(&hist, `{"display":"d%d","timestamp":%d,"project":"/home/me/app","sessionId":"%08d-1111-4111-8111-111111111111"}`+"\n", i, int64(1761991200000)+int64(i), i/3)
	}
	parent.WriteString(strings.Repeat("long ", maxChunk/2) + "\n")
	parent.WriteString("a\x00b" + tailLine(sidA, 1, 50) + "c\r\n" + tailLine(sidA, 2, 50)[:80])
	write(t, home, "projects/"+proj+"/33333333-3333-4333-8333-333333333333.jsonl", parent.String(), t0)
	write(t, home, "projects/"+proj+"/"+sidB+".jsonl", fork.String(), t0)
	write(t, home, "history.jsonl", hist.String(), t0)
	return home
}

// A first sync of cutHome writes the state main's cutter wrote, byte
// for byte: every file's chunks (their names, lengths, session ids) the
// same (device and inode numbers aside). The packs' names and order vary from sync
// to sync; their chunks are the state's.
func TestSyncStateAsMain(t *testing.T) {
	home := cutHome(t)
	v := openVault(t, nil)
	syncHome(t, v, home, t0)
	states, err := filepath.Glob(filepath.Join(v.Dir, "state", "*.jsonl"))
	if err != nil || len(states) != 1 {
		t.Fatalf("state files %v, %v", states, err)
	}
	b, err := os.ReadFile(states[0])
	if err != nil {
		t.Fatal(err)
	}
	// Device and inode numbers are the file system's (the temporary
	// folder's: a tmpfs or a disk, this machine's or another's).
	b = regexp.MustCompile(`"(dev|ino)":[0-9]+`).ReplaceAll(b, []byte(`"$1":0`))
	sum := sha256.Sum256(b)
	// main e6376c8f's state of cutHome.
	const want = "c8e24f79b721ce9e55105a49aae32ce69c1ecb8749e25640cf8a30716152e060"
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Errorf("the state's SHA-256 is %s (%d bytes), main's was %s", got, len(b), want)
	}
	if vr, err := v.Verify(); err != nil || len(vr.Problems) > 0 {
		t.Fatalf("verify: %v %v", vr.Problems, err)
	}
}
