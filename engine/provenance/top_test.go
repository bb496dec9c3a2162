package provenance

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/homepass"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/genhome"
	"github.com/memscope/memscope/model"
)

// readBoth reads data line by line as the first pass's own run does
// (firstReader.line, what the shared pass ran before i28f) and as the
// shared pass does now (lineTop, with the members stat's check kept).
func readBoth(tf model.TranscriptFile, folders []Folder, data []byte) (line, top *firstReader) {
	line, top = newFirstReader(tf, folders), newFirstReader(tf, folders)
	sum := sessions.NewSummarizing(tf.Path)
	sum.KeepTop(true)
	lr := model.NewLineReader(bytes.NewReader(data))
	for {
		l, ok := lr.Next()
		if !ok {
			break
		}
		line.line(l)
		sum.Line(l)
		top.lineTop(l, sum.Top())
	}
	sum.Summary(0, nil)
	return line, top
}

func samePass(t *testing.T, name string, line, top *firstReader) {
	t.Helper()
	if !reflect.DeepEqual(line.p, top.p) {
		t.Errorf("%s: searching each line found %+v\nfrom its members %+v", name, line.p, top.p)
	}
}

// The first pass finds the same write calls and spawns from the lines'
// members as by searching each line, on every transcript of the repo's
// test data, the provenance fixture's and a generated home's (W's kind of
// lines), with each home's memory folders looked for.
func TestLineTopFindsWhatLineFinds(t *testing.T) {
	var calls, spawns, searchedLine, searchedTop int64
	check := func(name string, kind model.TranscriptKind, folders []Folder, data []byte) {
		line, top := readBoth(model.TranscriptFile{Path: name, Kind: kind}, folders, data)
		samePass(t, name, line, top)
		calls += int64(len(top.p.calls))
		spawns += int64(len(top.p.spawns))
		searchedLine += line.searched
		searchedTop += top.searched
	}
	home := func(dir string, folders []Folder) {
		files, _ := model.FindTranscripts(os.DirFS(dir))
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(dir, f.Path))
			if err != nil {
				t.Fatal(err)
			}
			check(f.Path, f.Kind, folders, data)
		}
	}
	l, folders, _ := fixture(t)
	home(l.Home, folders)
	gen := t.TempDir()
	if err := genhome.Run(gen, "2M", "5"); err != nil {
		t.Fatal(err)
	}
	slugs, _ := fs.Glob(os.DirFS(gen), "projects/*")
	var genFolders []Folder
	for _, s := range slugs {
		genFolders = append(genFolders, ProjectFolders(gen, path.Join(gen, s, "memory"), "")...)
	}
	home(gen, genFolders)
	// The repo's test transcripts, with the fixture's folders and the
	// generated home's.
	_ = filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".cache" || d.Name() == ".git") {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".jsonl") || !strings.Contains(p, "testdata") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		check(p, model.TranscriptMain, append(folders, genFolders...), data)
		return nil
	})
	if calls == 0 || spawns == 0 {
		t.Fatalf("%d write calls and %d spawns found: the test reads nothing it can compare", calls, spawns)
	}
	t.Logf("%d calls, %d spawns; bytes searched: %d a line at a time, %d from the members", calls, spawns, searchedLine, searchedTop)
}

// The shared pass's first-pass reader takes the members stat's check
// walked (homepass.Walking) and searches only the members its decoders
// read: nothing of a line with neither a message nor a toolUseResult;
// of a tool result, its toolUseResult once (for a Task's agentId) and its
// message (not the tool result's copy of a memory file) for the write
// calls' strings. Before i28f it searched every line whole.
func TestLineTopSearchesOnlyTheMembersDecoded(t *testing.T) {
	folders := ProjectFolders("/h/.claude", "/h/.claude/projects/-p/memory", "")
	tf := model.TranscriptFile{Path: "projects/-p/s.jsonl", Kind: model.TranscriptMain}
	if _, ok := homepass.File(&firstFile{}).(homepass.Walking); !ok {
		t.Fatal("the first pass's reader does not take the shared pass's members (homepass.Walking): it searches each line whole")
	}
	big := strings.Repeat(`the memory/ file /h/.claude/projects/-p/memory/x.md "tool_use" `, 200)
	q, _ := json.Marshal(big)
	snapshot := `{"type":"file-history-snapshot","messageId":"m","snapshot":{"trackedFileBackups":{"/h/.claude/projects/-p/memory/x.md":{"backupFileName":` + string(q) + `}}},"isSnapshotUpdate":false}`
	msg := `{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"ok"}]}`
	res := `{"type":"text","file":{"filePath":"/h/.claude/projects/-p/memory/x.md","content":` + string(q) + `}}`
	result := `{"type":"user","message":` + msg + `,"uuid":"u","timestamp":"2026-01-01T00:00:00Z","toolUseResult":` + res + `}`
	for _, c := range []struct {
		line string
		max  int
	}{{snapshot, 0}, {result, len(res) + 5*len(msg)}} {
		line, top := readBoth(tf, folders, []byte(c.line+"\n"))
		samePass(t, c.line[:30], line, top)
		if top.searched > int64(c.max) || line.searched <= int64(c.max) {
			t.Errorf("%.40s…: %d bytes searched from the members (at most %d), %d a line at a time", c.line, top.searched, c.max, line.searched)
		}
	}
}

// FuzzLineTopFindsWhatLineFinds holds the members' reading to the line's
// search on lines of the kinds the pass reads (a write call on a memory
// file, a Task result, a tool result quoting a memory file), whatever the
// text they carry, and on any line at all as the line itself.
func FuzzLineTopFindsWhatLineFinds(f *testing.F) {
	for _, s := range []string{"x.md", "memory/", `"tool_use"`, `"agentId":"a1"`, "\u2028", "\xff", `\u0041`} {
		f.Add(s)
	}
	folders := ProjectFolders("/h/.claude", "/h/.claude/projects/-p/memory", "/src/p")
	tf := model.TranscriptFile{Path: "projects/-p/s.jsonl", Kind: model.TranscriptMain}
	f.Fuzz(func(t *testing.T, s string) {
		q, _ := json.Marshal(s)
		p, _ := json.Marshal("/h/.claude/projects/-p/memory/" + s)
		lines := []string{
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":` + string(q) + `},{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":` + string(p) + `,"content":` + string(q) + `}}]},"uuid":"u1"}`,
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":` + string(p) + `,"old_string":"a","new_string":` + string(q) + `}}]},"uuid":"u2"}`,
			`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t3","type":"tool_result","content":` + string(q) + `}]},"toolUseResult":{"agentId":` + string(q) + `,"content":` + string(p) + `}}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"text","text":` + string(q) + `}]},"toolUseResult":` + string(q) + `,"x":` + string(p) + `}`,
			s,
		}
		line, top := readBoth(tf, folders, []byte(strings.Join(lines, "\n")))
		if !reflect.DeepEqual(line.p, top.p) {
			t.Fatalf("%q: searching each line found %+v\nfrom its members %+v", s, line.p, top.p)
		}
	})
}
