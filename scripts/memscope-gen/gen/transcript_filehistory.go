package gen

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/memscope/memscope/model"
)

// snapshot writes the file-history-snapshot of the prompt g.userUUID:
// every tracked file as it stands before the turn. A file changed since
// its last backup gets a new version first.
func (g *sessionGen) snapshot(ts time.Time) {
	var files strings.Builder
	for i, rel := range g.trackOrder {
		f := g.tracked[rel]
		if f.changed {
			f.version++
			f.absent, f.changed = false, false
			g.backup(f)
		}
		if i > 0 {
			files.WriteByte(',')
		}
		fmt.Fprintf(&files, `"%s":%s`, rel, g.backupJSON(f, ts))
	}
	t := g.t
	t.line = fmt.Appendf(t.line[:0], `{"type":"file-history-snapshot","messageId":"%s","snapshot":{"messageId":"%s","trackedFileBackups":{%s},"timestamp":"%s"},"isSnapshotUpdate":false}`,
		g.userUUID, g.userUUID, files.String(), isoMillis(ts))
	t.emit("file-history-snapshot", "")
	t.st.FileHistorySnapshots++
}

func (g *sessionGen) backupJSON(f *trackedFile, ts time.Time) string {
	name := "null"
	if !f.absent {
		name = `"` + model.BackupFileName(f.abs, f.version) + `"`
	}
	return fmt.Sprintf(`{"backupFileName":%s,"version":%d,"backupTime":"%s","realParentDir":"%s"}`, name, f.version, isoMillis(ts), jsonEscape(path.Dir(f.abs)))
}

// touch records an Edit of rel: the first edit in the session writes the
// version-1 backup (null for a file the edit creates) and a delta record
// merged into the current prompt's snapshot.
func (g *sessionGen) touch(rel, assistantUUID string) {
	f := g.tracked[rel]
	if f == nil {
		f = &trackedFile{rel: rel, abs: g.plan.CWD + "/" + rel, version: 1, absent: rel != "README.md" && g.r.IntN(5) == 0}
		g.tracked[rel] = f
		g.trackOrder = append(g.trackOrder, rel)
		if !f.absent {
			g.backup(f)
		}
		t := g.t
		ts := t.tick(time.Millisecond, 50*time.Millisecond)
		t.line = fmt.Appendf(t.line[:0], `{"type":"file-history-delta","messageId":"%s","snapshotMessageId":"%s","trackingPath":"%s","backup":%s,"timestamp":"%s"}`,
			assistantUUID, g.userUUID, rel, g.backupJSON(f, ts), isoMillis(ts))
		t.seenTime(ts)
		t.emit("file-history-delta", "")
		t.st.FileHistoryDeltas++
	}
	f.changed = true
}

// backup writes file-history/<sessionId>/<h16>@v<N>.
func (g *sessionGen) backup(f *trackedFile) {
	rel := path.Join("file-history", g.plan.SID, model.BackupFileName(f.abs, f.version))
	err := writeFileMkdir(filepath.Join(g.plan.Home, filepath.FromSlash(rel)), []byte(plainText(g.r, 500+g.r.IntN(2500))))
	if err != nil && g.t.err == nil {
		g.t.err = err
	}
	g.res.Main.FileHistoryBackups++
}
